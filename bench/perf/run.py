"""Speed and memory on real codebases, side by side with ripgrep, in one command.

    python -m bench.perf /tmp/corpus/sympy-sympy-1.11.1 /tmp/corpus/go /tmp/corpus/linux-6.1.176

For each corpus (a folder; `NAME=PATH` names it, else the folder's leading word picks the task
list in tasks.json) it measures, with this checkout's code (server/ first on PYTHONPATH):

- the reference: `rg -i -F -c` for each task's keywords over the same tree (every file read once);
- the cold index: `iterative-retrieval index` into an empty cache folder (wall time, peak RSS of
  the process and its workers, index size on disk);
- the warm command line: `iterative-retrieval retrieve TASK --json`, process start included;
- the command line's refresh after one file was edited (a stat of every file, one file re-read);
- the language server (`iterative-retrieval serve`, driven over stdio like an editor that watches
  files): time to ready on the persisted index, `iterativeRetrieval.retrieve` latency with 1 and
  3 cycles, a save (`didSave`) and an unsaved edit (`didChange`) until the index has them (timed
  as the notification plus a `status`, which waits for queued updates), peak RSS;
- the language server on an empty cache: time to ready, and `status` latency while it indexes.

Results go to a JSON file, a Markdown table (stdout) and a PNG plot of cost against size.
Timings on a shared machine are noisy: each figure is a median (p95 where said) of repeats, and
the load average before and after each corpus is recorded. Needs `rg` (Debian: `apt-get install
ripgrep`) and, for the plot, matplotlib (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .lspclient import LspClient
from .procs import PeakRss, run

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "server"
TASKS_FILE = Path(__file__).with_name("tasks.json")
EDIT_SUFFIXES = (".py", ".go", ".c", ".ts", ".js", ".java", ".rs", ".rb", ".cc", ".cpp")
MB = 1024 * 1024


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    rg = shutil.which("rg")
    if rg is None:
        print("bench.perf: ripgrep (rg) is not installed; the reference column stays empty. "
              "Install it with `apt-get install ripgrep`.", file=sys.stderr)
    results: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": _machine(),
        "settings": {k: v for k, v in vars(args).items() if k != "corpus"},
        "corpora": [],
    }
    for earlier in args.from_json:  # corpora measured by an earlier run, reported together
        old = json.loads(Path(earlier).read_text())
        for c in old["corpora"]:
            c.setdefault("date", old["date"])
        results["corpora"].extend(old["corpora"])
    if not args.corpus and not args.from_json:
        raise SystemExit("bench.perf: give at least one corpus (or --from-json)")
    for spec in args.corpus:
        name, root = _corpus(spec)
        _say(f"== {name}: {root}")
        results["corpora"].append(bench_corpus(name, root, args, rg))
        if args.out:  # keep what is done so far: a large corpus takes a while
            Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    table = markdown(results)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table + "\n")
    if args.plot:
        plot(results, Path(args.plot))
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.perf", description=__doc__.split("\n\n")[0])
    p.add_argument("corpus", nargs="*", help="a source tree: PATH or NAME=PATH")
    p.add_argument("--repeats", type=int, default=3, help="rounds over the task list (default 3)")
    p.add_argument("--tasks", type=int, default=8, help="tasks per corpus (default 8)")
    p.add_argument("--cold-runs", type=int, default=1, help="cold indexes per corpus (default 1)")
    p.add_argument("--edits", type=int, default=10, help="timed saves and edits (default 10)")
    p.add_argument("--no-lsp-cold", action="store_true",
                   help="skip the language server's own cold index")
    p.add_argument("--out", default="bench-perf.json", help="JSON results (default %(default)s)")
    p.add_argument("--markdown", help="also write the Markdown table here")
    p.add_argument("--plot", help="write the PNG plot here (needs matplotlib)")
    p.add_argument("--keep-cache", action="store_true", help="keep the index folders")
    p.add_argument("--from-json", action="append", default=[], metavar="FILE",
                   help="also report the corpora of an earlier run's JSON (repeatable)")
    return p


def _say(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _corpus(spec: str) -> tuple[str, Path]:
    name, sep, path = spec.partition("=")
    if not sep:
        path, name = spec, ""
    root = Path(path).expanduser().resolve()
    if not root.is_dir():
        raise SystemExit(f"bench.perf: not a folder: {path}")
    return name or root.name, root


def _machine() -> dict[str, Any]:
    mem = 0
    try:
        with open("/proc/meminfo") as fh:
            mem = int(fh.readline().split()[1]) * 1024
    except OSError:
        pass
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")),
                       cpu)
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": cpu, "memory_gb": round(mem / 2**30, 1),
            "python": platform.python_version(), "platform": platform.platform()}


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def tasks_for(name: str, n: int) -> list[str]:
    lists = json.loads(TASKS_FILE.read_text())
    word = re.match(r"[a-z]*", name.lower()).group()
    return (lists.get(name) or lists.get(word) or lists["generic"])[:n]


def keywords(task: str) -> list[str]:
    """The words and names the task searches for, as the engine reads them."""
    sys.path.insert(0, str(SERVER))
    from iterative_retrieval.query import parse_task

    return list(dict.fromkeys(c.text for c in parse_task(task).keywords))


def _stats(xs: list[float]) -> dict[str, float | None]:
    if not xs:
        return {"p50": None, "p95": None, "n": 0}
    s = sorted(xs)
    return {"p50": statistics.median(s), "p95": s[min(len(s) - 1, round(0.95 * (len(s) - 1)))],
            "n": len(s)}


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _scope(root: Path) -> tuple[int, int, list[tuple[str, int]]]:
    """Files in the engine's scope, their bytes, and (rel, size) of the editable ones."""
    sys.path.insert(0, str(SERVER))
    from iterative_retrieval.workspace import Scope

    n = total = 0
    editable = []
    for wf in Scope(root).files():
        try:
            size = os.stat(wf.abs).st_size
        except OSError:
            continue
        n += 1
        total += size
        if wf.rel.endswith(EDIT_SUFFIXES) and 2_000 <= size <= 20_000:
            editable.append((wf.rel, size))
    return n, total, sorted(editable)


def bench_corpus(name: str, root: Path, args: argparse.Namespace, rg: str | None) -> dict:
    res: dict[str, Any] = {"name": name, "root": str(root), "load_before": _load(),
                           "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(SERVER)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    env.pop("ITERATIVE_RETRIEVAL_CACHE", None)
    # as installed: bytecode is cached (some sandboxes turn that off, which adds the compile of
    # every module to every start)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    ir = [sys.executable, "-m", "iterative_retrieval"]
    tasks = tasks_for(name, args.tasks)
    res["tasks"] = tasks
    n, total, editable = _scope(root)
    res["files"], res["mb"] = n, round(total / MB, 1)
    edit_rel = editable[len(editable) // 2][0] if editable else None
    res["edited_file"] = edit_rel
    tmp = Path(tempfile.mkdtemp(prefix="ir-perf-"))
    try:
        _say(f"{n} files, {total / MB:.0f} MB; ripgrep")
        res["rg"] = _bench_rg(rg, root, tasks, args.repeats) if rg else None
        _say("cold index (command line)")
        cache = _bench_cold(ir, env, root, tmp, args.cold_runs, res)
        _say("warm command line")
        res["cli_warm"] = _bench_cli_warm(ir, env, root, cache, tasks, args.repeats)
        if edit_rel:
            res["cli_refresh_one_edit"] = _bench_cli_refresh(ir, env, root, cache, edit_rel,
                                                             min(3, args.edits))
        _say("language server")
        res["lsp"] = _bench_lsp(ir, env, root, cache, tasks, args, edit_rel)
        if not args.no_lsp_cold:
            _say("language server, cold")
            res["lsp_cold"] = _bench_lsp_cold(ir, env, root, tmp / "lsp-cold", edit_rel)
    finally:
        if args.keep_cache:
            _say(f"index folders kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    res["load_after"] = _load()
    return res


def _bench_rg(rg: str, root: Path, tasks: list[str], repeats: int) -> dict[str, Any]:
    files = run([rg, "--files", str(root)]).stdout.count(b"\n")
    times = []
    for r in range(repeats + 1):
        for task in tasks:
            pats = [a for k in keywords(task) for a in ("-e", k)]
            t = run([rg, "-i", "-F", "-c", "--no-messages", *pats, str(root)])
            if r:  # the first round only warms the page cache
                times.append(t.seconds)
    return {"files": files, "scan": _stats(times)}


def _bench_cold(ir, env, root: Path, tmp: Path, runs: int, res: dict) -> Path:
    times, peaks, sizes = [], [], []
    cache = tmp
    for i in range(max(1, runs)):
        cache = tmp / f"cold-{i}"
        r = run([*ir, "index", "--root", str(root), "--cache-dir", str(cache), "--json", "-q"],
                env=env, sample_rss=True)
        if r.returncode:
            raise SystemExit(f"bench.perf: index failed: {r.stderr.decode()[-2000:]}")
        times.append(r.seconds)
        peaks.append(r.peak_rss)
        sizes.append(_size(cache))
        res["indexed"] = json.loads(r.stdout)[0]
    res["cold_index"] = {"seconds": _stats(times), "peak_rss_mb": round(max(peaks) / MB, 1),
                         "index_mb": round(max(sizes) / MB, 1)}
    return cache


def _bench_cli_warm(ir, env, root: Path, cache: Path, tasks: list[str], repeats: int) -> dict:
    times, peaks = [], []
    for _ in range(repeats):
        for task in tasks:
            r = run([*ir, "retrieve", task, "--root", str(root), "--cache-dir", str(cache),
                     "--json", "-q"], env=env, sample_rss=True)
            if r.returncode:
                raise SystemExit(f"bench.perf: retrieve failed: {r.stderr.decode()[-2000:]}")
            times.append(r.seconds)
            peaks.append(r.peak_rss)
    start = [run([sys.executable, "-c", "pass"], env=env).seconds for _ in range(3)]
    return {"seconds": _stats(times), "peak_rss_mb": round(max(peaks) / MB, 1),
            "python_start": statistics.median(start)}


class _Edit:
    """Append a comment line to a file, and put it back exactly (content and mtime)."""

    def __init__(self, path: Path):
        self.path = path
        self.original = path.read_bytes()
        self.stat = path.stat()

    def text(self, k: int) -> str:
        return self.original.decode("utf-8", "replace") + f"\n// bench edit {k}\n"

    def apply(self, k: int) -> None:
        self.path.write_text(self.text(k), encoding="utf-8")

    def restore(self) -> None:
        self.path.write_bytes(self.original)
        os.utime(self.path, ns=(self.stat.st_atime_ns, self.stat.st_mtime_ns))


def _bench_cli_refresh(ir, env, root: Path, cache: Path, rel: str, n: int) -> dict:
    edit = _Edit(root / rel)
    cmd = [*ir, "index", "--root", str(root), "--cache-dir", str(cache), "--json", "-q"]
    times = []
    try:
        for k in range(n):
            edit.apply(k)
            times.append(run(cmd, env=env).seconds)
    finally:
        edit.restore()
        run(cmd, env=env)
    return {"seconds": _stats(times)}


def _wait_ready(client: LspClient, timeout: float = 7200) -> tuple[float, list[float], list[str]]:
    """Poll `status` until the index is ready: seconds taken, each status latency, each state."""
    t0 = time.perf_counter()
    lat, states = [], []
    while time.perf_counter() - t0 < timeout:
        st, dt = client.command("iterativeRetrieval.status")
        lat.append(dt)
        states.append(st["state"])
        if st["state"] == "ready":
            return time.perf_counter() - t0, lat, states
        if st["state"] == "error":
            raise SystemExit(f"bench.perf: the server's index failed: {st.get('error')}")
        time.sleep(0.1)
    raise SystemExit("bench.perf: the server's index was not ready in time")


def _start_server(ir, env, cache: Path) -> tuple[LspClient, PeakRss]:
    """`iterative-retrieval serve` on its own cache folder, with its memory watched."""
    client = LspClient([*ir, "serve"], env=dict(env, ITERATIVE_RETRIEVAL_CACHE=str(cache),
                                                ITERATIVE_RETRIEVAL_LOG="WARNING"))
    return client, PeakRss(client.proc.pid)


def _bench_lsp(ir, env, root: Path, cache: Path, tasks: list[str], args, rel: str | None) -> dict:
    client, peak = _start_server(ir, env, cache)
    out: dict[str, Any] = {}
    try:
        t0 = time.perf_counter()
        client.initialize(root)
        ready, _, _ = _wait_ready(client)
        out["ready_seconds"] = time.perf_counter() - t0
        time.sleep(0.5)  # let the client register its file watcher (no re-scan per request)
        lat: dict[int, list[float]] = {1: [], 3: []}
        first: dict[int, list[float]] = {1: [], 3: []}
        for r in range(args.repeats):
            for task in tasks:
                for cycles in (1, 3):
                    _, dt = client.command("iterativeRetrieval.retrieve",
                                           {"task": task, "maxCycles": cycles})
                    lat[cycles].append(dt)
                    if r == 0:
                        first[cycles].append(dt)
        for c in (1, 3):
            out[f"retrieve_{c}"] = _stats(lat[c])
            out[f"retrieve_{c}_first_round"] = _stats(first[c])
        base = [client.command("iterativeRetrieval.status")[1] for _ in range(10)]
        out["status"] = _stats(base)
        if rel:
            out.update(_bench_updates(client, root, rel, args.edits, statistics.median(base)))
    finally:
        client.close()
        out["peak_rss_mb"] = round(peak.stop() / MB, 1)
    return out


def _bench_updates(client: LspClient, root: Path, rel: str, n: int, base: float) -> dict:
    """Saves and unsaved edits of one file, each until a `status` (which waits for updates)."""
    path = root / rel
    uri = path.as_uri()
    edit = _Edit(path)
    saves, changes = [], []
    try:
        for k in range(n):
            edit.apply(k)
            t0 = time.perf_counter()
            client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
            client.command("iterativeRetrieval.status")
            saves.append(time.perf_counter() - t0)
        edit.restore()
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "plaintext", "version": 0, "text": edit.text(0)}})
        client.command("iterativeRetrieval.status")
        for k in range(n):
            t0 = time.perf_counter()
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": k + 1},
                "contentChanges": [{"text": edit.text(k + 1)}]})
            client.command("iterativeRetrieval.status")
            changes.append(time.perf_counter() - t0)
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        client.command("iterativeRetrieval.status")
    finally:
        edit.restore()
    return {
        "save": _stats(saves), "save_net": _stats([max(0.0, s - base) for s in saves]),
        "change": _stats(changes), "change_net": _stats([max(0.0, c - base) for c in changes]),
    }


def _bench_lsp_cold(ir, env, root: Path, cache: Path, rel: str | None) -> dict:
    client, peak = _start_server(ir, env, cache)
    out: dict[str, Any] = {}
    try:
        t0 = time.perf_counter()
        client.initialize(root)
        edited = False
        lat, states = [], []
        while True:
            st, dt = client.command("iterativeRetrieval.status")
            lat.append(dt)
            states.append(st["state"])
            if st["state"] == "ready":
                break
            if st["state"] == "error":
                raise SystemExit(f"bench.perf: the server's index failed: {st.get('error')}")
            if rel and not edited and st["state"] == "indexing":
                # an editor keeps typing while the server indexes: the buffer must get in
                uri = (root / rel).as_uri()
                client.notify("textDocument/didOpen", {"textDocument": {
                    "uri": uri, "languageId": "plaintext", "version": 0,
                    "text": "// typed while indexing\n"}})
                st, dt = client.command("iterativeRetrieval.status")
                out["open_buffer_while_indexing"] = {
                    "seconds": dt, "state": st["state"], "open_buffers": st["open_buffers"]}
                client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
                edited = True
            time.sleep(0.2)
        out["ready_seconds"] = time.perf_counter() - t0
        during = [d for d, s in zip(lat, states, strict=False) if s == "indexing"]
        out["status_while_indexing"] = {**_stats(during), "max": max(during, default=None)}
    finally:
        client.close()
        out["peak_rss_mb"] = round(peak.stop() / MB, 1)
    return out


# -- report ------------------------------------------------------------------------------------


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x * 1000:.0f} ms"


def _s(x: float | None) -> str:
    return "–" if x is None else (f"{x:.2f} s" if x < 10 else f"{x:.0f} s")


def _get(d: Any, *keys: str) -> Any:
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def markdown(results: dict) -> str:
    cs = results["corpora"]

    def row(label: str, fn) -> str:
        return f"| {label} | " + " | ".join(fn(c) for c in cs) + " |"

    def ratio(c: dict) -> str:
        cold = _get(c, "cold_index", "seconds", "p50")
        rg = _get(c, "rg", "scan", "p50")
        return f"{cold / rg:.0f}×" if cold and rg else "–"

    def pair(c: dict, *keys: str, fmt=_ms) -> str:
        s = _get(c, *keys)
        return f"{fmt(s['p50'])} / {fmt(s['p95'])}" if s and s.get("p50") is not None else "–"

    lines = [
        "| | " + " | ".join(c["name"] for c in cs) + " |",
        "|---|" + "---|" * len(cs),
        row("files in scope (rg's count)",
            lambda c: f"{c['files']} ({_get(c, 'rg', 'files') or '–'})"),
        row("size of those files", lambda c: f"{c['mb']:.0f} MB"),
        row("measured (UTC)", lambda c: c.get("date", results["date"])),
        row("load average before / after", lambda c: f"{c['load_before']} / {c['load_after']}"),
        row("**rg**, one scan for a task's keywords (p50)",
            lambda c: _s(_get(c, "rg", "scan", "p50"))),
        row("**cold index** (command line)",
            lambda c: _s(_get(c, "cold_index", "seconds", "p50"))),
        row("cold index ÷ rg scan", ratio),
        row("cold index peak RSS (with workers)",
            lambda c: f"{_get(c, 'cold_index', 'peak_rss_mb')} MB"),
        row("index size on disk", lambda c: f"{_get(c, 'cold_index', 'index_mb')} MB"),
        row("**warm CLI** `retrieve`, process start included (p50 / p95)",
            lambda c: pair(c, "cli_warm", "seconds", fmt=_s)),
        row("CLI `index` after editing one file (p50)",
            lambda c: _s(_get(c, "cli_refresh_one_edit", "seconds", "p50"))),
        row("server: ready on the persisted index",
            lambda c: _s(_get(c, "lsp", "ready_seconds"))),
        row("server `retrieve`, 1 cycle (p50 / p95)", lambda c: pair(c, "lsp", "retrieve_1")),
        row("**server `retrieve`, 3 cycles** (p50 / p95)", lambda c: pair(c, "lsp", "retrieve_3")),
        row("server `retrieve`, 3 cycles, first round only (p50 / p95)",
            lambda c: pair(c, "lsp", "retrieve_3_first_round")),
        row("server `status` round trip (p50)", lambda c: _ms(_get(c, "lsp", "status", "p50"))),
        row("**save → indexed** (didSave + status − status; p50 / p95)",
            lambda c: pair(c, "lsp", "save_net")),
        row("unsaved edit → indexed (didChange; p50 / p95)",
            lambda c: pair(c, "lsp", "change_net")),
        row("server peak RSS (warm)", lambda c: f"{_get(c, 'lsp', 'peak_rss_mb')} MB"),
        row("server: cold index to ready",
            lambda c: _s(_get(c, "lsp_cold", "ready_seconds"))),
        row("server: `status` while indexing (p50 / max)",
            lambda c: (f"{_ms(_get(c, 'lsp_cold', 'status_while_indexing', 'p50'))} / "
                       f"{_ms(_get(c, 'lsp_cold', 'status_while_indexing', 'max'))}")
            if _get(c, "lsp_cold") else "–"),
        row("server peak RSS (cold index)",
            lambda c: f"{_get(c, 'lsp_cold', 'peak_rss_mb') or '–'} MB"),
    ]
    return "\n".join(lines)


def plot(results: dict, out: Path) -> None:
    """Cost against the number of files, log-log, one line per measure."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench.perf: no matplotlib, no plot (pip install -e '.[bench]')", file=sys.stderr)
        return
    cs = sorted(results["corpora"], key=lambda c: c["files"])
    xs = [c["files"] for c in cs]
    series = [
        ("cold index", ("cold_index", "seconds", "p50"), "o-"),
        ("rg scan × 40 (cold-index target)", ("rg", "scan", "p50"), "k--"),
        ("rg scan", ("rg", "scan", "p50"), "k:"),
        ("warm CLI retrieve (with start)", ("cli_warm", "seconds", "p50"), "s-"),
        ("server retrieve, 3 cycles (p50)", ("lsp", "retrieve_3", "p50"), "^-"),
        ("server retrieve, 1 cycle (p50)", ("lsp", "retrieve_1", "p50"), "v-"),
        ("save → indexed (p50)", ("lsp", "save_net", "p50"), "d-"),
    ]
    from matplotlib.ticker import NullFormatter

    fig, ax = plt.subplots(figsize=(10, 5), dpi=110)
    for label, keys, style in series:
        ys = [_get(c, *keys) for c in cs]
        if label.startswith("rg scan ×"):
            ys = [y * 40 if y else None for y in ys]
        pts = [(x, y) for x, y in zip(xs, ys, strict=False) if y]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("files in the repository")
    ax.set_ylabel("seconds")
    ax.set_title("iterative-retrieval: cost against repository size")
    for c in cs:
        ax.annotate(c["name"], (c["files"], _get(c, "cold_index", "seconds", "p50") or 1),
                    textcoords="offset points", xytext=(4, 6), fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
