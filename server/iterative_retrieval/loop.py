"""LOOP: DISPATCH → EVALUATE → REFINE, at most `max_cycles` times, stopping early when enough.

Stops when at least three files score ≥ 0.7 on their own evidence and no critical gap is left,
when a cycle learns nothing new, or when the caller cancels. When nothing matches what the task
names, the first cycle searches the task's generic words too (`fix the add op`), and every
relevance of that run stays in the related band. Evaluations merge across cycles: each file
keeps its best own score and the cycle that first found it; relevance is then calibrated over
the merged ranking (calibrate.py), so "≥ 0.7" counts files that stand out against their rivals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .calibrate import calibrate
from .dispatch import SearchCache, concept_hits, dispatch
from .evaluate import evaluate
from .index import Index
from .models import CycleTrace, Evaluation, Query
from .refine import HIGH, find_gaps, missing_context, refine

STOP_COUNT = 3
GUESS_CEILING = 0.6
"""A run whose files only the task's generic words found scales its relevance by this: related at best."""


class Cancelled(Exception):
    """The caller asked the loop to stop."""


Report = Callable[[str, int, int], None]
"""report(message, cycle, max_cycles)."""


def run_loop(
    index: Index,
    task: str,
    query: Query,
    max_cycles: int,
    read_text: Callable[[str], str | None],
    should_stop: Callable[[], bool] = lambda: False,
    report: Report = lambda msg, cycle, total: None,
) -> tuple[list[Evaluation], list[CycleTrace], SearchCache]:
    """Run the cycles; return the merged evaluations (best first), the trace and the cache."""
    cache = SearchCache()
    task_concepts = list(query.keywords)
    task_stems = {t for c in task_concepts for t in c.terms}
    best: dict[str, Evaluation] = {}
    excluded: set[str] = set()
    trace: list[CycleTrace] = []
    ceiling = 1.0
    for cycle in range(1, max_cycles + 1):
        _check(should_stop)
        report(f"cycle {cycle}/{max_cycles}: dispatching", cycle, max_cycles)
        cands = dispatch(index, query, cache, excluded, should_stop=should_stop)
        if not cands and query.fallback:
            # nothing in the code matches what the task names: its generic words are what is left
            query = replace(query, keywords=query.keywords + query.fallback, fallback=())
            task_concepts = list(query.keywords)
            task_stems = {t for c in task_concepts for t in c.terms}
            cands = dispatch(index, query, cache, excluded, should_stop=should_stop)
            ceiling = GUESS_CEILING
        _check(should_stop)
        report(f"cycle {cycle}/{max_cycles}: evaluating {len(cands)} candidates", cycle, max_cycles)
        evals = evaluate(index, query, cands, cache, task_concepts, cycle, read_text)
        _check(should_stop)
        for ev in evals:
            prev = best.get(ev.path)
            if prev is None:
                best[ev.path] = ev
            elif ev.score > prev.score:
                best[ev.path] = replace(ev, cycle=prev.cycle)
        merged = sorted(best.values(), key=lambda e: e.score, reverse=True)
        calibrate(merged, ceiling)
        kept = {e.path for e in merged if e.score >= HIGH}
        files = cache.all_files(index)
        focus = missing_context(index, merged, task_stems, kept, files)
        gaps = find_gaps(merged, task_concepts, lambda c: bool(concept_hits(index, c, cache)))
        # enough is judged on the files' own evidence: calibration ranks them against each
        # other, and a run with several strong files needs no further cycle
        high = [e for e in merged if e.score >= HIGH]
        entry = CycleTrace(
            cycle=cycle, query=query, candidates=len(cands), kept=len(high), excluded=[],
            learned=[], gaps=gaps.critical + gaps.weak, ranking=[e.path for e in merged[:20]],
        )
        trace.append(entry)
        if len(high) >= STOP_COUNT and not gaps.critical:
            entry.stop_reason = f"{len(high)} files with own score >= {HIGH} and no critical gap"
            break
        if cycle == max_cycles:
            entry.stop_reason = "max cycles reached"
            break
        report(f"cycle {cycle}/{max_cycles}: refining", cycle, max_cycles)
        ref = refine(index, query, merged, task_concepts, task, cache, read_text, focus, gaps, excluded)
        entry.learned = ref.learned
        entry.excluded = ref.excluded
        excluded.update(ref.excluded)
        for p in ref.excluded:
            best.pop(p, None)
        if not ref.learned and not ref.focus and query.patterns == ref.query.patterns:
            entry.stop_reason = "nothing new to learn"
            break
        query = ref.query
    merged = sorted(best.values(), key=lambda e: e.score, reverse=True)
    calibrate(merged, ceiling)
    return merged, trace, cache


def _check(should_stop: Callable[[], bool]) -> None:
    if should_stop():
        raise Cancelled()
