"""A task's tree alone, then beside another project's root: what a second workspace folder
costs the task's own files (docs/design.md, "Several roots").

    python -m bench.quality.beside --tasks ../shared/bench-dev/tasks.jsonl \
        --work /tmp/bench-work --repo pallets/flask --beside /tmp/heldout/work/pallets__click@… \
        [--cache-dir /tmp/beside-cache] [--json out.json]

Each task of `--repo` is retrieved twice with the same engine: with its tree as the only root,
then with `--beside` as a second root. Only the task's own root counts: a gold file is found
when that root hands it out (a file of the same path in the other root is not it). Scored on
the handed-out `files`, as bench.quality scores them, with the number of the other root's files
among the first five.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import metrics as M
from .tasks import load_tasks, root_for


def own_ranking(files, root: Path) -> tuple[list[str], int]:
    """The handed-out paths with each file of another root as a placeholder that matches no
    gold path, and how many of the first five are another root's."""
    ranking, others = [], 0
    for i, f in enumerate(files):
        mine = Path(f.root).resolve() == root if f.root else True
        ranking.append(f.path if mine else f"\0{f.root}/{f.path}")
        others += (not mine) and i < 5
    return ranking, others


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.quality.beside",
                                 description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--work", required=True, help="the trees, as materialize.py wrote them")
    ap.add_argument("--repo", required=True, help="owner/name: the tasks run")
    ap.add_argument("--beside", required=True, help="the second root (another project's tree)")
    ap.add_argument("--cache-dir", default=None, help="index cache (default: the platform's)")
    ap.add_argument("--json", default=None, help="write per-task rankings here")
    args = ap.parse_args(argv)

    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    settings = Settings(cache_dir=args.cache_dir) if args.cache_dir else Settings()
    beside = Path(args.beside).resolve()
    if not beside.is_dir():
        print(f"--beside {args.beside}: no such folder", file=sys.stderr)
        return 2
    scores: dict[str, list[dict[str, float]]] = {"alone": [], "beside": []}
    intruders, rows = 0, []
    for t in load_tasks(args.tasks, [args.repo]):
        root = Path(root_for(args.work, t.repo, t.base)).resolve()
        if not root.is_dir():
            print(f"missing tree for {t.id}: run materialize.py; task skipped", file=sys.stderr)
            continue
        row = {"id": t.id, "gold": list(t.gold)}
        for mode, roots in (("alone", [root]), ("beside", [root, beside])):
            engine = Engine(roots, settings)
            try:
                files = engine.retrieve(t.task).files
            finally:
                engine.close()
            ranking, others = own_ranking(files, root)
            scores[mode].append(M.ranking_metrics(ranking, t.gold))
            row[mode] = [p if not p.startswith("\0") else "(other) " + p[1:] for p in ranking]
            if mode == "beside":
                intruders += others
        rows.append(row)
    n = len(rows)
    if not n:
        print("no task of that repository had its tree", file=sys.stderr)
        return 1
    for mode, got in scores.items():
        print(f"{mode:6} {n} tasks  R@5 {M.mean(m['R@5'] for m in got):.3f}  "
              f"R@10 {M.mean(m['R@10'] for m in got):.3f}  MRR {M.mean(m['MRR'] for m in got):.3f}")
    print(f"the other root's files among the first five: {intruders} ({intruders / n:.2f} a task)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"beside": os.fspath(beside), "tasks": rows}, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
