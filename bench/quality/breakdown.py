"""Figures of a benchmark run split by kind of task: repository, language, error report.

    python -m bench.quality.breakdown --tasks /tmp/heldout/tasks.jsonl \
        --json /tmp/heldout/report.json [--out /tmp/heldout/breakdown.md]

Reads the per-task records `python -m bench.quality --json` wrote and the tasks file (for the
task text and gold files), and prints one Markdown table per grouping: every task; per
repository; per source when the file mixes them (SWE-bench issues, commits); per language of
the gold files (TS/JS, Python, Rust, Go, other); per error report in
the task text (`mine.error_report`: a pasted traceback, a quoted error message, a built-in
error's name, none), plus all error reports together.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable

from . import metrics as M
from .mine import error_report

KEYS = ("R@1", "R@3", "R@5", "R@10", "MRR", "Acc@5")
LANGUAGES = {
    "TS/JS": (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte"),
    "Python": (".py", ".pyx", ".pyi"),
    "Rust": (".rs",),
    "Go": (".go",),
}


def language(gold: list[str]) -> str:
    """The language most of the gold files are written in."""
    c = Counter(next((lang for lang, exts in LANGUAGES.items() if g.endswith(exts)), "other")
                for g in gold)
    return c.most_common(1)[0][0] if c else "other"


def group_figures(recs: list[dict], systems: list[str]) -> dict:
    """n, each system's mean ranking metrics, LineRecall of ours and BM25, and the precision of
    ours' files at relevance >= 0.7 over the records of one group."""
    out: dict = {"n": len(recs)}
    for s in systems:
        rs = [r["systems"][s] for r in recs if s in r["systems"]]
        out[s] = {k: M.mean(x["metrics"][k] for x in rs) for k in KEYS}
        out[s]["errors"] = sum(1 for x in rs if x.get("error"))
        if s in ("ours", "bm25"):
            out[s]["LineRecall"] = M.mean(x.get("line_recall") for x in rs)
        if s == "ours":
            gold_high = sum(x["high"][0] for x in rs if x.get("high"))
            n_high = sum(x["high"][1] for x in rs if x.get("high"))
            out[s]["P>=0.7"] = gold_high / n_high if n_high else None
            out[s]["high_files"] = n_high
    return out


def _f(x) -> str:
    if x is None:
        return "–"
    s = f"{x:.3f}"
    return s[1:] if s.startswith("0.") else s


def table(title: str, groups: dict[str, list[dict]], systems: list[str]) -> list[str]:
    """One Markdown table: a row per (group, system)."""
    head = ["group", "tasks", "system", *KEYS, "LineRecall", "P(≥0.7)"]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, recs in groups.items():
        if not recs:
            continue
        fig = group_figures(recs, systems)
        for i, s in enumerate(systems):
            f = fig[s]
            p = f"{_f(f['P>=0.7'])} ({f['high_files']})" if s == "ours" else ""
            lines.append("| " + " | ".join([
                name if i == 0 else "", str(fig["n"]) if i == 0 else "", s,
                *[_f(f[k]) for k in KEYS], _f(f.get("LineRecall")), p]) + " |")
    return [*lines, ""]


def render(records: list[dict], tasks: dict[str, dict], systems: list[str]) -> str:
    """Every table, as Markdown."""
    def by(key: Callable[[dict], str], order: list[str] | None = None) -> dict[str, list[dict]]:
        groups: dict[str, list[dict]] = {}
        for r in records:
            groups.setdefault(key(r), []).append(r)
        names = order or sorted(groups)
        return {n: groups.get(n, []) for n in names}

    def kind(r: dict) -> str:
        return error_report(tasks[r["id"]]["task"]) or "none"

    L = ["## Figures by kind of task", ""]
    L += table("All tasks", {"all": records}, systems)
    L += table("Per repository", by(lambda r: r["repo"]), systems)
    if len({r.get("source") for r in records}) > 1:
        L += table("Per source of the task", by(lambda r: r.get("source") or "?"), systems)
    L += table("Per language of the gold files",
               by(lambda r: language(r["gold"]), [*LANGUAGES, "other"]), systems)
    groups = by(kind, ["traceback", "message", "named", "none"])
    groups = {"any error report": [r for r in records if kind(r) != "none"], **groups}
    L += table("Per error report in the task text (mine.error_report)", groups, systems)
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.quality.breakdown",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", required=True, help="the tasks.jsonl the run read")
    ap.add_argument("--json", dest="json_in", required=True, help="the run's --json output")
    ap.add_argument("--out", help="also write the Markdown here")
    a = ap.parse_args(argv)
    with open(a.tasks, encoding="utf-8") as fh:
        tasks = {t["id"]: t for t in (json.loads(line) for line in fh if line.strip())}
    with open(a.json_in, encoding="utf-8") as fh:
        run = json.load(fh)
    records = [r for r in run["tasks"] if r["id"] in tasks]
    systems = [s for s in ("ours", "bm25", "keywords") if any(s in r["systems"] for r in records)]
    text = render(records, tasks, systems)
    print(text)
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
