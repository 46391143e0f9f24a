"""The project as a user installs it, outside the source tree.

`python -m build` makes an sdist and a wheel (the wheel built from the sdist, so the sdist is
complete); the wheel goes into a fresh venv with pip, the README's install lines (pipx, uv) are
run as written, and each installed `iterative-retrieval` runs the README's main command on the
sample from another folder. The version is defined once and printed alike everywhere. The tests marked
`packaging` build and install for real (a minute or two, the package index reachable);
`-m "not packaging"` leaves them out. The README's MCP configuration is run as written too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import iterative_retrieval

from .conftest import EXAMPLES

packaging = pytest.mark.packaging

ROOT = Path(__file__).resolve().parent.parent
TASK = "Fix the authentication token expiry bug"
# The user's cache, read before the autouse fixture points XDG_CACHE_HOME at a temp folder: pip
# and uv keep their downloads there, so each test does not fetch the dependencies again.
USER_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
VERSION = iterative_retrieval.__version__


def tool(name: str) -> str:
    """A command-line tool the tests run (pipx, uv): on PATH or beside this Python."""
    for candidate in (Path(sys.executable).parent / name, shutil.which(name)):
        if candidate and os.access(candidate, os.X_OK):
            return str(candidate)
    message = f"{name} is not installed (pip install -e '.[test]' brings it)"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def run(cmd: list[str] | str, *, cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                       shell=isinstance(cmd, str), stdin=subprocess.DEVNULL, check=False)
    assert p.returncode == 0, f"{cmd} exited {p.returncode}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p


def source_copy(dest: Path) -> Path:
    """The files a checkout has (tracked, plus new ones not ignored), without build leftovers."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def tool_env(home: Path) -> dict[str, str]:
    """An environment whose pipx and uv install into `home`, with the user's download caches."""
    env = dict(os.environ)
    env.update(
        PIPX_HOME=str(home / "pipx"), PIPX_BIN_DIR=str(home / "bin"),
        PIPX_MAN_DIR=str(home / "man"), PIPX_DEFAULT_PYTHON=sys.executable,
        UV_TOOL_DIR=str(home / "uv-tools"), UV_TOOL_BIN_DIR=str(home / "bin"),
        UV_PYTHON=sys.executable, UV_PYTHON_DOWNLOADS="never",
        UV_CACHE_DIR=str(USER_CACHE / "uv"), PIP_CACHE_DIR=str(USER_CACHE / "pip"),
        XDG_CACHE_HOME=str(home / "cache"), PIP_DISABLE_PIP_VERSION_CHECK="1",
        PATH=os.pathsep.join([str(home / "bin"), str(Path(sys.executable).parent),
                              os.environ.get("PATH", "")]),
    )
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    return env


def works(exe: list[str], where: Path, env: dict[str, str]) -> None:
    """`exe --version` prints the one version; the README's main command finds the auth files."""
    out = run([*exe, "--version"], cwd=where, env=env).stdout.strip()
    assert out == f"iterative-retrieval {VERSION}"
    sample = where / "auth-service"
    if not sample.exists():
        shutil.copytree(EXAMPLES / "auth-service", sample)
    p = run([*exe, "retrieve", TASK, "--root", str(sample), "--json", "-q",
             "--cache-dir", str(where / "index")], cwd=where, env=env)
    top = {f["path"] for f in json.loads(p.stdout)["files"][:4]}
    assert top == {"src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts",
                   "src/auth/jwt-utils.ts"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """`python -m build` on a copy of the checkout: the sdist, the wheel made from it, and a pure
    wheel (`IR_PURE_PYTHON=1`, no accelerator)."""
    src = source_copy(tmp_path_factory.mktemp("src"))
    out = tmp_path_factory.mktemp("dist")
    env = tool_env(tmp_path_factory.mktemp("home"))
    run([sys.executable, "-m", "build", "--outdir", str(out), str(src)], cwd=src, env=env)
    pure = out / "pure"
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(pure), str(src)], cwd=src,
        env={**env, "IR_PURE_PYTHON": "1"})
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    (pure_wheel,) = pure.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel, "pure": pure_wheel}


def test_version_is_defined_once_and_printed_alike(tmp_path):
    """pyproject reads the version from the package; the console script, `python -m` and the
    VS Code extension's manifest all say the same."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in meta["project"] and "version" in meta["project"]["dynamic"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "iterative_retrieval.__version__"}
    expected = f"iterative-retrieval {VERSION}"
    by_module = run([sys.executable, "-m", "iterative_retrieval", "--version"], cwd=tmp_path)
    assert by_module.stdout.strip() == expected
    script = Path(sys.executable).parent / "iterative-retrieval"
    if script.exists():  # installed with pip install -e
        assert run([str(script), "--version"], cwd=tmp_path).stdout.strip() == expected
    manifest = json.loads((ROOT / "client-vscode" / "package.json").read_text())
    assert manifest["version"] == VERSION


@packaging
def test_build_makes_an_sdist_and_wheels(built):
    """The sdist carries what a build needs (the C source, setup.py, the README); the wheels
    carry the package and its entry point, no tests; the pure one installs anywhere."""
    import tarfile

    with tarfile.open(built["sdist"]) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for need in ("setup.py", "pyproject.toml", "README.md",
                 "server/iterative_retrieval/_speedups.c", "server/iterative_retrieval/cli.py"):
        assert need in names, need
    for wheel in (built["wheel"], built["pure"]):
        with zipfile.ZipFile(wheel) as z:
            files = z.namelist()
        assert "iterative_retrieval/__main__.py" in files
        assert not any(f.startswith("tests/") for f in files)
        entry = next(f for f in files if f.endswith("entry_points.txt"))
        with zipfile.ZipFile(wheel) as z:
            assert "iterative-retrieval = iterative_retrieval.cli:main" in z.read(entry).decode()
    assert built["pure"].name == f"iterative_retrieval-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(built["pure"]) as z:
        assert not any("_speedups" in f and not f.endswith(".c") for f in z.namelist())


@packaging
def test_wheel_in_a_fresh_venv(built, tmp_path):
    """pip install of the built wheel into a venv with nothing else runs the main command, with
    the accelerator where the wheel has it."""
    env = tool_env(tmp_path)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=env)
    py = venv / "bin" / "python"
    run([str(py), "-m", "pip", "install", "-q", str(built["wheel"])], cwd=tmp_path, env=env)
    works([str(venv / "bin" / "iterative-retrieval")], tmp_path, env)
    works([str(py), "-m", "iterative_retrieval"], tmp_path, env)
    has_c = any("_speedups" in f and f.endswith((".so", ".pyd"))
                for f in zipfile.ZipFile(built["wheel"]).namelist())
    code = "from iterative_retrieval import tokenize; print(tokenize._speedups is not None)"
    probe = run([str(py), "-c", code], cwd=tmp_path, env=env)
    assert probe.stdout.strip() == str(has_c)


@packaging
def test_pipx_and_uv_install_the_wheel(built, tmp_path):
    """`pipx install` and `uv tool install` of the pure wheel each put a working
    `iterative-retrieval` on PATH."""
    env = tool_env(tmp_path)
    run([tool("pipx"), "install", str(built["pure"])], cwd=tmp_path, env=env)
    works([str(tmp_path / "bin" / "iterative-retrieval")], tmp_path, env)
    run([tool("pipx"), "uninstall", "iterative-retrieval"], cwd=tmp_path, env=env)
    assert not (tmp_path / "bin" / "iterative-retrieval").exists()
    run([tool("uv"), "tool", "install", str(built["pure"])], cwd=tmp_path, env=env)
    works([str(tmp_path / "bin" / "iterative-retrieval")], tmp_path, env)


def readme_block(marker: str) -> list[str]:
    """The command lines of the fenced block after `<!-- marker -->` in README.md."""
    text = (ROOT / "README.md").read_text()
    m = re.search(rf"<!-- {re.escape(marker)} -->\s*```\w*\n(.*?)```", text, re.DOTALL)
    assert m, f"README.md has no block marked {marker}"
    return [ln.strip() for ln in m.group(1).splitlines() if ln.strip() and not ln.strip().startswith("#")]


@packaging
def test_readme_install_lines_work_as_written(tmp_path):
    """Each line of the README's install block, run in a checkout, leaves a working
    `iterative-retrieval` on PATH (pipx, then uv in a fresh tool folder)."""
    lines = readme_block("install: tests/test_packaging.py")
    assert any(ln.startswith("pipx install") for ln in lines)
    assert any(ln.startswith("uv tool install") for ln in lines)
    checkout = source_copy(tmp_path / "checkout")
    for i, line in enumerate(lines):
        home = tmp_path / f"home{i}"
        env = tool_env(home)
        env["PATH"] = os.pathsep.join([str(home / "bin"), str(Path(tool("pipx")).parent),
                                       env["PATH"]])
        command = line.split("  #")[0].strip()
        run(command, cwd=checkout, env=env)
        if command.startswith(("pipx", "uv")):
            works([str(home / "bin" / "iterative-retrieval")], tmp_path, env)


def test_readme_mcp_config_serves_the_tools(tmp_path):
    """The README's .mcp.json, run as a client runs it (its command from PATH, in the project
    folder), serves the three tools and finds the auth files."""
    from anyio.from_thread import start_blocking_portal
    from mcp import Client, StdioServerParameters

    (config,) = readme_block("mcp: tests/test_packaging.py")
    server = json.loads(config)["mcpServers"]["iterative-retrieval"]
    assert server["type"] == "stdio"
    command = shutil.which(server["command"], path=os.pathsep.join(
        [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    assert command, f"{server['command']} is not on PATH (pip install -e . puts it there)"
    ws = tmp_path / "auth-service"
    shutil.copytree(EXAMPLES / "auth-service", ws)
    params = StdioServerParameters(command=command, args=server["args"], cwd=str(ws),
                                   env={**os.environ, "ITERATIVE_RETRIEVAL_CACHE": str(tmp_path / "c")})
    with (start_blocking_portal() as portal,
          portal.wrap_async_context_manager(Client(params, read_timeout_seconds=60)) as client):
        tools = {t.name for t in portal.call(client.list_tools).tools}
        assert tools == {"retrieve_context", "explain_file", "index_status"}
        answer = portal.call(lambda: client.call_tool("retrieve_context", {"task": TASK}))
    text = answer.content[0].text
    assert not answer.is_error, text
    assert "src/auth/tokens.ts" in text and "src/auth/auth.ts" in text
