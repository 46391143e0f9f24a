"""Pins, excludes, files seen, the editor's files and follow-ups through the language server:
a real server over stdio (pytest-lsp) on a copy of the auth sample."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

from .test_changes import WORK, stacked_repo
from .test_lsp_server import (
    ONE_LOOP,
    SERVER,
    TASK,
    command,
    copy_example,
    paths,
    retrieve,
    start,
    wait_ready,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
RETRIEVE = "iterativeRetrieval.retrieve"
FAR = "src/utils/date.ts"
"""A file the token-expiry task does not hand out by itself."""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def ws(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hints")
    root = copy_example(tmp, "auth-service")
    (root / ".env").write_text("DATABASE_PASSWORD=hunter2-very-secret\n")
    (tmp / "outside.ts").write_text("export function tokenExpiry() { return 0; }\n")
    lsp_client.workspace_root = root
    await start(lsp_client, tmp, [root])
    yield
    await lsp_client.shutdown_session()


def root_of(client: LanguageClient) -> Path:
    return client.workspace_root


def by_path(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["path"]: f for f in result["files"]}


def warnings_since(client: LanguageClient, n: int) -> list[str]:
    return [m.message for m in client.log_messages[n:]
            if m.type == types.MessageType.Warning]


async def test_a_pin_is_always_handed_out_and_marked(ws: LanguageClient):
    """Pinned by a relative path, an absolute path and a file:// URI, with room for 3 files:
    each pin is in the result, marked pinned; nothing else is."""
    root = root_of(ws)
    plain = await retrieve(ws, task=TASK, maxFiles=3)
    assert FAR not in paths(plain) and not any(f["pinned"] for f in plain["files"])
    pins = [FAR, str(root / "src/utils/cache.ts"), (root / "src/db/pool.ts").as_uri()]
    result = by_path(await retrieve(ws, task=TASK, maxFiles=3, pinned=pins))
    pinned = {p for p, f in result.items() if f["pinned"]}
    assert pinned == {FAR, "src/utils/cache.ts", "src/db/pool.ts"}
    assert all(result[p]["regions"] for p in pinned)  # handed out with code, not only named


async def test_excluded_and_seen_files_are_not_handed_out(ws: LanguageClient):
    """An excluded file is never handed out; a file seen already neither (hand out what is
    new), while the rest of the context stays."""
    root = root_of(ws)
    plain = paths(await retrieve(ws, task=TASK))
    assert {"src/auth/auth.ts", "src/auth/tokens.ts"} <= set(plain)
    result = paths(await retrieve(ws, task=TASK, excluded=[str(root / "src/auth/auth.ts")],
                                  seen=[(root / "src/auth/tokens.ts").as_uri()]))
    assert "src/auth/auth.ts" not in result and "src/auth/tokens.ts" not in result
    assert {"src/auth/session-manager.ts", "src/auth/jwt-utils.ts"} <= set(result)


async def test_paths_outside_the_workspace_are_ignored_with_a_note(ws: LanguageClient):
    """A pin outside the folder (absolute, escaping with .., another URI scheme), a missing
    file and a secret file: the retrieve answers, hands none of them out, and the log says
    which were ignored."""
    root = root_of(ws)
    outside = root.parents[1] / "outside.ts"
    n = len(ws.log_messages)
    result = await retrieve(ws, task=TASK, pinned=[
        str(outside), "../../outside.ts", outside.as_uri(), "untitled:Untitled-1",
        "src/nope.ts", ".env"], activeFile=str(outside), openFiles=["/etc/passwd"])
    assert {"src/auth/auth.ts", "src/auth/tokens.ts"} <= set(paths(result))
    assert not any(f["pinned"] for f in result["files"])
    assert all("outside" not in f["path"] and f["path"] != ".env" for f in result["files"])
    assert "hunter2" not in str(result)
    notes = warnings_since(ws, n)
    assert any(f"'pinned' {outside} is outside the workspace folders" in m for m in notes), notes
    assert any("'pinned' ../../outside.ts leaves the workspace folders" in m for m in notes)
    assert any("'pinned' untitled:Untitled-1 is not a local file" in m for m in notes)
    assert any("'pinned' src/nope.ts names no file" in m for m in notes)
    assert any("'pinned' .env is a secret file" in m for m in notes)
    assert any("'activeFile'" in m for m in notes) and any("'openFiles'" in m for m in notes)


async def test_the_editors_files_are_evidence_with_their_reason(ws: LanguageClient):
    """The active file with a selection, and an open file, arrive as the editor's signals."""
    root = root_of(ws)
    result = by_path(await retrieve(
        ws, task=TASK, activeFile=(root / "src/auth/tokens.ts").as_uri(),
        selection={"start_line": 3, "end_line": 9},
        openFiles=[(root / "src/auth/session-manager.ts").as_uri()]))
    assert "selected lines 3-9 in the editor" in result["src/auth/tokens.ts"]["reason"]
    assert "open in the editor" in result["src/auth/session-manager.ts"]["reason"]
    assert not any(f["pinned"] for f in result.values())


async def test_a_follow_up_searches_the_previous_runs_words(ws: LanguageClient):
    """followUp: the first run's learned terms are searched from the first cycle."""
    first = await retrieve(ws, task=TASK)
    learned = list(dict.fromkeys(t for c in first["trace"] for t in c["learned"]))
    assert learned
    second = await retrieve(ws, task="and where is it checked?", followUp=learned)
    assert set(learned[:3]) <= set(second["trace"][0]["query"]["keywords"])
    assert set(learned[:3]) <= set(second["trace"][0]["query"]["follow_up"])


async def test_render_context_with_a_task_takes_the_same_hints(ws: LanguageClient):
    """renderContext with a task passes the hints as retrieve does."""
    answer = await command(ws, "iterativeRetrieval.renderContext",
                           {"task": TASK, "maxFiles": 3, "pinned": [FAR]})
    assert f"`{FAR}`" in answer["text"]
    with pytest.raises(JsonRpcInvalidParams, match="cannot go with 'result'"):
        await command(ws, "iterativeRetrieval.renderContext",
                      {"result": {"task": TASK, "files": []}, "pinned": [FAR]})


BAD_HINTS = [
    ({"pinned": FAR}, "'pinned' must be an array, got 'src/utils/date.ts'"),
    ({"excluded": [3]}, "'excluded' item 0 must be a non-empty path or file:// URI, got 3"),
    ({"seen": [""]}, "'seen' item 0 must be a non-empty path"),
    ({"openFiles": ["a\0b"]}, "'openFiles' item 0 must not contain a NUL character"),
    ({"pinned": [f"f{i}.ts" for i in range(201)]}, "'pinned' must have at most 200 items"),
    ({"activeFile": 7}, "'activeFile' must be a non-empty path"),
    ({"selection": {"start_line": 0, "end_line": 2}}, "'selection.start_line' must be a line"),
    ({"selection": {"start_line": 5, "end_line": 2}}, "'selection' end_line 2 is before"),
    ({"selection": {"start": 1, "end": 2}}, "'selection"),
    ({"selection": [1, 2]}, "'selection' must be an object"),
    ({"followUp": ["x" * 101]}, "'followUp' item 0 is too long"),
]


@pytest.mark.parametrize(("args", "message"), BAD_HINTS)
async def test_malformed_hints_are_invalid_params(ws: LanguageClient, args, message):
    """Each malformed hint is answered InvalidParams naming the field; nothing crashes."""
    with pytest.raises(JsonRpcInvalidParams) as err:
        await command(ws, RETRIEVE, {"task": TASK, **args})
    assert message in err.value.message, err.value.message
    assert (await command(ws, "iterativeRetrieval.status"))["state"] in ("indexing", "ready")


# -- the git base: a folder's own, a request's own, one that is no commit ---------------------

@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), **ONE_LOOP)
async def stacked(lsp_client: LanguageClient, tmp_path):
    """Two such repositories as workspace folders; the first measures its branch from
    cart-discount in its own settings (VS Code's folder scope), the workspace sets no base."""
    one, two = stacked_repo(tmp_path / "one"), stacked_repo(tmp_path / "two")
    lsp_client.folders = (one, two)
    lsp_client.set_configuration({}, section="iterativeRetrieval")
    lsp_client.set_configuration({"gitBase": "cart-discount"}, section="iterativeRetrieval",
                                 scope_uri=one.as_uri())
    await start(lsp_client, tmp_path, [one, two])
    yield
    await lsp_client.shutdown_session()


def on_branch(result: dict[str, Any], root: Path) -> set[str]:
    return {f["path"] for f in result["files"]
            if f["root"] == str(root) and "changed on this branch" in f["reason"]}


async def test_the_git_base_of_a_folder_and_of_a_request(stacked: LanguageClient):
    """A folder's own gitBase measures that folder's branch alone; a request's gitBase
    measures the folders it searches; a base that is no commit fails the request with a
    clear RequestFailed (no internal error), and the server answers the next one."""
    client = stacked
    one, two = client.folders
    await wait_ready(client)
    both = await retrieve(client, task=WORK)
    assert on_branch(both, one) == {"shop/shipping.py"}
    assert on_branch(both, two) == {"shop/cart.py", "shop/shipping.py"}
    asked = await retrieve(client, task=WORK, root=str(two), gitBase="cart-discount")
    assert on_branch(asked, two) == {"shop/shipping.py"}
    assert on_branch(await retrieve(client, task=WORK, gitBase="main"), one) \
        == {"shop/cart.py", "shop/shipping.py"}  # the request's base over the folder's

    n = len(client.log_messages)
    with pytest.raises(JsonRpcException) as err:
        await retrieve(client, task=WORK, gitBase="release/9")
    assert err.value.code == -32803, err.value
    assert "git base 'release/9' is no branch, tag or commit in" in err.value.message
    assert not [m for m in client.log_messages[n:] if m.type == types.MessageType.Error]
    with pytest.raises(JsonRpcInvalidParams, match="'gitBase' must be a git branch"):
        await retrieve(client, task=WORK, gitBase="--output=x")
    assert not (one / "x").exists() and not (two / "x").exists()
    assert on_branch(await retrieve(client, task=WORK, root=str(one)), one) == {"shop/shipping.py"}

    # the second folder's own base, set now: from the next retrieve on, the index as it is
    def rebuilds() -> int:
        return sum("rebuilding the engine" in m.message for m in client.log_messages)

    before = rebuilds()
    client.set_configuration({"gitBase": "cart-discount"}, section="iterativeRetrieval",
                             scope_uri=two.as_uri())
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(200):  # the server pulls the folders' sections, then applies them
        found = on_branch(await retrieve(client, task=WORK, root=str(two)), two)
        if found == {"shop/shipping.py"}:
            break
        await asyncio.sleep(0.05)
    assert found == {"shop/shipping.py"}
    assert rebuilds() == before


async def test_a_folder_s_own_git_base_that_is_no_commit_warns_and_the_rest_goes_on(
        stacked: LanguageClient):
    """A workspace folder whose own gitBase names no commit there does not fail every
    retrieve: that folder's branch is measured from the default branch, the result says so
    (`warnings`, also in the log), and the other folder keeps its own base. A request's
    gitBase that is no commit still fails the request."""
    client = stacked
    one, two = client.folders
    await wait_ready(client)
    client.set_configuration({"gitBase": "release/9"}, section="iterativeRetrieval",
                             scope_uri=two.as_uri())
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(400):  # the server pulls the folders' sections, then applies them
        result = await retrieve(client, task=WORK)
        if result["warnings"]:
            break
        await asyncio.sleep(0.05)
    assert result["warnings"] == [
        f"git base 'release/9' is no branch, tag or commit in {two} (the folder's gitBase "
        "setting): its branch was measured from the default branch instead"]
    assert on_branch(result, two) == {"shop/cart.py", "shop/shipping.py"}  # from main
    assert on_branch(result, one) == {"shop/shipping.py"}  # its own base, cart-discount
    assert on_branch(await retrieve(client, task=WORK, root=str(one)), one) == {"shop/shipping.py"}
    assert (await retrieve(client, task=WORK, root=str(one)))["warnings"] == []
    with pytest.raises(JsonRpcException) as err:
        await retrieve(client, task=WORK, gitBase="release/9")
    assert "git base 'release/9' is no branch, tag or commit in" in err.value.message
