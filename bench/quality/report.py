"""Aggregate per-task records into figures, and render them as Markdown tables."""

from __future__ import annotations

from collections import Counter

from . import metrics as M

MAIN_KEYS = ("R@1", "R@3", "R@5", "R@10", "MRR", "Acc@5")
REFERENCE = {  # /work/shared/bench-dev/README.md, same 195 tasks, file level
    "bm25": {"R@1": .281, "R@3": .483, "R@5": .617, "R@10": .720, "MRR": .439, "Acc@5": .595},
    "keywords": {"R@1": .154, "R@3": .301, "R@5": .422, "R@10": .579, "MRR": .304, "Acc@5": .385},
}
REFERENCE_LINE_RECALL_BM25 = 0.355
LABELS = {
    "ours": "ours (iterative-retrieval)",
    "bm25": "BM25 whole files (bm25s)",
    "keywords": "distinct-keyword count",
}


# -- aggregation --------------------------------------------------------------------------------

def _system_recs(records: list[dict], system: str) -> list[dict]:
    return [r["systems"][system] for r in records if system in r["systems"]]


def ranking_summary(recs: list[dict]) -> dict:
    """Mean ranking metrics (errors count as misses), error count, seconds per task."""
    out: dict = {"n": len(recs), "errors": sum(1 for r in recs if r.get("error"))}
    for k in MAIN_KEYS:
        out[k] = M.mean(r["metrics"][k] for r in recs)
    secs = [r["seconds"] for r in recs if not r.get("error")]
    out["median_s"] = M.median(secs)
    out["p90_s"] = M.percentile(secs, 90)
    return out


def line_summary(recs: list[dict]) -> dict:
    """LineRecall (mean per task and micro over all gold lines) and what was sent."""
    hits = [r["line_hits"] for r in recs if r.get("line_hits") and r["line_hits"][1]]
    return {
        "line_recall": M.mean(r.get("line_recall") for r in recs),
        "line_recall_micro": (sum(h for h, _ in hits) / sum(n for _, n in hits)) if hits else None,
        "lines_sent": M.mean(r.get("lines_sent") for r in recs),
        "tokens_sent": M.mean(r.get("tokens_sent") for r in recs),
        "lines_sent_median": M.median(r["lines_sent"] for r in recs
                                      if r.get("lines_sent") is not None),
    }


def ours_summary(recs: list[dict]) -> dict:
    """Precision at relevance >= 0.7, recall@5 after each cycle, cycles."""
    gold_high = sum(r["high"][0] for r in recs if r.get("high"))
    n_high = sum(r["high"][1] for r in recs if r.get("high"))
    ok = [r for r in recs if not r.get("error")]
    max_cycles = max((len(r["cycle_r5"]) for r in ok), default=0)
    per_cycle, per_cycle_mrr = [], []
    for c in range(1, max_cycles + 1):
        per_cycle.append(M.mean(
            M.ranking_at_cycle(r["cycle_r5"], c) if r["cycle_r5"] else 0.0 for r in ok))
        per_cycle_mrr.append(M.mean(
            M.ranking_at_cycle(r["cycle_mrr"], c) if r.get("cycle_mrr") else 0.0 for r in ok))
    sent = [r.get("files_sent", 0) for r in ok]
    by_gold: dict[str, list[float]] = {}
    for r in ok:
        n = len(r["gold_ranks"])
        by_gold.setdefault(str(n) if n < 3 else "3+", []).append(r["metrics"]["Acc@5"])
    enough = [r for r in ok if r.get("stop") == "enough"]
    return {
        "files_sent": {"median": M.median(sent), "p10": M.percentile(sent, 10),
                       "p90": M.percentile(sent, 90), "min": min(sent, default=None),
                       "max": max(sent, default=None)},
        "no_gold_sent": (sum(1 for r in recs if not any(v is not None
                                                        for v in r["gold_ranks"].values()))
                         / len(recs)) if recs else None,
        "gold_sent": M.mean(sum(v is not None for v in r["gold_ranks"].values())
                            / max(len(r["gold_ranks"]), 1) for r in recs),
        "stops": {k: sum(1 for r in ok if r.get("stop") == k) for k in M.STOP_KINDS},
        "enough_acc5": M.mean(r["metrics"]["Acc@5"] for r in enough),
        "acc5_by_gold": {k: (len(v), M.mean(v)) for k, v in sorted(by_gold.items())},
        "precision_high": gold_high / n_high if n_high else None,
        "high_files": n_high,
        "tasks_with_high": sum(1 for r in recs if r.get("high") and r["high"][1]),
        "mean_high_files": n_high / len(recs) if recs else None,
        "cycle_r5": per_cycle,
        "cycle_mrr": per_cycle_mrr,
        "final_r5": M.mean(r["metrics"]["R@5"] for r in ok),
        "final_mrr": M.mean(r["metrics"]["MRR"] for r in ok),
        "mean_cycles": M.mean(r.get("cycles") for r in ok),
        "cycle_hist": dict(sorted(Counter(r.get("cycles", 0) for r in ok).items())),
    }


def _errors(recs: list[dict]) -> list[tuple[str, int]]:
    """Distinct errors (by their last line) with counts, most frequent first."""
    c: Counter[str] = Counter()
    full: dict[str, str] = {}
    for r in recs:
        if r.get("error"):
            key = r["error"].strip().splitlines()[-1][:300]
            c[key] += 1
            full.setdefault(key, r["error"])
    return [(full[k], n) for k, n in c.most_common()]


LENGTHS = [("short (< 500 characters)", 0, 500), ("medium (500-2000)", 500, 2000),
           ("long (>= 2000: logs, code, tracebacks)", 2000, 10**9)]
"""Task-text lengths: long issue texts must work as well as short requests."""


def summarize(records: list[dict], trees: list[dict], cli: list[dict],
              ablation: dict[str, list[dict]], systems: list[str]) -> dict:
    """Every figure the report shows, as plain data (also dumped to --json)."""
    out: dict = {"systems": {}, "per_repo": {}, "lines": {}, "errors": {}}
    repos = sorted({r["repo"] for r in records})
    for s in systems:
        recs = _system_recs(records, s)
        out["systems"][s] = ranking_summary(recs)
        out["errors"][s] = _errors(recs)
        for repo in repos:
            out["per_repo"].setdefault(repo, {})[s] = ranking_summary(
                _system_recs([r for r in records if r["repo"] == repo], s))
        for label, lo, hi in LENGTHS:
            part = [r for r in records if lo <= r.get("task_chars", 0) < hi]
            if part:
                out.setdefault("per_length", {}).setdefault(label, {})[s] = ranking_summary(
                    _system_recs(part, s))
        if s in ("ours", "bm25"):
            out["lines"][s] = line_summary(recs)
    if "ours" in systems:
        out["ours"] = ours_summary(_system_recs(records, "ours"))
        idx = [t["index"] for t in trees if t.get("index") and not t["index"].get("error")]
        cold = [i for i in idx if i["files"] and i["indexed"] >= i["files"]]
        out["index"] = {
            "trees": len(idx),
            "cold": len(cold),
            "cold_median_s": M.median(i["seconds"] for i in cold),
            "cold_p90_s": M.percentile([i["seconds"] for i in cold], 90),
            "all_median_s": M.median(i["seconds"] for i in idx),
            "median_files": M.median(i["files"] for i in idx),
            "errors": sum(1 for t in trees if t.get("index", {}).get("error")),
        }
        ok = [c["seconds"] for c in cli if not c["error"]]
        out["cli"] = {"n": len(ok), "median_s": M.median(ok), "p90_s": M.percentile(ok, 90),
                      "errors": [c for c in cli if c["error"]]}
    if any("corpus_seconds" in t for t in trees):
        secs = [t["corpus_seconds"] for t in trees if "corpus_seconds" in t]
        out["corpus"] = {"median_s": M.median(secs), "p90_s": M.percentile(secs, 90),
                         "median_files": M.median(t["corpus_files"] for t in trees
                                                  if "corpus_files" in t)}
    if ablation:
        out["ablation"] = _ablation_summary(ablation)
        if "none" in ablation and "ours" in systems:
            main = {r["id"]: r["systems"]["ours"]["top"] for r in records if "ours" in r["systems"]}
            out["main_vs_none_changed"] = sum(
                1 for r in ablation["none"] if main.get(r["id"]) != r["systems"]["ours"]["top"])
    return out


def _ablation_summary(ablation: dict[str, list[dict]]) -> dict:
    base = {r["id"]: r["systems"]["ours"]["top"] for r in ablation.get("none", [])}
    out = {}
    for sig, records in ablation.items():
        recs = _system_recs(records, "ours")
        s = ranking_summary(recs)
        s["changed"] = sum(1 for r in records if base.get(r["id"]) != r["systems"]["ours"]["top"])
        out[sig] = s
    return out


METHOD = (
    ("- Trees: the `base` commit of each task, materialized by bench-dev's materialize.py; a "
     "missing tree is reported and its task skipped."),
    ("- ours: one `Engine` per tree (index cache in the --cache-dir), `retrieve(task)` with "
     "default settings; ranking = the returned `files` only, in order: exactly what the CLI, "
     "the sidebar and an agent receive (nothing appended; a gold file not handed out is a "
     "miss at every k). Until 2026-12-02 the last cycle's ranking was appended after the "
     "returned files, which counted files the user never received."),
    ("- Baselines see the files `iterative_retrieval.workspace.Scope` admits (tests and docs "
     "included), minus binary files and files over 1 MB. Tokens: identifiers split at `_` "
     "and camelCase, lower-cased, plus the whole compound; English stop words (NLTK's list), "
     "one-character and digit-only parts dropped; each file also gets its path's tokens. "
     "BM25 is bm25s' default (Lucene, k1 1.5, b 0.75) over whole files; keywords ranks files "
     "by how many distinct task tokens they contain (ties in path order)."),
    ("- BM25 whole-file context: files in BM25 order, sent whole until 8000 tokens "
     "(chars/4) are spent; the file that crosses the budget is cut to the lines that fit."),
)


# -- Markdown -----------------------------------------------------------------------------------

def _f(x, digits: int = 3) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        s = f"{x:.{digits}f}"
        return s[1:] if s.startswith("0.") and digits == 3 else s
    return str(x)


def _signed(x) -> str:
    if x is None:
        return "–"
    return ("+" if x >= 0 else "−") + f"{abs(x):.3f}".lstrip("0")


def _s(x) -> str:
    return "–" if x is None else f"{x:.2f} s"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines + [""]


def render_markdown(meta: dict, summary: dict) -> str:  # noqa: C901 - one branch per section
    """The whole report."""
    L: list[str] = ["# Quality benchmark", ""]
    L += [
        f"- date: {meta['date']}; wall time {meta['seconds']:.0f} s",
        f"- command: `{meta['command']}`",
        (f"- machine: nproc {meta['nproc']}, Python {meta['python']} ({meta['platform']}); "
         f"jobs {meta['jobs']}"),
        f"- tasks: {meta['tasks_selected']} selected from `{meta['tasks_file']}`, "
        f"{meta['trees']} trees; missing trees (skipped): {len(meta['missing'])}"
        + (f" ({', '.join(meta['missing'][:10])})" if meta["missing"] else ""),
    ]
    fps = meta.get("engine_fingerprints") or {}
    if fps.get("main run"):
        L.append(f"- engine: sha1 {fps['main run']} of iterative_retrieval's *.py at the start")
        changed = [f"{k} {v}" for k, v in fps.items() if v != fps["main run"]]
        if changed:
            L.append("- WARNING: the engine's sources changed during the run: "
                     + ", ".join(changed))
    if meta.get("ir_ablate_env"):
        L.append(f"- note: IR_ABLATE={meta['ir_ablate_env']} was set for the main run")
    if meta["jobs"] > 1:
        L.append(f"- note: {meta['jobs']} trees ran in parallel, so times are per busy core")
    L.append("")

    systems = list(summary["systems"])
    L += ["## Files: which files the task needs", ""]
    rows = []
    for s in systems:
        f = summary["systems"][s]
        rows.append([LABELS.get(s, s), str(f["n"])] + [_f(f[k]) for k in MAIN_KEYS]
                    + [str(f["errors"])])
        if s in REFERENCE:
            rows.append([f"{LABELS[s]}: README reference", "195"]
                        + [_f(REFERENCE[s][k]) for k in MAIN_KEYS] + [""])
    L += _table(["system", "tasks", *MAIN_KEYS, "errors"], rows)
    L += [("R@k: share of the gold files in the top k, averaged per task; MRR: 1 / rank of the "
           "first gold file; Acc@5: every gold file in the top 5. A task whose run failed counts "
           "as a miss."), ""]

    L += ["## Per repository (R@5 / MRR / Acc@5)", ""]
    rows = []
    for repo, by in summary["per_repo"].items():
        n = next(iter(by.values()))["n"]
        rows.append([repo, str(n)] + [
            f"{_f(by[s]['R@5'])} / {_f(by[s]['MRR'])} / {_f(by[s]['Acc@5'])}" for s in systems])
    L += _table(["repo", "tasks", *[LABELS.get(s, s) for s in systems]], rows)

    if summary.get("per_length"):
        L += ["## By task length (R@5 / MRR / Acc@5)", ""]
        rows = []
        for label, by in summary["per_length"].items():
            n = next(iter(by.values()))["n"]
            rows.append([label, str(n)] + [
                f"{_f(by[s]['R@5'])} / {_f(by[s]['MRR'])} / {_f(by[s]['Acc@5'])}"
                if s in by else "–" for s in systems])
        L += _table(["task text", "tasks", *[LABELS.get(s, s) for s in systems]], rows)

    if "ours" in summary:
        o = summary["ours"]
        L += ["## ours: confidence and cycles", ""]
        L += [(f"- precision of the files returned at relevance >= 0.7: {_f(o['precision_high'])} "
               f"({o['high_files']} files, {_f(o['mean_high_files'], 2)} per task; "
               f"{o['tasks_with_high']} of {summary['systems']['ours']['n']} tasks had any)"),
              f"- mean cycles: {_f(o['mean_cycles'], 2)}; cycles run → tasks: "
              + ", ".join(f"{k} → {v}" for k, v in o["cycle_hist"].items()), ""]
        fs = o["files_sent"]
        n = summary["systems"]["ours"]["n"]
        L += ["What is handed out (the `files` of the result, nothing appended):", "",
              (f"- files handed out per task: median {_f(fs['median'], 0)} "
               f"(p10 {_f(fs['p10'], 0)}, p90 {_f(fs['p90'], 0)}; {fs['min']} to {fs['max']})"),
              f"- share of the gold files handed out at all: {_f(o['gold_sent'])}",
              (f"- tasks handing out no gold file: {_f(o['no_gold_sent'])} "
               f"({round((o['no_gold_sent'] or 0) * n)} of {n})"),
              ("- stop reasons: " + ", ".join(f"{k} {v}" for k, v in o["stops"].items())
               + f"; Acc@5 of the tasks that stopped as good enough: {_f(o['enough_acc5'])}"),
              ("- Acc@5 by the number of files the fix changed: "
               + ", ".join(f"{k} file(s) {_f(a)} ({c} tasks)"
                           for k, (c, a) in o["acc5_by_gold"].items())),
              ""]
        mrr = o.get("cycle_mrr") or [None] * len(o["cycle_r5"])
        rows = [[str(i + 1), _f(r), _f(m)]
                for i, (r, m) in enumerate(zip(o["cycle_r5"], mrr, strict=False))]
        rows.append(["handed out (the result's files)", _f(o["final_r5"]),
                     _f(o.get("final_mrr"))])
        L += [("Recall@5 and MRR after each cycle (the merged ranking the trace records; a loop "
               "that stopped earlier keeps its last ranking; failed tasks left out):"), ""]
        L += _table(["after cycle", "R@5", "MRR"], rows)

    if summary["lines"]:
        L += ["## Lines: how much of what the fix changed is in the context sent", ""]
        rows = []
        for s, d in summary["lines"].items():
            what = ("ours: returned regions" if s == "ours"
                    else "BM25 top files sent whole until 8000 tokens (chars/4) are spent")
            rows.append([what, _f(d["line_recall"]), _f(d["line_recall_micro"]),
                         _f(d["lines_sent"], 0), _f(d["lines_sent_median"], 0),
                         _f(d["tokens_sent"], 0)])
            if s == "bm25":
                rows.append(["same: reference from the issue", _f(REFERENCE_LINE_RECALL_BM25),
                             "", "", "", ""])
        L += _table(["context", "LineRecall (mean per task)", "LineRecall (micro)",
                     "lines sent / task (mean)", "lines sent (median)", "tokens sent / task"],
                    rows)
        L += [("LineRecall: share of the gold lines (the lines of the gold files the fix removed "
               "or modified, `gold_lines`) inside the lines sent."), ""]

    L += ["## Latency", ""]
    rows = []
    for s in systems:
        f = summary["systems"][s]
        what = {"ours": "ours: one retrieval in-process (warm index)",
                "bm25": "BM25: one query (corpus ready)",
                "keywords": "keywords: one query (corpus ready)"}[s]
        rows.append([what, _s(f["median_s"]), _s(f["p90_s"]), str(f["n"] - f["errors"])])
    if "index" in summary:
        ix = summary["index"]
        rows.append([(f"ours: index build of a tree, cold "
                     f"(median {_f(ix['median_files'], 0)} files)"),
                     _s(ix["cold_median_s"]), _s(ix["cold_p90_s"]), str(ix["cold"])])
        if ix["cold"] < ix["trees"]:
            rows.append(["ours: index open/refresh of a tree, all (cached indexes included)",
                         _s(ix["all_median_s"]), "", str(ix["trees"])])
    if "cli" in summary:
        c = summary["cli"]
        rows.append(["ours: `iterative-retrieval retrieve --json` as a fresh process (warm index)",
                     _s(c["median_s"]), _s(c["p90_s"]), str(c["n"])])
    if "corpus" in summary:
        c = summary["corpus"]
        what = (f"baselines: read + tokenize + index a tree (median {_f(c['median_files'], 0)} "
                "files; token cache shared across trees)")
        rows.append([what, _s(c["median_s"]), _s(c["p90_s"]), ""])
    L += _table(["what", "median", "p90", "n"], rows)

    if "ablation" in summary:
        ab = summary["ablation"]
        base = ab.get("none", {})
        L += ["## Ablation (ours with IR_ABLATE=<signal>)", "",
              ("Each pass runs every task again in fresh processes with IR_ABLATE set to one "
               "signal (`none` switches nothing off)."), ""]
        rows = []
        for sig, f in ab.items():
            d = None
            if base.get("R@5") is not None and f["R@5"] is not None:
                d = f["R@5"] - base["R@5"]
            rows.append([sig, _f(f["R@5"]), _signed(d),
                         _f(f["MRR"]), _f(f["Acc@5"]), str(f["changed"]), str(f["errors"])])
        L += _table(["IR_ABLATE", "R@5", "ΔR@5 vs none", "MRR", "Acc@5",
                     "tasks whose top 10 changed vs none", "errors"], rows)
        if "main_vs_none_changed" in summary:
            L += [(f"Tasks whose top 10 differs between the main run and `none`: "
                  f"{summary['main_vs_none_changed']} (non-zero: the engine is not deterministic, "
                  "or it changed between the passes)."), ""]
        if all(f["changed"] == 0 for s, f in ab.items() if s != "none"):
            L += ["No ablation changed any ranking: the engine does not seem to read IR_ABLATE.",
                  ""]

    errs = {s: e for s, e in summary["errors"].items() if e}
    idx_err = summary.get("index", {}).get("errors")
    if errs or idx_err or summary.get("cli", {}).get("errors"):
        L += ["## Errors", ""]
        for s, items in errs.items():
            L.append(f"- {s}: {sum(n for _, n in items)} failed task(s), "
                     f"{len(items)} distinct error(s)")
            for tb, n in items[:3]:
                tail = ["  " + ln for ln in tb.splitlines()[-8:]]
                L += ["", f"  {n} ×:", "", "  ```", *tail, "  ```"]
        if idx_err:
            L.append(f"- ours: index build failed on {idx_err} tree(s)")
        for c in summary.get("cli", {}).get("errors", [])[:3]:
            L.append(f"- CLI run for {c['id']}: {c['error'][-300:]}")
        L.append("")

    L += ["## Method", "", *METHOD, ""]
    return "\n".join(L)
