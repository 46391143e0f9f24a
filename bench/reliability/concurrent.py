"""Concurrent cold runs on one root and one cache folder: do they all answer, alike?

    python -m bench.reliability.concurrent TREE [--runs 10] [--trials 5] [--task TEXT]

Each trial starts `--runs` `iterative-retrieval retrieve TASK --json` processes (this checkout's
code) at once on TREE with an empty cache folder, waits for all, and checks what issue 17 asked:
every one exits 0, without a traceback, a rebuild or an in-memory fallback, with the answer
(paths, relevance, regions) of a lone run. It reports each trial's wall time and how many runs
waited for the builder. The tree is only read. Results: docs/reliability.md ("Concurrent runs").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TASK = "Fix the bug where simplify returns a wrong result for trigonometric expressions"


def _answer(stdout: str) -> list:
    return [(f["path"], f["relevance"], [(r["start_line"], r["end_line"], r["text"])
                                         for r in f["regions"]])
            for f in json.loads(stdout)["files"]]


def _files(root: Path, env: dict[str, str], cache: Path) -> int:
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "index", "--root",
                        str(root), "--cache-dir", str(cache), "--json"],
                       capture_output=True, text=True, env=env, check=True)
    return json.loads(p.stdout)[0]["files"]


def trial(root: Path, task: str, runs: int, env: dict[str, str], cache: Path) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "iterative_retrieval", "retrieve", task, "--root", str(root),
           "--cache-dir", str(cache), "--json"]
    t0 = time.monotonic()
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for _ in range(runs)]
    outs = [(p, *p.communicate()) for p in procs]
    for p, _, err in outs:
        if p.returncode:
            print(f"  exit {p.returncode}: {err.strip().splitlines()[-1][:200]}", flush=True)
    seconds = time.monotonic() - t0
    return {
        "seconds": round(seconds, 1),
        "exit_codes": [p.returncode for p, _, _ in outs],
        "tracebacks": sum("Traceback" in err for _, _, err in outs),
        "rebuilt": sum("rebuilding" in err for _, _, err in outs),
        "in_memory": sum("in-memory" in err for _, _, err in outs),
        "waited": sum("another process is indexing" in err for _, _, err in outs),
        "answers": [_answer(out) if p.returncode == 0 else None for p, out, _ in outs],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.reliability.concurrent",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--task", default=TASK)
    ap.add_argument("--out", help="write the results as JSON")
    ap.add_argument("--code", default=str(REPO / "server"),
                    help="the folder holding the iterative_retrieval package to run (default: "
                         "this checkout's; another, e.g. an older version's, to compare)")
    args = ap.parse_args(argv)
    root = Path(args.tree).resolve()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(args.code).resolve()), os.environ.get("PYTHONPATH", "")]))
    tmp = Path(tempfile.mkdtemp(prefix="ir-concurrent-"))
    files = _files(root, env, tmp / "count")
    alone = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", args.task,
                            "--root", str(root), "--cache-dir", str(tmp / "alone"), "--json"],
                           capture_output=True, text=True, env=env, check=True)
    expected = _answer(alone.stdout)
    results = []
    for k in range(args.trials):
        res = trial(root, args.task, args.runs, env, tmp / f"cache-{k}")
        answers = res.pop("answers")
        res["same_answer"] = sum(a == expected for a in answers)
        res["ok"] = (res["exit_codes"] == [0] * args.runs and res["same_answer"] == args.runs
                     and not (res["tracebacks"] or res["rebuilt"] or res["in_memory"]))
        results.append(res)
        print(f"trial {k + 1}: {'ok' if res['ok'] else 'FAILED'} in {res['seconds']} s; "
              f"exit codes {res['exit_codes']}; same answer {res['same_answer']}/{args.runs}; "
              f"waited {res['waited']}; rebuilt {res['rebuilt']}; in memory "
              f"{res['in_memory']}; tracebacks {res['tracebacks']}", flush=True)
    summary = {"tree": str(root), "files": files, "runs": args.runs, "trials": results,
               "all_ok": all(r["ok"] for r in results)}
    if args.out:
        Path(args.out).write_text(json.dumps(summary, indent=2) + "\n")
    print(f"{files} files, {args.runs} runs at once, {args.trials} trials: "
          f"{'all ok' if summary['all_ok'] else 'FAILURES'}")
    return 0 if summary["all_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
