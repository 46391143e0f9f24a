"""The language server end to end: a real server process over stdio, driven by pytest-lsp.

The workspaces are copies of the sample projects on disk; no part of pygls is mocked.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from iterative_retrieval import __version__

from .conftest import EXAMPLES

SERVER = [sys.executable, "-m", "iterative_retrieval", "serve"]
# Pauses after each progress step, so a retrieve runs long enough to be cancelled mid-loop.
SLOW_SERVER = ["env", "ITERATIVE_RETRIEVAL_LSP_SLOW=0.4", *SERVER]
AUTH_TOP4 = {"src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts",
             "src/auth/jwt-utils.ts"}
TASK = "Fix the authentication token expiry bug"
TIMEOUT = 30


def copy_example(tmp_path: Path, name: str) -> Path:
    dest = tmp_path / "ws" / name
    shutil.copytree(EXAMPLES / name, dest)
    return dest


async def start(client: LanguageClient, tmp_path: Path, folders: list[Path],
                options: dict[str, Any] | None = None, editor: str = "visual-studio-code"):
    """Initialize like an editor would; record the server's dynamic registrations."""
    client.registrations = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    opts = {"cacheDir": str(tmp_path / "cache")} if options is None else options
    return await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(editor),
        workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
        initialization_options=opts,
    ))


# Every test and fixture runs on the module's event loop, so that read-only tests can share one
# server (each start costs a second or more); tests that change the workspace get their own.
pytestmark = pytest.mark.asyncio(loop_scope="module")
ONE_LOOP = {"loop_scope": "module"}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def shared(lsp_client: LanguageClient, tmp_path_factory):
    """One server over a copy of the auth sample, for tests that only read."""
    tmp = tmp_path_factory.mktemp("shared")
    lsp_client.workspace_root = copy_example(tmp, "auth-service")
    lsp_client.init_result = await start(lsp_client, tmp, [lsp_client.workspace_root])
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), **ONE_LOOP)
async def client(lsp_client: LanguageClient, tmp_path):
    """A server of its own over a fresh copy of the auth sample, for tests that change it."""
    lsp_client.workspace_root = copy_example(tmp_path, "auth-service")
    lsp_client.init_result = await start(lsp_client, tmp_path, [lsp_client.workspace_root])
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SLOW_SERVER), scope="module")
async def slow_client(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("slow")
    lsp_client.workspace_root = copy_example(tmp, "auth-service")
    await start(lsp_client, tmp, [lsp_client.workspace_root])
    # as an editor shows "index ready" first: a retrieve sent before the server's first refresh
    # is scheduled (it waits for the client's configuration) would leave that refresh running
    # after the cancel, and `status` would rightly say "indexing"
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), **ONE_LOOP)
async def bare_client(lsp_client: LanguageClient, tmp_path):
    """An editor with no progress, no watchers, no configuration; bad initializationOptions."""
    lsp_client.workspace_root = copy_example(tmp_path, "auth-service")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        root_uri=lsp_client.workspace_root.as_uri(),
        initialization_options={"iterativeRetrieval": {
            "maxCycles": "lots", "budget": 10, "exclude": "src/services/**",
            "cacheDir": str(tmp_path / "cache2"), "colour": "blue",
        }},
    ))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), **ONE_LOOP)
async def empty_client(lsp_client: LanguageClient, tmp_path):
    """An editor started without any folder."""
    await start(lsp_client, tmp_path, [])
    yield
    await lsp_client.shutdown_session()


async def command(client: LanguageClient, name: str, *arguments: Any, token=None) -> Any:
    params = types.ExecuteCommandParams(command=name, arguments=list(arguments),
                                        work_done_token=token)
    return await asyncio.wait_for(client.workspace_execute_command_async(params), TIMEOUT)


async def retrieve(client: LanguageClient, **args: Any) -> dict[str, Any]:
    return await command(client, "iterativeRetrieval.retrieve", args)


def paths(result: dict[str, Any], n: int | None = None) -> list[str]:
    return [f["path"] for f in result["files"][:n]]


async def wait_ready(client: LanguageClient, bound: float = 300) -> dict[str, Any]:
    """The status once the index is ready (or in error); `bound` seconds only turn a hang into a
    failure (a loaded CI machine indexed the samples in well over the 10 s it once allowed)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + bound
    while True:
        st = await command(client, "iterativeRetrieval.status")
        if st["state"] in ("ready", "error") or loop.time() > end:
            break
        await asyncio.sleep(0.05)
    if st["state"] not in ("ready", "error"):
        raise AssertionError(f"index never became ready: {st}")
    return st


def did_open(client: LanguageClient, path: Path, text: str, version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="typescript",
                                             version=version, text=text),
    ))


# -- start-up ----------------------------------------------------------------------------------


async def test_initialize_advertises_commands_and_indexes(shared: LanguageClient):
    """The five commands are advertised; after `initialized` the index is built with progress."""
    caps = shared.init_result.capabilities
    assert set(caps.execute_command_provider.commands) == {
        "iterativeRetrieval.retrieve", "iterativeRetrieval.status",
        "iterativeRetrieval.reindex", "iterativeRetrieval.renderContext",
        "iterativeRetrieval.explain",
    }
    assert shared.init_result.server_info.name == "iterative-retrieval"
    st = await wait_ready(shared)
    assert st["state"] == "ready" and st["version"] == __version__
    assert [r["root"] for r in st["roots"]] == [str(shared.workspace_root)]
    assert st["files"] >= 40 and st["watching_files"] is True
    indexing = [v for v in shared.progress_reports.values()
                if v and getattr(v[0], "title", "") == "Indexing workspace"]
    assert indexing and indexing[0][0].kind == "begin" and indexing[0][-1].kind == "end"
    assert "files indexed" in indexing[0][-1].message
    methods = {r.method for r in shared.registrations}
    assert types.WORKSPACE_DID_CHANGE_WATCHED_FILES in methods


# -- retrieve ----------------------------------------------------------------------------------


async def test_retrieve_returns_the_expected_files(shared: LanguageClient):
    """The auth sample's four auth files come first; the result is the CLI's JSON object."""
    result = await retrieve(shared, task=TASK)
    assert set(paths(result, 4)) == AUTH_TOP4
    assert result["schema_version"] and result["task"] == TASK and result["trace"]
    assert result["roots"] == [str(shared.workspace_root)]
    for f in result["files"]:
        assert f["uri"].startswith(shared.workspace_root.as_uri() + "/")
        assert f["root"] == str(shared.workspace_root)


def cli_files(root: Path, task: str, cache: Path) -> list[tuple]:
    """(path, relevance, band, role) of the command line's answer, as a process."""
    import json
    import subprocess

    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", task, "--root",
                        str(root), "--json", "-q", "--cache-dir", str(cache)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return [(f["path"], f["relevance"], f["band"], f["role"])
            for f in json.loads(p.stdout)["files"]]


async def test_the_same_ranking_and_bands_as_the_command_line(shared: LanguageClient, tmp_path):
    """The server's answer is the CLI's: the same files, in order, with the same relevance,
    band and role (one engine behind every surface)."""
    result = await retrieve(shared, task=TASK)
    mine = [(f["path"], f["relevance"], f["band"], f["role"]) for f in result["files"]]
    assert mine == cli_files(shared.workspace_root, TASK, tmp_path / "cli-cache")


async def test_progress_arrives_in_order(shared: LanguageClient):
    """With the client's workDoneToken: begin, per-cycle reports, end — in that order."""
    token = f"retrieve-{uuid.uuid4()}"
    shared.progress_reports[token] = []
    await command(shared, "iterativeRetrieval.retrieve", {"task": TASK}, token=token)
    await asyncio.sleep(0.1)  # the end notification may trail the response by a hair
    reports = shared.progress_reports[token]
    kinds = [v.kind for v in reports]
    assert kinds[0] == "begin" and kinds[-1] == "end" and set(kinds[1:-1]) == {"report"}
    messages = [v.message for v in reports[1:-1]]
    assert any(m.startswith("cycle 1/3: evaluating") and "candidates" in m for m in messages)
    pct = [v.percentage for v in reports[1:-1]]
    assert pct == sorted(pct)
    assert reports[0].cancellable is True and reports[0].title == "Retrieving context"
    assert "files" in reports[-1].message


async def test_progress_token_created_when_client_gives_none(shared: LanguageClient):
    """Without a workDoneToken the server creates one (window/workDoneProgress/create)."""

    def runs() -> list:
        return [v for v in shared.progress_reports.values()
                if v and getattr(v[0], "title", "") == "Retrieving context"]

    before = len(runs())
    await retrieve(shared, task=TASK)
    await asyncio.sleep(0.1)
    assert len(runs()) == before + 1 and runs()[-1][-1].kind == "end"


async def test_two_concurrent_retrieves_both_complete(shared: LanguageClient):
    """Two retrieves at once both answer, each with its own result."""
    a, b = await asyncio.gather(
        retrieve(shared, task=TASK),
        retrieve(shared, task="Add a coupon discount to the billing invoice total"),
    )
    assert set(paths(a, 4)) == AUTH_TOP4
    assert any("coupon" in p or "billing" in p for p in paths(b, 3))


async def test_root_must_be_inside_the_workspace(shared: LanguageClient, tmp_path):
    """A root outside the folders is refused; a subfolder (path or URI) narrows the search."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    ws = shared.workspace_root
    for root in (str(outside), "/etc", outside.as_uri(), str(ws.parent), f"{ws}/../.."):
        with pytest.raises(JsonRpcInvalidParams, match="outside the workspace folders"):
            await retrieve(shared, task=TASK, root=root)
    with pytest.raises(JsonRpcInvalidParams, match="absolute path"):
        await retrieve(shared, task=TASK, root="src/auth")
    with pytest.raises(JsonRpcInvalidParams, match="not a folder"):
        await retrieve(shared, task=TASK, root=str(ws / "src" / "app.ts"))
    sub = await retrieve(shared, task=TASK, root=(ws / "src" / "auth").as_uri())
    assert sub["files"] and all(p.startswith("src/auth/") for p in paths(sub))
    whole = await retrieve(shared, task=TASK, root=str(ws))
    assert set(paths(whole, 4)) == AUTH_TOP4


# -- errors ------------------------------------------------------------------------------------

BAD_RETRIEVE = [
    ([], "takes one object argument"),
    (["fix the bug"], "takes one object argument, got 'fix the bug'"),
    ([{"task": "a"}, {"task": "b"}], "got 2 arguments"),
    ([{}], "'task' is required"),
    ([{"task": "   "}], "'task' is empty"),
    ([{"task": 42}], "'task' must be a string"),
    ([{"task": TASK, "maxCycles": "three"}], "'maxCycles' must be an integer from 1 to 10"),
    ([{"task": TASK, "maxCycles": 0}], "'maxCycles' must be from 1 to 10, got 0"),
    ([{"task": TASK, "budget": 5}], "'budget' must be from 200 to 1000000 tokens"),
    ([{"task": TASK, "include": [1, 2]}], "'include' must be a glob pattern"),
    ([{"task": TASK, "root": 7}], "'root' must be a folder path"),
    ([{"task": TASK, "max_cycles": 2}], "unknown parameter(s) max_cycles"),
]


async def test_bad_params_are_invalid_params(shared: LanguageClient):
    """Malformed arguments get InvalidParams saying what was wrong; the next request works."""
    for arguments, message in BAD_RETRIEVE:
        with pytest.raises(JsonRpcInvalidParams) as err:
            await command(shared, "iterativeRetrieval.retrieve", *arguments)
        assert message in err.value.message, (arguments, err.value.message)
        assert err.value.code == -32602
    assert set(paths(await retrieve(shared, task=TASK), 4)) == AUTH_TOP4


async def test_other_commands_check_their_params(shared: LanguageClient):
    """renderContext, status and reindex refuse bad arguments; unknown commands are errors."""
    cases = [
        ("iterativeRetrieval.renderContext", {"task": TASK, "format": "html"}, "'format'"),
        ("iterativeRetrieval.renderContext", {"format": "markdown"}, "'task'"),
        ("iterativeRetrieval.renderContext", {"task": TASK, "result": {}}, "not both"),
        ("iterativeRetrieval.renderContext", {"result": {"task": "x", "files": [{"path": 1}]}},
         "'result.files[0].path' must be a string"),
        ("iterativeRetrieval.status", {"verbose": True}, "unknown parameter(s) verbose"),
        ("iterativeRetrieval.reindex", [1], "takes one object argument"),
    ]
    for name, arg, message in cases:
        with pytest.raises(JsonRpcInvalidParams) as err:
            await command(shared, name, arg)
        assert message in err.value.message, err.value.message
    with pytest.raises(JsonRpcException, match="iterativeRetrieval.nope"):
        await command(shared, "iterativeRetrieval.nope", {})
    assert (await command(shared, "iterativeRetrieval.status"))["state"] in ("indexing", "ready")


# -- renderContext -----------------------------------------------------------------------------


async def test_render_context_from_a_task_or_a_result(shared: LanguageClient):
    """The renderContext command gives Markdown for a chat, from a task or from a result."""
    by_task = await command(shared, "iterativeRetrieval.renderContext", {"task": TASK})
    assert by_task["format"] == "markdown"
    assert by_task["text"].startswith("## Context for: Fix the authentication token expiry bug")
    assert "`src/auth/tokens.ts`" in by_task["text"] and "```typescript" in by_task["text"]
    result = await retrieve(shared, task=TASK)
    by_result = await command(shared, "iterativeRetrieval.renderContext",
                              {"result": result, "format": "markdown"})
    assert by_result["text"] == by_task["text"]


# -- cancellation ------------------------------------------------------------------------------


async def _start_slow_retrieve(client: LanguageClient, token: str, msg_id: str):
    client.progress_reports[token] = []
    fut = asyncio.ensure_future(client.protocol.send_request_async(
        types.WORKSPACE_EXECUTE_COMMAND,
        types.ExecuteCommandParams(command="iterativeRetrieval.retrieve",
                                   arguments=[{"task": TASK}], work_done_token=token),
        msg_id=msg_id,
    ))
    for _ in range(500):  # until the loop is running (its first cycle report)
        if any(getattr(v, "message", "") and "cycle" in v.message
               for v in client.progress_reports[token]):
            return fut
        await asyncio.sleep(0.02)
    raise AssertionError("the retrieve never reported a cycle")


async def _assert_stopped(client: LanguageClient, token: str) -> None:
    for _ in range(100):  # the loop itself stops at its next step and ends its progress
        reports = client.progress_reports[token]
        if reports and reports[-1].kind == "end":
            assert reports[-1].message == "cancelled"
            assert not any(getattr(v, "message", "").startswith("cycle 2") for v in reports)
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the loop kept running after the cancel")


async def test_cancel_request_stops_the_loop(slow_client: LanguageClient):
    """$/cancelRequest answers RequestCancelled, stops the loop, and the server keeps serving."""
    fut = await _start_slow_retrieve(slow_client, "slow-1", "req-cancel-1")
    slow_client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="req-cancel-1"))
    with pytest.raises(JsonRpcRequestCancelled):
        await asyncio.wait_for(fut, 5)
    await _assert_stopped(slow_client, "slow-1")
    st = await command(slow_client, "iterativeRetrieval.status")
    assert st["state"] == "ready"


async def test_cancelled_progress_stops_the_loop(slow_client: LanguageClient):
    """window/workDoneProgress/cancel stops the loop too, answering RequestCancelled."""
    fut = await _start_slow_retrieve(slow_client, "slow-2", "req-cancel-2")
    slow_client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL,
                                types.WorkDoneProgressCancelParams(token="slow-2"))
    with pytest.raises(JsonRpcRequestCancelled):
        await asyncio.wait_for(fut, 5)
    await _assert_stopped(slow_client, "slow-2")
    result = await command(slow_client, "iterativeRetrieval.renderContext",
                           {"task": "Where is the session store?", "maxCycles": 1})
    assert "session" in result["text"].lower()


# -- the live index ----------------------------------------------------------------------------

EXPIRY_SOURCE = """\
export function refreshTokenExpiry(expiresAt: number, now: number): number {
  // the token expiry window is extended on every refresh
  return Math.max(expiresAt, now) + 15 * 60;
}
"""
EXPIRY_TASK = "refreshTokenExpiry extends the token expiry by the wrong amount"


async def test_unsaved_edits_change_the_result(client: LanguageClient, tmp_path):
    """Unsaved text wins over the disk (even with no file yet); never outside the folders."""
    coupon = client.workspace_root / "src" / "services" / "coupon.service.ts"
    before = await retrieve(client, task=EXPIRY_TASK)
    assert "src/services/coupon.service.ts" not in paths(before, 3)
    did_open(client, coupon, coupon.read_text())
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=coupon.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=EXPIRY_SOURCE)],
    ))
    after = await retrieve(client, task=EXPIRY_TASK)
    assert paths(after, 1) == ["src/services/coupon.service.ts"]
    assert "refreshTokenExpiry" in after["files"][0]["regions"][0]["text"]
    assert "refreshTokenExpiry" not in coupon.read_text()  # nothing was written to disk
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=coupon.as_uri())))
    closed = await retrieve(client, task=EXPIRY_TASK)
    assert "src/services/coupon.service.ts" not in paths(closed, 3)

    new = client.workspace_root / "src" / "auth" / "token-expiry.ts"
    stray = tmp_path / "outside" / "token-expiry-elsewhere.ts"
    did_open(client, new, EXPIRY_SOURCE)
    did_open(client, stray, EXPIRY_SOURCE)
    result = await retrieve(client, task=EXPIRY_TASK)
    assert paths(result, 1) == ["src/auth/token-expiry.ts"]
    assert not any("outside" in f["uri"] or "elsewhere" in f["path"] for f in result["files"])
    st = await command(client, "iterativeRetrieval.status")
    assert st["open_buffers"] == 1


async def test_a_command_line_run_on_the_same_cache_keeps_the_buffers(client: LanguageClient,
                                                                      tmp_path):
    """A terminal runs the CLI on the same folder and cache while an edit is unsaved: the CLI
    answers from the disk (it cannot see the editor), and the server's next answer still has
    the unsaved text (the CLI forgot the buffer's rows when it opened the index)."""
    coupon = client.workspace_root / "src" / "services" / "coupon.service.ts"
    did_open(client, coupon, coupon.read_text())
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=coupon.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=EXPIRY_SOURCE)],
    ))
    assert paths(await retrieve(client, task=EXPIRY_TASK), 1) == ["src/services/coupon.service.ts"]
    cli = cli_files(client.workspace_root, EXPIRY_TASK, tmp_path / "cache")  # the server's cache
    assert "src/services/coupon.service.ts" not in [f[0] for f in cli[:3]]
    after = await retrieve(client, task=EXPIRY_TASK)
    assert paths(after, 1) == ["src/services/coupon.service.ts"]
    assert "refreshTokenExpiry" in after["files"][0]["regions"][0]["text"]


async def test_files_on_disk_watched_and_reindexed(client: LanguageClient):
    """Watched creations, renames and deletions update the index; reindex finds the rest."""
    st0 = await wait_ready(client)
    new = client.workspace_root / "src" / "auth" / "token-revocation.ts"
    new.write_text("export function revokeTokenFamily(familyId: string): void {\n"
                   "  // revoke every refresh token of a family after reuse is detected\n}\n")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=new.as_uri(), type=types.FileChangeType.Created),
    ]))
    st1 = await command(client, "iterativeRetrieval.status")
    assert st1["files"] == st0["files"] + 1
    revoke = "revokeTokenFamily does not revoke the refresh tokens"
    assert paths(await retrieve(client, task=revoke), 1) == ["src/auth/token-revocation.ts"]
    renamed = new.with_name("revocation.ts")
    new.rename(renamed)
    client.workspace_did_rename_files(types.RenameFilesParams(files=[
        types.FileRename(old_uri=new.as_uri(), new_uri=renamed.as_uri()),
    ]))
    assert paths(await retrieve(client, task=revoke), 1) == ["src/auth/revocation.ts"]
    renamed.unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=renamed.as_uri(), type=types.FileChangeType.Deleted),
    ]))
    st2 = await command(client, "iterativeRetrieval.status")
    assert st2["files"] == st0["files"]

    (client.workspace_root / "src" / "extra.ts").write_text("export const extra = 1;\n")
    out = await command(client, "iterativeRetrieval.reindex")
    assert out["state"] == "ready" and out["reindexed"] == 1
    assert out["roots"][0]["root"] == str(client.workspace_root)
    assert (await command(client, "iterativeRetrieval.status"))["files"] == st0["files"] + 1


async def test_no_folder_then_folders_come_and_go(empty_client: LanguageClient, tmp_path):
    """No folder: a clear error; added folders are searched (and roots), removed ones refused."""
    st = await command(empty_client, "iterativeRetrieval.status")
    assert st["state"] == "no-workspace" and st["roots"] == []
    with pytest.raises(JsonRpcException, match="no workspace folder is open"):
        await retrieve(empty_client, task=TASK)

    def change(added=(), removed=()):
        empty_client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri=p.as_uri(), name=p.name) for p in added],
                removed=[types.WorkspaceFolder(uri=p.as_uri(), name=p.name) for p in removed])))

    auth, rate = copy_example(tmp_path, "auth-service"), copy_example(tmp_path, "rate-limit-api")
    change(added=[auth])
    assert set(paths(await retrieve(empty_client, task=TASK), 4)) == AUTH_TOP4
    change(added=[rate])
    throttle = "Requests are not throttled by the rate limiter"
    result = await retrieve(empty_client, task=throttle, root=str(rate))
    assert result["roots"] == [str(rate)]
    assert any("throttle" in p for p in paths(result, 3))
    st = await wait_ready(empty_client)
    assert sorted(r["root"] for r in st["roots"]) == sorted([str(auth), str(rate)])
    change(removed=[rate])
    with pytest.raises(JsonRpcInvalidParams, match="outside the workspace"):
        await retrieve(empty_client, task=throttle, root=str(rate))


# -- configuration -----------------------------------------------------------------------------


async def test_configuration_push_and_pull(client: LanguageClient):
    """Pushed settings apply at once, bad ones fall back; a pull re-asks; excludes re-index."""
    await wait_ready(client)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"iterativeRetrieval": {"maxCycles": 1, "budget": "big"}}))
    result = await retrieve(client, task=TASK)
    assert len(result["trace"]) == 1
    st = await command(client, "iterativeRetrieval.status")
    assert st["settings"]["maxCycles"] == 1 and st["settings"]["budget"] == 8000
    assert any("iterativeRetrieval.budget" in m.message for m in client.messages)

    client.set_configuration({"exclude": ["src/auth/jwt-utils.ts"]}, section="iterativeRetrieval")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(100):
        st = await command(client, "iterativeRetrieval.status")
        if st["settings"].get("exclude") and st["state"] == "ready":
            break
        await asyncio.sleep(0.05)
    assert st["settings"]["maxCycles"] == 3  # the pulled section replaces the pushed one
    result = await retrieve(client, task=TASK)
    assert "src/auth/jwt-utils.ts" not in paths(result)
    assert "src/auth/tokens.ts" in paths(result, 4)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), **ONE_LOOP)
async def two_folder_client(lsp_client: LanguageClient, tmp_path):
    """Two copies of the auth sample as two workspace folders; the first one excludes a file in
    its own settings (VS Code's folder scope), the workspace excludes nothing."""
    one, two = (tmp_path / "ws" / "one", tmp_path / "ws" / "two")
    for dest in (one, two):
        shutil.copytree(EXAMPLES / "auth-service", dest)
    lsp_client.folders = (one, two)
    lsp_client.set_configuration({}, section="iterativeRetrieval")
    lsp_client.set_configuration({"exclude": ["src/auth/jwt-utils.ts"]},
                                 section="iterativeRetrieval", scope_uri=one.as_uri())
    await start(lsp_client, tmp_path, [one, two])
    yield
    await lsp_client.shutdown_session()


async def test_a_folder_s_own_include_and_exclude(two_folder_client: LanguageClient):
    """Each folder's include/exclude applies to that folder only, from the first answer on; a
    change to one folder's settings re-indexes it."""
    client = two_folder_client
    one, two = client.folders
    await wait_ready(client)
    assert "src/auth/jwt-utils.ts" not in paths(await retrieve(client, task=TASK, root=str(one)))
    assert "src/auth/jwt-utils.ts" in paths(await retrieve(client, task=TASK, root=str(two)), 4)
    both = await retrieve(client, task=TASK)
    assert [f["root"] for f in both["files"] if f["path"] == "src/auth/jwt-utils.ts"] \
        == [str(two)]
    # a request's own exclude adds to each folder's
    result = await retrieve(client, task=TASK, root=str(one), exclude=["src/auth/tokens.ts"])
    assert not {"src/auth/jwt-utils.ts", "src/auth/tokens.ts"} & set(paths(result))

    # the second folder now takes only src/auth; the first keeps its exclude
    client.set_configuration({"include": ["src/auth/**"]}, section="iterativeRetrieval",
                             scope_uri=two.as_uri())
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(200):
        await wait_ready(client)
        found = paths(await retrieve(client, task=TASK, root=str(two)))
        if all(p.startswith("src/auth/") for p in found):
            break
        await asyncio.sleep(0.05)
    assert found and all(p.startswith("src/auth/") for p in found)
    assert set(found[:4]) == AUTH_TOP4
    assert "src/auth/jwt-utils.ts" not in paths(await retrieve(client, task=TASK, root=str(one)))
    assert any("folder" in m.message and "own settings" in m.message
               for m in client.log_messages)

    # another setting of the workspace changes: the folders' indexes stay as they are
    def rebuilds() -> int:
        return sum("rebuilding the engine" in m.message for m in client.log_messages)

    before = rebuilds()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"iterativeRetrieval": {"maxCycles": 1}}))
    st = await command(client, "iterativeRetrieval.status")  # answered after the push is applied
    assert st["settings"]["maxCycles"] == 1
    assert rebuilds() == before


async def test_bad_initialization_options_fall_back_to_defaults(bare_client: LanguageClient):
    """Bad options are reported and replaced by defaults; a client without progress still works."""
    st = await wait_ready(bare_client)
    assert st["settings"]["maxCycles"] == 3 and st["settings"]["budget"] == 8000
    assert st["settings"]["exclude"] == ["src/services/**"]  # a single glob is accepted
    assert st["watching_files"] is False
    shown = " ".join(m.message for m in bare_client.messages)
    assert "maxCycles" in shown and "budget" in shown and "colour" not in shown
    assert any("colour" in m.message for m in bare_client.log_messages)
    result = await retrieve(bare_client, task=TASK)
    assert set(paths(result, 4)) == AUTH_TOP4
    assert not any(p.startswith("src/services/") for p in paths(result))
    assert bare_client.progress_reports == {}


# -- a first index of a large workspace ---------------------------------------------------------


@pytest_lsp.fixture(config=ClientServerConfig(server_command=["env", "ITERATIVE_RETRIEVAL_LSP_SLOW=0.2",
                                                              *SERVER]), **ONE_LOOP)
async def big_client(lsp_client: LanguageClient, tmp_path):
    """A server whose first index is large enough for worker processes (1100 files), with a
    pause after each stored batch so that requests meet it while it indexes."""
    root = tmp_path / "ws" / "big"
    for i in range(1100):
        p = root / f"pkg{i % 20}" / f"handler_{i}.py"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"def handle_request_{i}(payload):\n    return payload + {i}\n")
    lsp_client.workspace_root = root
    await start(lsp_client, tmp_path, [root])
    yield
    await lsp_client.shutdown_session()


async def test_requests_are_served_while_a_first_index_runs(big_client: LanguageClient):
    """While the first index runs (in spawned worker processes), `status` answers and an opened
    buffer is indexed at once; the buffer survives the rest of the index and is found after it."""
    st = await command(big_client, "iterativeRetrieval.status")
    assert st["state"] == "indexing"
    fresh = big_client.workspace_root / "pkg0" / "ledger.py"
    did_open(big_client, fresh, "def reconcile_quarantined_ledgers(books):\n    return books\n")
    st = await command(big_client, "iterativeRetrieval.status")
    assert (st["state"], st["open_buffers"]) == ("indexing", 1)
    st = await wait_ready(big_client)
    assert st["files"] == 1101 and st["open_buffers"] == 1
    found = await retrieve(big_client, task="reconcile the quarantined ledgers", maxCycles=1)
    assert paths(found, 1) == ["pkg0/ledger.py"]
