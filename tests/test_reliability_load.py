"""Load: many concurrent retrieves and a stream of edits on a large workspace, over stdio.

The real server over a generated workspace (1 500 files; 10 000 with `IR_LONG=1`): rounds of 50
concurrent retrieves while a stream of `didChange` edits rewrites open buffers. Every request
must answer, the index must end as the last buffers say (the newest text found, none older),
memory must stop growing once warm, and cancelled requests must give their threads back (those
hold until cancelled, so the test waits on states, never on the machine's speed).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.service import ENGINE_WORKERS

from .conftest import LONG, generated_tree
from .test_lsp_server import SERVER, start, wait_ready

pytestmark = pytest.mark.asyncio(loop_scope="module")

FILES = 10_000 if LONG else 1_500
CONCURRENT = 50
ROUNDS = 3 if LONG else 2
DOCS = 10
EDITS_PER_ROUND = 400 if LONG else 150
TIMEOUT = 600  # seconds: generous, only so that a lost answer fails instead of hanging
TASKS = ["Fix the token expiry in the session handler", "Where are invoices billed",
         "cache logger router handling", "Handle the session of a request", "expiry of a token",
         "billing store load"]


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM (kB) and Threads of a process, from /proc."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


def marker(d: int, version: int) -> str:
    """One index term per buffer and version (letters only: no part is shared with another)."""
    return "zq" + "".join("bcdfghjklm"[int(c)] for c in str(d)) + "x" + "".join(
        "bcdfghjklm"[int(c)] for c in str(version))


def doc_text(d: int, version: int) -> str:
    m = marker(d, version)
    return (f"def {m}(request):\n"
            f"    \"\"\"Buffer {d} at version {version}: {m}.\"\"\"\n"
            f"    return request.get('{m}')\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def loaded(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("load")
    root = tmp / "ws"
    generated_tree(root, FILES)
    # The index a previous session left (built by the command line, in parallel).
    subprocess.run([sys.executable, "-m", "iterative_retrieval", "index", "--root", str(root),
                    "--cache-dir", str(tmp / "cache")], check=True, capture_output=True)
    lsp_client.root = root.resolve()
    await start(lsp_client, tmp, [root])
    st = await wait_ready(lsp_client)
    assert st["state"] == "ready" and st["files"] == FILES + 1
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, name: str, arg=None, timeout: float = TIMEOUT):
    params = types.ExecuteCommandParams(command=name, arguments=[arg] if arg is not None else [])
    return await asyncio.wait_for(client.workspace_execute_command_async(params), timeout)


async def test_concurrent_retrieves_and_edits(loaded: LanguageClient):
    """Rounds of 50 concurrent retrieves with a stream of edits: all answer, the final index is
    the final buffers, and memory stops growing after the first round."""
    client = loaded
    pid = client._server.pid
    docs = [client.root / f"pkg/live/doc_{d}.py" for d in range(DOCS)]
    versions = [1] * DOCS
    for d, path in enumerate(docs):
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                                 version=1, text=doc_text(d, 1))))
    await execute(client, "iterativeRetrieval.retrieve", {"task": TASKS[0]})  # warm
    memory = [proc_status(pid)]
    answered = 0
    for rnd in range(ROUNDS):

        async def edits() -> None:
            for k in range(EDITS_PER_ROUND):
                d = k % DOCS
                versions[d] += 1
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(
                        uri=docs[d].as_uri(), version=versions[d]),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(
                        text=doc_text(d, versions[d]))]))
                await asyncio.sleep(0.002)

        requests = [execute(client, "iterativeRetrieval.retrieve",
                            {"task": TASKS[i % len(TASKS)] + f" ({rnd}.{i})",
                             "maxCycles": 3 if LONG else 1})
                    for i in range(CONCURRENT)]
        results = await asyncio.gather(edits(), *requests)
        for r in results[1:]:
            assert isinstance(r, dict) and r["files"], r
        answered += len(results) - 1
        memory.append(proc_status(pid))
    # The index holds the newest text of every buffer, and nothing of the older ones: the
    # newest identifier of each buffer finds that buffer first, the one before finds nothing.
    newest = await asyncio.gather(*[
        execute(client, "iterativeRetrieval.retrieve",
                {"task": f"Fix `{marker(d, versions[d])}`", "maxCycles": 1})
        for d in range(DOCS)])
    older = await asyncio.gather(*[
        execute(client, "iterativeRetrieval.retrieve",
                {"task": f"Fix `{marker(d, versions[d] - 1)}`", "maxCycles": 1})
        for d in range(DOCS)])
    for d in range(DOCS):
        assert newest[d]["files"][0]["path"] == f"pkg/live/doc_{d}.py", newest[d]["files"][:2]
        assert marker(d, versions[d]) in newest[d]["files"][0]["regions"][0]["text"]
        assert f"pkg/live/doc_{d}.py" not in {f["path"] for f in older[d]["files"]}
    st = await execute(client, "iterativeRetrieval.status")
    assert st["open_buffers"] == DOCS and st["files"] == FILES + 1 + DOCS
    # Memory: the first round may grow caches; later rounds must not keep growing.
    first, last = memory[1]["VmRSS"], memory[-1]["VmRSS"]
    assert last - first < max(96 * 1024, first // 4), memory
    assert memory[-1]["VmHWM"] < 2 * 1024 * 1024, memory  # kB: under 2 GB at the peak
    print(f"load: {answered} retrieves in {ROUNDS} rounds of {CONCURRENT} with "
          f"{EDITS_PER_ROUND * ROUNDS} edits on {FILES} files; RSS (MB) "
          f"{[m['VmRSS'] // 1024 for m in memory]}, peak {memory[-1]['VmHWM'] // 1024}")


HOLD = "hold-until-cancelled"
"""Retrieves whose task holds this wait at their first step until they are cancelled (the
server's ITERATIVE_RETRIEVAL_LSP_HOLD): in flight for certain, whatever the machine's load."""


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=["env", f"ITERATIVE_RETRIEVAL_LSP_HOLD={HOLD}", *SERVER]),
    scope="module", loop_scope="module")
async def held(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("held")
    root = tmp / "ws"
    generated_tree(root, 300)
    await start(lsp_client, tmp, [root])
    st = await wait_ready(lsp_client)
    assert st["state"] == "ready"
    yield
    await lsp_client.shutdown_session()


def send_held(client: LanguageClient, name: str, n: int) -> list[tuple[str, str, asyncio.Future]]:
    """n retrieves that hold until cancelled: (progress token, request id, answer)."""
    out = []
    for i in range(n):
        token, msg_id = f"{name}-{i}", f"{name}-req-{i}"
        client.progress_reports[token] = []
        params = types.ExecuteCommandParams(
            command="iterativeRetrieval.retrieve", work_done_token=token,
            arguments=[{"task": f"{TASKS[i % len(TASKS)]} {HOLD} {i}"}])
        out.append((token, msg_id, asyncio.ensure_future(client.protocol.send_request_async(
            types.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id))))
    return out


async def until(what: str, condition, bound: float = TIMEOUT) -> None:
    """Wait for a state, polling; the bound only turns a hang into a failure."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(poll(), bound)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


async def cancel_all(client: LanguageClient, requests) -> int:
    """Cancel requests once every one has begun its progress; how many answered cancelled,
    once every progress has ended (the loop noticed, and gave its thread back)."""
    reports = client.progress_reports
    await until("every request began", lambda: all(reports[t] for t, _, _ in requests))
    for _token, msg_id, _fut in requests:
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    cancelled = 0
    for _token, _msg_id, fut in requests:
        try:
            await asyncio.wait_for(fut, TIMEOUT)
        except JsonRpcRequestCancelled:
            cancelled += 1
    await until("every progress ended",
                lambda: all(reports[t][-1].kind == "end" for t, _, _ in requests))
    return cancelled


async def test_cancelled_requests_free_their_work(held: LanguageClient):
    """Sixteen retrieves cancelled while certainly in flight (four run, twelve wait for a
    thread): all answer RequestCancelled, every progress ends "cancelled", no thread is left
    behind, and the server answers a retrieve after them."""
    client = held
    pid = client._server.pid
    # The engine's pool starts its threads on the first concurrent requests and keeps them:
    # fill it first (as many held requests as it has threads), so the count below is steady.
    assert await cancel_all(client, send_held(client, "warm", ENGINE_WORKERS)) == ENGINE_WORKERS
    before = proc_status(pid)["Threads"]
    requests = send_held(client, "cancel", 16)
    assert await cancel_all(client, requests) == 16
    for token, _msg_id, _fut in requests:
        assert client.progress_reports[token][-1].message == "cancelled", token
    assert proc_status(pid)["Threads"] <= before
    result = await execute(client, "iterativeRetrieval.retrieve", {"task": TASKS[1]})
    assert result["files"]


def big_module(i: int) -> str:
    """A 400-line module about token expiry, in long lines: a retrieve hands out all of its
    lines (about 130 kB)."""
    note = " ".join(f"w{i}x{j}" for j in range(40))
    lines = [f'"""Session tokens, part {i}: the expiry of a refresh token."""', ""]
    for k in range(199):
        lines.append(f"def refresh_token_expiry_{i}_{k}(token, session):  # {note}")
        lines.append(f"    return token.expires_at + session.expiry_window * {k}  # {note}")
    return "\n".join(lines) + "\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def big_answers(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("big-answers")
    root = tmp / "ws"
    root.mkdir()
    for i in range(16):
        (root / f"tokens_{i}.py").write_text(big_module(i))
    await start(lsp_client, tmp, [root])
    st = await wait_ready(lsp_client)
    assert st["state"] == "ready"
    yield
    await lsp_client.shutdown_session()


async def test_answers_are_not_kept(big_answers: LanguageClient):
    """The server keeps nothing of an answer once it is sent: sixty retrieves whose answers
    are about a megabyte each leave its memory where ten left it (pygls kept every command's
    answer for the life of the server: this grew by the sixty megabytes)."""
    client = big_answers
    pid = client._server.pid
    arg = {"task": "Fix the refresh token expiry", "budget": 1_000_000, "maxFiles": 16,
           "maxCycles": 1}
    for _ in range(10):
        first = await execute(client, "iterativeRetrieval.retrieve", arg)
    size = sum(len(r["text"]) for f in first["files"] for r in f["regions"])
    assert size > 800_000, size  # the answers are as big as meant
    warm = proc_status(pid)["VmRSS"]
    for _ in range(60):
        await execute(client, "iterativeRetrieval.retrieve", arg)
    grown = proc_status(pid)["VmRSS"] - warm
    print(f"answers of {size // 1000} kB: RSS {warm // 1024} MB after 10, "
          f"+{grown // 1024} MB after 60 more")
    assert grown < 25 * 1024, grown  # kB; kept answers would be 60 × size
