"""Soak: the language server's memory over thousands of retrieves, with an edit before each.

    python -m bench.perf.soak --retrieves 5000 --out soak.json --markdown soak.md [TREE]

It starts the real server (`iterative-retrieval serve`, this checkout's code) over stdio with
pygls's own client, as an editor that watches files, on TREE (default: a generated tree of
`--files` Python modules in a temporary folder), opens `--buffers` buffers, waits until the index
is ready, then repeats: an unsaved edit (`didChange`, a new identifier in one buffer), then
`iterativeRetrieval.retrieve` for one of five tasks in turn. Every `--sample-every` retrieves it
reads the server's resident memory (VmRSS) from /proc. The verdict compares the highest and
lowest samples over the last `--window` retrieves: a plateau is a spread within `--tolerance-mb`.

`--tracemalloc DIR` starts the server under tracemalloc (`--frames` deep) and has it write a
snapshot to DIR at every sample, for `python -m bench.perf.soak --diff DIR/a DIR/b`: what was kept.
Results and method: docs/performance.md ("Memory over a long session").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parents[2]
TASKS = [
    "Fix the token expiry in the session handler",
    "Where are invoices billed",
    "cache logger router handling",
    "Handle the session of a request",
    "billing store load",
]
WORDS = ("token", "expiry", "session", "invoice", "billing", "cache", "logger", "router")
MB = 1024 * 1024

# The server under tracemalloc: each SIGUSR1 writes a snapshot (bench only; the server itself
# has no such hook).
TRACED_SERVER = """\
import os, signal, sys, tracemalloc
tracemalloc.start(int(sys.argv[2]))
out = sys.argv[1]
count = [0]
def dump(signum, frame):
    count[0] += 1
    path = os.path.join(out, "snap-%04d" % count[0])
    tracemalloc.take_snapshot().dump(path + ".tmp")
    os.replace(path + ".tmp", path)
signal.signal(signal.SIGUSR1, dump)
from iterative_retrieval.cli import main
sys.exit(main(["serve"]))
"""


def generated_tree(root: Path, n: int) -> None:
    """n small Python modules in folders of 50 (the shape of tests/conftest.generated_tree)."""
    for i in range(n):
        w = WORDS[i % len(WORDS)]
        p = root / f"pkg/m{i // 50}/mod_{i}.py"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(
            f'"""Module {i}: {w} handling."""\n\n'
            f"def {w}_handler_{i}(request):\n"
            f'    """Handle the {w} of a request ({i})."""\n'
            f'    value = request.get("{w}_{i}")\n'
            f"    return compute_{w}(value, {i})\n\n\n"
            f"class {w.title()}Store{i}:\n"
            f"    def load(self):\n"
            f'        return [{i}, "{w}"]\n'
        )


def buffer_text(d: int, version: int) -> str:
    """An open buffer's text at one version: a new identifier each time, as typing makes."""
    name = f"edited_{d}_v{version}"
    return (f"def {name}(request):\n"
            f'    """Buffer {d}, version {version}: the session token of {name}."""\n'
            f"    return request.session.get('{name}')\n")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def _drain(stream: asyncio.StreamReader | None, tail: list[bytes]) -> None:
    """Read the server's stderr (its logs) so that a full pipe never blocks it."""
    if stream is None:
        return
    while line := await stream.readline():
        tail.append(line)
        del tail[:-50]


async def soak(args: argparse.Namespace) -> dict[str, Any]:  # noqa: C901 - one run, in order
    tmp = Path(tempfile.mkdtemp(prefix="ir-soak-"))
    root = Path(args.tree).resolve() if args.tree else tmp / "ws"
    if not args.tree:
        generated_tree(root, args.files)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(args.code).resolve()), os.environ.get("PYTHONPATH", "")]),
        ITERATIVE_RETRIEVAL_LOG="WARNING")
    client = LanguageClient("ir-soak", "1")
    cmd = [sys.executable, "-m", "iterative_retrieval", "serve"]
    if args.tracemalloc:
        Path(args.tracemalloc).mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-c", TRACED_SERVER, args.tracemalloc, str(args.frames)]
    await client.start_io(*cmd, env=env)
    server = client._server
    assert server is not None
    tail: list[bytes] = []
    drain = asyncio.ensure_future(_drain(server.stderr, tail))

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def configuration(params: types.ConfigurationParams) -> list[Any]:
        return [None for _ in params.items]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def progress(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    for method in (types.PROGRESS, types.WINDOW_LOG_MESSAGE, types.WINDOW_SHOW_MESSAGE):
        client.feature(method)(lambda params: None)  # heard, and left alone

    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(
                configuration=True,
                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                    dynamic_registration=True)),
            window=types.WindowClientCapabilities(work_done_progress=True)),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        initialization_options={"cacheDir": str(tmp / "cache")},
    ))
    client.initialized(types.InitializedParams())

    async def command(name: str, arg: dict | None = None) -> Any:
        return await asyncio.wait_for(client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=[arg] if arg else [])), 600)

    t0 = time.monotonic()
    while (await command("iterativeRetrieval.status"))["state"] != "ready":
        await asyncio.sleep(0.2)
    ready = time.monotonic() - t0
    docs = [root / f"soak/buffer_{d}.py" for d in range(args.buffers)]
    versions = [1] * args.buffers
    for d, path in enumerate(docs):
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                                 version=1, text=buffer_text(d, 1))))
    samples: list[tuple[int, float]] = [(0, rss_mb(server.pid))]
    snapshots = 0
    t0 = time.monotonic()
    for i in range(1, args.retrieves + 1):
        if args.edits:
            d = i % args.buffers
            versions[d] += 1
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=docs[d].as_uri(), version=versions[d]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(
                    text=buffer_text(d, versions[d]))]))
        result = await command("iterativeRetrieval.retrieve",
                               {"task": TASKS[i % len(TASKS)], "maxCycles": args.cycles})
        if not result["files"]:
            raise RuntimeError(f"retrieve {i} found nothing")
        if i % args.sample_every == 0:
            await asyncio.sleep(0.1)  # past the server's settle after an answer (50 ms)
            samples.append((i, rss_mb(server.pid)))
            if args.tracemalloc:
                snapshots += 1
                os.kill(server.pid, signal.SIGUSR1)
            if args.verbose:
                print(f"{i} retrieves: {samples[-1][1]:.1f} MB", file=sys.stderr, flush=True)
    seconds = time.monotonic() - t0
    await asyncio.wait_for(client.shutdown_async(None), 60)
    client.exit(None)
    await client.stop()
    drain.cancel()
    last = [mb for n, mb in samples if n >= args.retrieves - args.window]
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "tree": str(root) if args.tree else f"generated, {args.files} files",
        "retrieves": args.retrieves, "edits": args.edits, "buffers": args.buffers,
        "cycles": args.cycles, "ready_seconds": round(ready, 2),
        "seconds": round(seconds, 1), "retrieves_per_second": round(args.retrieves / seconds, 1),
        "samples": samples,
        "window": args.window,
        "window_min_mb": round(min(last), 1), "window_max_mb": round(max(last), 1),
        "spread_mb": round(max(last) - min(last), 1),
        "plateau": max(last) - min(last) <= args.tolerance_mb,
        "tolerance_mb": args.tolerance_mb,
    }


def markdown(res: dict[str, Any]) -> str:
    rows = [f"| {n} | {mb:.1f} |" for n, mb in res["samples"]
            if n % max(res["retrieves"] // 10, 1) == 0]
    return "\n".join([
        f"Soak ({res['date']}): {res['retrieves']} retrieves"
        f"{' with an edit before each' if res['edits'] else ''}, {res['cycles']} cycle(s),"
        f" {res['buffers']} open buffers, on {res['tree']}; {res['seconds']} s"
        f" ({res['retrieves_per_second']} retrieves/s).",
        "",
        "| retrieves | server RSS (MB) |",
        "|---|---|",
        *rows,
        "",
        f"Over the last {res['window']} retrieves: {res['window_min_mb']} to"
        f" {res['window_max_mb']} MB (spread {res['spread_mb']} MB;"
        f" {'a plateau' if res['plateau'] else 'NOT a plateau'} within"
        f" ±{res['tolerance_mb']} MB).",
    ])


def diff(a: str, b: str, top: int = 25) -> str:
    """What grew between two tracemalloc snapshots, by allocation site (traceback)."""
    import tracemalloc

    old, new = tracemalloc.Snapshot.load(a), tracemalloc.Snapshot.load(b)
    filters = [tracemalloc.Filter(False, tracemalloc.__file__)]
    key = "traceback" if new.traceback_limit > 1 else "lineno"
    stats = new.filter_traces(filters).compare_to(old.filter_traces(filters), key)
    lines = [f"total: {sum(s.size for s in new.statistics('filename')) / MB:.1f} MB traced"]
    for s in stats[:top]:
        lines.append(f"{s.size_diff / 1024:+.0f} KiB ({s.count_diff:+d} blocks), now "
                     f"{s.size / 1024:.0f} KiB")
        lines.extend("    " + line for line in s.traceback.format(limit=8))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.perf.soak", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tree", nargs="?", help="workspace folder (default: a generated tree)")
    p.add_argument("--files", type=int, default=2000, help="files of the generated tree")
    p.add_argument("--code", default=str(REPO / "server"),
                   help="the folder holding the iterative_retrieval package to run (default: "
                        "this checkout's; another, e.g. an older version's, to compare)")
    p.add_argument("--retrieves", type=int, default=5000)
    p.add_argument("--no-edits", dest="edits", action="store_false",
                   help="no didChange before each retrieve")
    p.add_argument("--buffers", type=int, default=5)
    p.add_argument("--cycles", type=int, default=3, help="maxCycles of each retrieve")
    p.add_argument("--sample-every", type=int, default=100)
    p.add_argument("--window", type=int, default=4000,
                   help="retrieves at the end over which RSS must be flat")
    p.add_argument("--tolerance-mb", type=float, default=10.0)
    p.add_argument("--out", help="write the results as JSON")
    p.add_argument("--markdown", help="write the summary as Markdown")
    p.add_argument("--tracemalloc", metavar="DIR", help="snapshots of the server's heap")
    p.add_argument("--frames", type=int, default=8,
                   help="frames kept per allocation under --tracemalloc (more: slower)")
    p.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"),
                   help="compare two snapshots written by --tracemalloc, and exit")
    p.add_argument("-v", "--verbose", action="store_true", help="each sample on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.diff:
        print(diff(*args.diff))
        return 0
    res = asyncio.run(soak(args))
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=2) + "\n")
    md = markdown(res)
    if args.markdown:
        Path(args.markdown).write_text(md + "\n")
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
