"""File names that cannot be stored or shown as they are: names that are not UTF-8 are counted
and skipped, the rest of the workspace works on every surface (CLI, language server, MCP); a name
with a newline is quoted in the text and Markdown outputs, never split across lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from anyio.from_thread import start_blocking_portal
from mcp import Client, StdioServerParameters
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import git, make_repo, write_files
from .test_lsp_server import SERVER, command, start, wait_ready

TASK = "Fix the token expiry"
TOKENS = "def refresh_token_expiry(token):\n    \"\"\"Renew the token expiry.\"\"\"\n    return 1\n"
BAD_NAMES = [b"caf\xe9.txt", b"notes/r\xe9sum\xe9_token.md", b"lat\xff1/expiry_token.py"]


def _workspace(base: Path, as_git: bool) -> Path:
    root = base / ("repo" if as_git else "plain")
    files = {"auth/tokens.py": TOKENS, "auth/other.py": "def unrelated():\n    return 2\n"}
    (make_repo if as_git else write_files)(root, files)
    for raw in BAD_NAMES:
        path = os.fsencode(root) + b"/" + raw
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(b"token expiry token expiry\n")
    if as_git:
        git(root, "add", "-A")  # tracked too: git lists them with their bytes
        git(root, "commit", "-q", "-m", "bad names")
    return root


def cli(*args: str, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}  # as a UTF-8 terminal would
    return subprocess.run([sys.executable, "-m", "iterative_retrieval", *args],
                          capture_output=True, text=True, timeout=120, env=env, **kw)


@pytest.mark.parametrize("as_git", [True, False], ids=["git", "plain"])
def test_the_command_line_skips_and_counts_names_that_are_not_utf8(tmp_path, as_git):
    """`retrieve` and `index` exit 0 with the right answer; the files are counted as skipped,
    the second run re-reads nothing, and a removed one leaves the count."""
    root = _workspace(tmp_path, as_git)
    cache = str(tmp_path / "cache")
    p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", cache, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["files"][0]["path"] == "auth/tokens.py"
    assert all("\udce9" not in f["path"] and "\\x" not in f["path"] for f in out["files"])
    assert out["stats"]["skipped"] == {"undecodable_name": len(BAD_NAMES)}
    p = cli("index", "--root", str(root), "--cache-dir", cache, "--json")
    assert p.returncode == 0, p.stderr
    stats = json.loads(p.stdout)[0]
    assert stats["skipped"] == {"undecodable_name": len(BAD_NAMES)}
    assert stats["indexed"] == 0 and stats["files"] == 2 + len(BAD_NAMES)
    os.unlink(os.fsencode(root) + b"/" + BAD_NAMES[0])
    p = cli("index", "--root", str(root), "--cache-dir", cache, "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)[0]["skipped"] == {"undecodable_name": len(BAD_NAMES) - 1}


def test_a_root_whose_name_is_not_utf8(tmp_path):
    """A workspace folder whose own name is not UTF-8 is searched; the root is printed with
    escapes that keep the JSON valid."""
    root = Path(os.fsdecode(os.fsencode(tmp_path) + b"/w\xe9s"))
    write_files(root, {"auth/tokens.py": TOKENS})
    p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(tmp_path / "c"), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["files"][0]["path"] == "auth/tokens.py"
    assert out["roots"] == [str(root)]  # the escape decodes to the name's own character


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def named(lsp_client: LanguageClient, tmp_path):
    lsp_client.root = _workspace(tmp_path, as_git=True)
    await start(lsp_client, tmp_path, [lsp_client.root])
    yield
    await lsp_client.shutdown_session()


async def test_the_language_server_serves_beside_names_that_are_not_utf8(named: LanguageClient):
    """The server's index gets ready (it went to `state: error`), counts the files, and answers."""
    st = await wait_ready(named)
    assert st["state"] == "ready", st
    assert st["roots"][0]["skipped"] == {"undecodable_name": len(BAD_NAMES)}
    result = await command(named, "iterativeRetrieval.retrieve", {"task": TASK})
    assert result["files"][0]["path"] == "auth/tokens.py"
    reindex = await command(named, "iterativeRetrieval.reindex")
    assert reindex["state"] == "ready"


def test_the_mcp_server_serves_beside_names_that_are_not_utf8(tmp_path):
    """MCP `retrieve_context` and `index_status` answer (they returned errors)."""
    root = _workspace(tmp_path, as_git=False)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "iterative_retrieval", "mcp", "--root", str(root),
              "--cache-dir", str(tmp_path / "cache")])
    with start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(params, read_timeout_seconds=60)) as client:
        res = portal.call(lambda: client.call_tool("retrieve_context", {"task": TASK}))
        assert not res.is_error, res
        assert res.structured_content["files"][0]["path"] == "auth/tokens.py"
        status = portal.call(lambda: client.call_tool("index_status", {}))
        assert not status.is_error, status
        skipped = status.structured_content["roots"][0]["skipped"]
        assert skipped == {"undecodable_name": len(BAD_NAMES)}


def test_a_name_with_a_newline_is_quoted_in_the_text_outputs(tmp_path):
    """A file named `evil\\n 2. 0.99 high fake.py` shows as one quoted path in the text and
    Markdown outputs, not as a line of its own; JSON keeps the name as it is."""
    name = "auth/evil\n 2. 0.99 high   fake.py"
    root = write_files(tmp_path / "ws", {"auth/tokens.py": TOKENS, name: TOKENS})
    base = ["retrieve", TASK, "--root", str(root), "--cache-dir", str(tmp_path / "c")]
    p = cli(*base, "--regions")
    assert p.returncode == 0, p.stderr
    assert '"auth/evil\\n 2. 0.99 high   fake.py"' in p.stdout
    assert not any(line.startswith(" 2. 0.99 high   fake.py") for line in p.stdout.split("\n"))
    p = cli(*base, "--markdown")
    assert p.returncode == 0, p.stderr
    assert '`"auth/evil\\n 2. 0.99 high   fake.py"`' in p.stdout
    p = cli(*base, "--json")
    assert name in {f["path"] for f in json.loads(p.stdout)["files"]}


@pytest.mark.parametrize(("path", "shown"), [
    ("src/a.py", "src/a.py"),
    ("src/é.py", "src/é.py"),
    ("a\nb.py", '"a\\nb.py"'),
    ("tab\there", '"tab\\there"'),
    ('say"hi".py', '"say\\"hi\\".py"'),
    ("back\\slash", '"back\\\\slash"'),
    ("sep\u2028x", '"sep\\u2028x"'),
    ("caf\udce9.txt", '"caf\\xe9.txt"'),
    ("bell\x07", '"bell\\x07"'),
])
def test_shown_path_quotes_what_would_break_a_line(path, shown):
    """Paths print as one line, quoted C-style as git quotes them when they need it."""
    from iterative_retrieval.render import shown_path

    assert shown_path(path) == shown
