"""Load: many concurrent retrieves and a stream of edits on a large workspace, over stdio.

The real server over a generated workspace (1 500 files; 10 000 with `IR_LONG=1`): rounds of 50
concurrent retrieves while a stream of `didChange` edits rewrites open buffers. Every request
must answer, the index must end as the last buffers say (the newest text found, none older),
memory must stop growing once warm, and cancelled requests must give their threads back.
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


async def test_cancelled_requests_free_their_work(loaded: LanguageClient):
    """Retrieves cancelled in flight answer RequestCancelled (or finish first), their progress
    ends, their threads return, and the server goes on answering."""
    client = loaded
    pid = client._server.pid
    # The engine's thread pool grows to its size on the first concurrent requests and keeps its
    # threads: as many requests as below, answered, make it full before the threads are counted
    # (run alone, this test otherwise counted the pool's growth as threads not returned).
    await asyncio.gather(*(execute(client, "iterativeRetrieval.retrieve",
                                   {"task": TASKS[i % len(TASKS)] + f" warm {i}"})
                           for i in range(16)))
    before = proc_status(pid)["Threads"]
    futures = []
    for i in range(16):
        token, msg_id = f"load-cancel-{i}", f"load-cancel-req-{i}"
        client.progress_reports[token] = []
        params = types.ExecuteCommandParams(
            command="iterativeRetrieval.retrieve", work_done_token=token,
            arguments=[{"task": TASKS[i % len(TASKS)] + f" cancel {i}"}])
        futures.append((token, asyncio.ensure_future(client.protocol.send_request_async(
            types.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id))))
    # cancel once the first loop runs: after a fixed pause instead, a quiet machine had
    # finished ten of the sixteen (the pool answers a small workspace's tasks in tens of ms)
    for _ in range(1000):
        if any(client.progress_reports[t] for t, _ in futures):
            break
        await asyncio.sleep(0.005)
    for i in range(len(futures)):
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=f"load-cancel-req-{i}"))
    cancelled = 0
    for _token, fut in futures:
        try:
            await asyncio.wait_for(fut, 60)  # every request answers: a result or cancelled
        except JsonRpcRequestCancelled:
            cancelled += 1
    assert cancelled >= 8
    result = await execute(client, "iterativeRetrieval.retrieve", {"task": TASKS[1]})
    assert result["files"]
    for _ in range(100):  # every cancelled loop ends its progress and returns its thread
        ended = [t for t, _ in futures
                 if client.progress_reports[t] and client.progress_reports[t][-1].kind == "end"]
        if len(ended) == len([t for t, _ in futures if client.progress_reports[t]]):
            break
        await asyncio.sleep(0.1)
    assert all(client.progress_reports[t][-1].kind == "end" for t, _ in futures
               if client.progress_reports[t])
    assert proc_status(pid)["Threads"] <= before + 2
