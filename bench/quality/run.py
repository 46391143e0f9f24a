"""Command line and orchestration: group tasks by tree, run every system, score, report.

    python -m bench.quality --tasks ../shared/bench-dev/tasks.jsonl --work /tmp/bench-work \
        [--repos a/b,...] [--limit N] [--systems ours,bm25,keywords] [--ablate] \
        [--out docs/benchmarks.md] [--json results.json] [--jobs 2]

Trees are processed one at a time per job (each tree's index or tokenized corpus is built once
and reused by its tasks); with --jobs > 1 trees are spread over worker processes, which makes
the measured times per task less precise (the report says so).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shlex
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from . import metrics as M
from .report import render_markdown, summarize
from .tasks import Task, group_by_tree, load_tasks

SYSTEMS = ("ours", "bm25", "keywords")
ABLATIONS = ("none", "graph", "feedback", "synonyms", "definitions", "path", "explicit",
             "coverage", "scope")
BUDGET_TOKENS = 8000
TOP_SAVED = 10


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench.quality",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", required=True, help="tasks.jsonl")
    ap.add_argument("--work", default="/tmp/bench-work", help="folder of the materialized trees")
    ap.add_argument("--repos", default="", help="only these repos (comma-separated owner/name)")
    ap.add_argument("--limit", type=int, default=None, help="at most N tasks (after --repos)")
    ap.add_argument("--systems", default=",".join(SYSTEMS),
                    help="comma-separated: " + ",".join(SYSTEMS))
    ap.add_argument("--ablate", action="store_true",
                    help="also run `ours` once per IR_ABLATE value of --ablate-signals")
    ap.add_argument("--ablate-signals", default=",".join(ABLATIONS),
                    help="IR_ABLATE values for --ablate (default: %(default)s)")
    ap.add_argument("--out", help="write the Markdown report here")
    ap.add_argument("--json", dest="json_out", help="write per-task details here")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes over trees (default 1)")
    ap.add_argument("--cache-dir", default="/tmp/bench-cache", help="engine index cache")
    ap.add_argument("--cli-samples", type=int, default=5,
                    help="tasks timed as a fresh CLI process (warm index); 0 disables")
    args = ap.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    bad = [s for s in args.systems if s not in SYSTEMS]
    if bad:
        ap.error(f"unknown system(s): {', '.join(bad)} (known: {', '.join(SYSTEMS)})")
    if args.ablate and "ours" not in args.systems:
        args.systems.append("ours")
    args.ablate_signals = [s.strip() for s in args.ablate_signals.split(",") if s.strip()]
    return args


# -- one tree -----------------------------------------------------------------------------------

def _ranking_record(ranking: list[str], gold: tuple[str, ...], seconds: float) -> dict:
    return {
        "top": ranking[:TOP_SAVED],
        "gold_ranks": M.gold_ranks(ranking, gold),
        "metrics": M.ranking_metrics(ranking, gold),
        "seconds": seconds,
        "error": None,
    }


def _error_record(gold: tuple[str, ...], error: str) -> dict:
    rec = _ranking_record([], gold, 0.0)
    rec["error"] = error
    return rec


def _run_baselines(root: str, tasks: list[Task], systems: list[str], out: dict, tree: dict) -> None:
    from .baselines import Corpus, build_rankers

    wanted = [s for s in systems if s != "ours"]
    if not wanted:
        return
    t0 = time.perf_counter()
    try:
        corpus = Corpus.load(root)
        rankers = build_rankers(corpus, wanted)
    except Exception:  # noqa: BLE001
        err = traceback.format_exc(limit=8).strip()
        for t in tasks:
            for s in wanted:
                out[t.id][s] = _error_record(t.gold, err)
        return
    tree["corpus_seconds"] = time.perf_counter() - t0
    tree["corpus_files"] = len(corpus.paths)
    for t in tasks:
        for name, ranker in rankers.items():
            t1 = time.perf_counter()
            try:
                ranking = ranker.rank(t.task)
            except Exception:  # noqa: BLE001
                out[t.id][name] = _error_record(t.gold, traceback.format_exc(limit=8).strip())
                continue
            rec = _ranking_record(ranking, t.gold, time.perf_counter() - t1)
            if name == "bm25":
                regions, chars = M.pack_whole_files(ranking, corpus.sizes, BUDGET_TOKENS,
                                                    corpus.lines_in_prefix)
                rec["line_recall"] = M.line_recall(t.gold_lines, regions)
                rec["line_hits"] = _line_hits(t, regions)
                rec["lines_sent"] = M.lines_sent(regions)
                rec["tokens_sent"] = (chars + 3) // 4
                rec["files_sent"] = len(regions)
            out[t.id][name] = rec


def _line_hits(task: Task, regions: list[M.Region]) -> tuple[int, int]:
    """(gold lines covered, gold lines) for micro line recall."""
    gold = M.gold_line_set(task.gold_lines)
    return len(gold & M.region_line_set(regions)), len(gold)


def _run_ours(root: str, tasks: list[Task], out: dict, tree: dict, cache_dir: str,
              cli_ids: set[str], cli: list[dict]) -> None:
    from .ours import OursTree, cli_latency

    ours = OursTree(root, cache_dir)
    tree["index"] = vars(ours.index)
    try:
        for t in tasks:
            o = ours.retrieve(t.task)
            rec = _ranking_record(o.ranking, t.gold, o.seconds)
            rec["error"] = o.error
            rec["files"] = [[p, round(r, 3)] for p, r in o.files]
            rec["cycle_r5"] = [M.recall_at(rk, t.gold, 5) for rk in o.cycle_rankings]
            rec["cycle_mrr"] = [M.reciprocal_rank(rk, t.gold) for rk in o.cycle_rankings]
            rec["cycles"] = o.cycles
            rec["stop"] = M.stop_kind(o.stop_reason)
            rec["files_sent"] = len(o.files)
            rec["high"] = M.high_precision_counts(o.files, t.gold)
            rec["line_recall"] = M.line_recall(t.gold_lines, o.regions)
            rec["line_hits"] = _line_hits(t, o.regions)
            rec["lines_sent"] = M.lines_sent(o.regions)
            rec["tokens_sent"] = o.tokens_sent
            rec["regions"] = [list(r) for r in o.regions]
            out[t.id]["ours"] = rec
            if t.id in cli_ids and ours.engine is not None:
                seconds, err = cli_latency(root, t.task, cache_dir)
                cli.append({"id": t.id, "seconds": seconds, "error": err})
    finally:
        ours.close()


def run_tree(root: str, tasks: list[Task], systems: list[str], cache_dir: str,
             cli_ids: set[str]) -> dict:
    """Run the systems on the tasks of one tree; per-task records plus the tree's build costs."""
    out: dict[str, dict] = {t.id: {} for t in tasks}
    tree: dict = {"root": root, "repo": tasks[0].repo, "tasks": len(tasks)}
    cli: list[dict] = []
    _run_baselines(root, tasks, systems, out, tree)
    if "ours" in systems:
        _run_ours(root, tasks, out, tree, cache_dir, cli_ids, cli)
    return {"tree": tree, "results": out, "cli": cli}


# -- all trees ----------------------------------------------------------------------------------

def run_all(groups, systems, cache_dir, cli_ids, jobs, label="", fresh=False) -> list[dict]:
    """run_tree over every group, in order: in-process, or over `jobs` worker processes.

    `fresh` forces new worker processes even for one job, so that modules that read the
    environment at import time (the engine reads IR_ABLATE once) see the current environment.
    """
    done: list[dict | None] = [None] * len(groups)
    t0 = time.perf_counter()

    def note(i: int, res: dict) -> None:
        errs = sum(1 for r in res["results"].values() for s in r.values() if s.get("error"))
        n = sum(1 for d in done if d is not None)
        print(f"{label}[{n}/{len(groups)}] {os.path.basename(groups[i][0])}: "
              f"{len(groups[i][1])} task(s){f', {errs} error(s)' if errs else ''} "
              f"({time.perf_counter() - t0:.0f}s)", file=sys.stderr, flush=True)

    if jobs <= 1 and not fresh:
        for i, (root, tasks) in enumerate(groups):
            done[i] = run_tree(root, tasks, systems, cache_dir, cli_ids)
            note(i, done[i])
    else:
        with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=get_context("spawn")) as pool:
            futs = {pool.submit(run_tree, root, tasks, systems, cache_dir, cli_ids): i
                    for i, (root, tasks) in enumerate(groups)}
            for fut, i in futs.items():  # submission order: progress and results stay ordered
                done[i] = fut.result()
                note(i, done[i])
    return [d for d in done if d is not None]


def _collect(
    tree_runs: list[dict], tasks_by_id: dict[str, Task]
) -> tuple[list[dict], list[dict], list[dict]]:
    """Per-task records (task fields + per-system results), tree records, CLI timings."""
    records, trees, cli = [], [], []
    for tr in tree_runs:
        trees.append(tr["tree"])
        cli.extend(tr["cli"])
        for tid, systems in tr["results"].items():
            t = tasks_by_id[tid]
            records.append({"id": t.id, "repo": t.repo, "source": t.source, "gold": list(t.gold),
                            "task_chars": len(t.task),
                            "systems": systems})
    return records, trees, cli


def run_ablation(args: argparse.Namespace, groups, tasks_by_id: dict[str, Task],
                 fingerprints: dict[str, str | None]) -> dict[str, list[dict]]:
    """`ours` once per IR_ABLATE value: sequential passes, each in new processes."""
    ablation: dict[str, list[dict]] = {}
    saved = os.environ.get("IR_ABLATE")
    try:
        for sig in args.ablate_signals:
            os.environ["IR_ABLATE"] = sig  # inherited by the pass's worker processes
            fingerprints[f"ablate {sig}"] = engine_fingerprint()
            runs = run_all(groups, ["ours"], args.cache_dir, set(), args.jobs,
                           label=f"ablate {sig} ", fresh=True)
            ablation[sig] = _collect(runs, tasks_by_id)[0]
    finally:
        if saved is None:
            os.environ.pop("IR_ABLATE", None)
        else:
            os.environ["IR_ABLATE"] = saved
    return ablation


def engine_fingerprint() -> str | None:
    """A short hash of the engine package's sources, to tell which engine a report measured."""
    spec = importlib.util.find_spec("iterative_retrieval")
    if spec is None or not spec.submodule_search_locations:
        return None
    h = hashlib.sha1()
    for folder in spec.submodule_search_locations:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(f for f in filenames if f.endswith(".py")):
                path = os.path.join(dirpath, name)
                h.update(os.path.relpath(path, folder).encode())
                with open(path, "rb") as fh:
                    h.update(fh.read())
    return h.hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = "python -m bench.quality " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    repos = [r for r in args.repos.split(",") if r.strip()]
    tasks = load_tasks(args.tasks, repos, args.limit)
    if not tasks:
        print("no tasks selected", file=sys.stderr)
        return 2
    groups, missing = group_by_tree(tasks, args.work)
    for t in missing:
        print(f"missing tree for {t.id} ({t.repo}@{t.base[:12]}): run materialize.py; task skipped",
              file=sys.stderr)
    tasks_by_id = {t.id: t for t in tasks}
    cli_ids: set[str] = set()
    if "ours" in args.systems and args.cli_samples > 0:
        # spread the samples over the run: every n-th task that has a tree
        present = [t for _, ts in groups for t in ts]
        step = max(1, len(present) // args.cli_samples)
        cli_ids = {t.id for t in present[::step][: args.cli_samples]}
    started = time.time()
    fingerprint = engine_fingerprint()
    runs = run_all(groups, args.systems, args.cache_dir, cli_ids, args.jobs)
    records, trees, cli = _collect(runs, tasks_by_id)

    fingerprints = {"main run": fingerprint}
    ablation: dict[str, list[dict]] = {}
    if args.ablate:
        ablation = run_ablation(args, groups, tasks_by_id, fingerprints)
    fingerprints["end"] = engine_fingerprint()

    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)),
        "command": command,
        "nproc": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "tasks_file": args.tasks,
        "tasks_selected": len(tasks),
        "trees": len(groups),
        "missing": [t.id for t in missing],
        "systems": args.systems,
        "jobs": args.jobs,
        "cache_dir": args.cache_dir,
        "seconds": round(time.time() - started, 1),
        "ir_ablate_env": os.environ.get("IR_ABLATE"),
        "engine_fingerprints": fingerprints,
    }
    summary = summarize(records, trees, cli, ablation, args.systems)
    report = render_markdown(meta, summary)
    print(report)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(report)
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump({"meta": meta, "summary": summary, "tasks": records, "trees": trees,
                       "cli": cli, "ablation": ablation}, fh, indent=1)
    return 0
