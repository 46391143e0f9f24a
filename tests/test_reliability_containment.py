"""Containment: nothing outside the workspace folders is read, indexed or named in a result.

The workspace is a real git repository with every way out planted in it: a symlinked file and a
symlinked folder that lead out, a tracked folder later replaced by a symlink out (git still lists
its files), buffers and saved files reported through such paths, `..` segments, absolute paths
and `root` parameters of every shape (drawn by hypothesis) sent to the real server.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.workspace import Scope, check_root, is_inside

from .conftest import examples, git, make_repo, write_files
from .test_lsp_server import SERVER, command, start, wait_ready

MARKER = "outsidemarkerzq"
TASK = f"Fix the {MARKER} token expiry handler"


def build(base: Path) -> tuple[Path, Path]:
    """(workspace, outside): the workspace's ways out all lead to files holding MARKER."""
    outside = base / "outside"
    write_files(outside, {
        "secret.py": f"def {MARKER}_token_expiry():\n    return '{MARKER}'\n",
        "inner/a.py": f"def {MARKER}_handler():\n    return '{MARKER} token expiry'\n",
        "lib/util.py": f"{MARKER} = 'token expiry handler'\n",
    })
    ws = base / "ws"
    make_repo(ws, {
        "src/app.py": "def token_expiry_handler(token):\n    return token.expiry\n",
        "src/inner/a.py": "def handler():\n    return 1\n",
        "README.md": "# app\n",
    })
    os.symlink(outside / "secret.py", ws / "src/link.py")
    os.symlink(outside / "lib", ws / "linkdir")
    # A tracked folder replaced by a symlink out: git still lists src/inner/a.py.
    (ws / "src/inner/a.py").unlink()
    (ws / "src/inner").rmdir()
    os.symlink(outside / "inner", ws / "src/inner")
    git(ws, "add", "src/link.py", "linkdir")
    git(ws, "commit", "-q", "-m", "links")
    return ws.resolve(), outside.resolve()


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    return build(tmp_path_factory.mktemp("contain"))


def assert_inside(ws: Path, result_paths) -> None:
    for rel in result_paths:
        assert is_inside(ws, ws / rel), rel


def test_scope_index_and_answers_stay_inside(planted, tmp_path):
    """The listing, the index and every answer hold only files whose real path is inside."""
    ws, outside = planted
    listed = [f.rel for f in Scope(check_root(ws)).files()]
    assert "src/app.py" in listed
    assert not {"src/link.py", "src/inner/a.py", "linkdir/util.py"} & set(listed)
    engine = Engine([ws], Settings(cache_dir=str(tmp_path / "c")))
    try:
        result = engine.retrieve(TASK)
        assert_inside(ws, [f.path for f in result.files])
        assert all(MARKER not in r.text for f in result.files for r in f.regions)
        idx = engine.index(ws)
        assert all(is_inside(ws, ws / row.path) for row in idx.all_files())
        # Saved or created files, and buffers, reported through a way out: ignored.
        engine.files_changed([str(ws / "src/inner/a.py"), str(ws / "linkdir/util.py"),
                              str(ws / "src/../../outside/secret.py"), str(outside / "secret.py")])
        assert not engine.set_document(str(ws / "src/inner/new.py"), f"def {MARKER}(): pass\n")
        assert not engine.set_document(str(ws / "linkdir/x.py"), f"def {MARKER}(): pass\n")
        assert not engine.set_document(str(ws / ".." / "outside" / "y.py"), "x = 1\n")
        assert engine.index(ws).definitions([MARKER, f"{MARKER}_handler"]) == {}
        assert engine.read_text(ws, "src/inner/a.py") is None
        assert engine.read_text(ws, "../outside/secret.py") is None
        result = engine.retrieve(TASK, settings=Settings(
            cache_dir=str(tmp_path / "c"), include=("../outside/**", "/outside/*", "**/*.py")))
        assert_inside(ws, [f.path for f in result.files])
        assert all(MARKER not in r.text for f in result.files for r in f.regions)
    finally:
        engine.close()


def test_explain_refuses_ways_out(planted, tmp_path):
    """Engine.explain's path (every surface's: MCP explain_file, the LSP's explain, the CLI's
    explain) refuses paths that lead out, however they are written."""
    from iterative_retrieval.explain import ExplainError, resolve

    ws, outside = planted
    engine = Engine([ws], Settings(cache_dir=str(tmp_path / "c")))
    for bad in ["../outside/secret.py", str(outside / "secret.py"), "src/link.py",
                "src/inner/a.py", "linkdir/util.py", "src/../../outside/secret.py",
                (outside / "secret.py").as_uri(), "/etc/passwd"]:
        with pytest.raises(ExplainError, match="outside the workspace root"):
            resolve(engine, bad)
        with pytest.raises(ExplainError, match="outside the workspace root"):
            engine.explain(bad, TASK)
    assert resolve(engine, "src/app.py") == (ws, "src/app.py")
    engine.close()


# -- the server, with `root` parameters of every shape ----------------------------------------

@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def server(lsp_client: LanguageClient, tmp_path_factory):
    ws, outside = build(tmp_path_factory.mktemp("contain-lsp"))
    lsp_client.ws, lsp_client.outside = ws, outside
    await start(lsp_client, tmp_path_factory.mktemp("c"), [ws])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


def run_on(loop: asyncio.AbstractEventLoop, coro):
    """Run a coroutine on the test's event loop from hypothesis's thread; its result."""
    return asyncio.run_coroutine_threadsafe(coro, loop).result(120)


def segment() -> st.SearchStrategy[str]:
    return st.sampled_from(["..", ".", "src", "linkdir", "src/inner", "outside", "", "ws",
                            "%2e%2e", "src/link.py", "etc", "~", "\u2028", "a b", "*"])


def root_values(ws: Path, outside: Path) -> st.SearchStrategy[str]:
    rel = st.lists(segment(), max_size=6).map("/".join)
    return st.one_of(
        rel,  # relative: refused
        rel.map(lambda r: f"{ws}/{r}"),
        rel.map(lambda r: f"{outside}/{r}"),
        rel.map(lambda r: "/" + r),
        rel.map(lambda r: f"file://{ws}/{r}"),
        rel.map(lambda r: f"file://{ws.as_posix().replace('/', '%2F')}/{r}"),
        rel.map(lambda r: f"file://localhost{ws}/{r}"),
        rel.map(lambda r: f"vscode-remote://{ws}/{r}"),
        st.text(max_size=30),
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_root_parameters_never_lead_out(server: LanguageClient):
    """Every `root` is refused with InvalidParams or searched inside the workspace only; results
    never name a file whose real path is outside, and never quote one."""
    ws, outside = server.ws, server.outside
    counts = {"answered": 0, "refused": 0}
    loop = asyncio.get_running_loop()

    @settings(max_examples=examples(60, 1500), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(value=root_values(ws, outside))
    def check(value: str) -> None:
        try:
            result = run_on(loop, command(server, "iterativeRetrieval.retrieve",
                                          {"task": TASK, "root": value, "maxCycles": 1}))
        except JsonRpcInvalidParams as exc:
            assert "'root'" in str(exc)
            counts["refused"] += 1
            return
        counts["answered"] += 1
        for f in result["files"]:
            assert is_inside(ws, Path(f["root"]) / f["path"]), f
            assert f["uri"].startswith(ws.as_uri() + "/")
            assert all(MARKER not in r["text"] for r in f["regions"])

    await asyncio.to_thread(check)  # hypothesis drives the examples from a thread
    assert counts["answered"] and counts["refused"]
    print(f"root parameters: {counts}")
    # A buffer opened through a symlinked folder is ignored; the server still answers.
    server.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=(ws / "linkdir/new.py").as_uri(),
                                             language_id="python", version=1,
                                             text=f"def {MARKER}(): pass\n")))
    st_ = await command(server, "iterativeRetrieval.status")
    assert st_["open_buffers"] == 0
