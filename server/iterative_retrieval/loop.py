"""LOOP: DISPATCH → EVALUATE → REFINE, at most `max_cycles` times, stopping early when enough.

Each cycle merges its evaluations with the earlier ones (a file keeps its best own score and the
cycle that first found it), then gives every file its role and band (relevance.py). The loop
stops as good enough when at least three files are ≥ 0.7 and no critical gap is left, when a
cycle learns nothing new, at the cycle limit, or when the caller cancels. When nothing matches
what the task names, the first cycle searches the task's generic words too (`fix the add op`),
and the run's files stay in the related band at best.

After the last cycle, the definitions the implementing files use and no cycle looked at are
evaluated too, so that the context holds them (the pattern's missing context, resolved).
"""

from __future__ import annotations

from dataclasses import replace

from .dispatch import admitter, dispatch
from .evaluate import evaluate
from .models import Candidate, CycleTrace, Evaluation, Query
from .query import (
    defined_names,
    modules_of_named_tests,
    named_modules,
    said_phrases,
    unknown_identifiers_as_words,
)
from .refine import HIGH, find_gaps, focus_areas, refine
from .relevance import Roles, assign, ranked
from .run import Cancelled, Report, Run
from .search import concept_hits, folder_names, modules_named

__all__ = ["Cancelled", "Report", "run_loop"]

STOP_COUNT = 3
GOOD_ENOUGH = "good enough"
"""How a stop reason that meets the pattern's rule begins."""
NOTHING_NEW = "nothing new to learn"
"""How the stop reason begins when a cycle learned nothing to search next."""
RESOLVED_MAX = 12
"""Definitions of the implementing files' names looked up after the last cycle, at most."""


def run_loop(run: Run, query: Query, max_cycles: int, excluded: set[str] | None = None
             ) -> tuple[list[Evaluation], list[CycleTrace]]:
    """Run the cycles; return every evaluated file (best relevance first) and the trace.
    `excluded`: paths the caller never wants (never candidates, never handed out)."""
    best: dict[str, Evaluation] = {}
    excluded = set(excluded or ())
    trace: list[CycleTrace] = []
    roles = Roles()

    def known(term: str) -> bool:
        return bool(run.search.search(run.index, term))

    def definers(name: str) -> int:
        defs = run.index.definitions([name.lower()]).get(name.lower(), ())
        return len({fid for fid, sym in defs if sym.name == name})

    query = said_phrases(unknown_identifiers_as_words(query, known), known)
    query = defined_names(query, definers, lambda: folder_names(run.index))
    query = named_modules(query, lambda w: modules_named(run.index, w))
    query = modules_of_named_tests(query, lambda p: _kind_matches(run, p, "test"),
                                   lambda p: _kind_matches(run, p, "source"))
    if query.keywords != run.task_concepts:
        run = replace(run, task_concepts=query.keywords)
    for cycle in range(1, max_cycles + 1):
        run.check()
        run.report(f"cycle {cycle}/{max_cycles}: dispatching", cycle, max_cycles)
        cands = dispatch(run, query, excluded)
        if not cands and query.fallback:
            # nothing in the code matches what the task names: its generic words are what is left
            query = replace(query, keywords=query.keywords + query.fallback, fallback=())
            run = replace(run, task_concepts=query.keywords, guess=True)
            cands = dispatch(run, query, excluded)
        run.check()
        run.report(f"cycle {cycle}/{max_cycles}: evaluating {len(cands)} candidates", cycle,
                   max_cycles)
        _merge(best, evaluate(run, query, cands, cycle))
        run.check()
        merged, roles = _judge(run, best)
        gaps = find_gaps(merged, run.task_concepts,
                         # noqa: B023 - find_gaps calls it at once, in this cycle
                         lambda c: bool(concept_hits(run.index, c, run.search)),  # noqa: B023
                         query.include_tests)
        high = [e for e in merged if e.relevance >= HIGH]
        entry = CycleTrace(
            cycle=cycle, query=query, candidates=len(cands), kept=len(high), excluded=[],
            learned=[], gaps=gaps.critical + gaps.weak,
            ranking=[e.path for e in ranked(merged)[:20]],
        )
        trace.append(entry)
        # REFINE runs on the last cycle too: the words the codebase uses for the task are part
        # of the answer (an agent asks again in them), even when no further cycle needs them
        run.report(f"cycle {cycle}/{max_cycles}: refining", cycle, max_cycles)
        focus = focus_areas(roles.uses, set(best))
        ref = refine(run, query, merged, focus, gaps, excluded)
        entry.learned = ref.learned
        entry.excluded = ref.excluded
        if len(high) >= STOP_COUNT and not gaps.critical and (
                cycle > 1 or not ref.learned or _names_files(query)):
            entry.stop_reason = f"{GOOD_ENOUGH}: {len(high)} files >= {HIGH} and no critical gap"
            break
        if cycle == max_cycles:
            entry.stop_reason = "max cycles reached"
            break
        excluded.update(ref.excluded)
        for p in ref.excluded:
            best.pop(p, None)
        if not ref.learned and not ref.focus and query.patterns == ref.query.patterns:
            entry.stop_reason = NOTHING_NEW
            break
        query = ref.query
        if ref.task_concepts != run.task_concepts:
            run = replace(run, task_concepts=ref.task_concepts, superseded=ref.superseded)
    _say_why_nothing(best, trace, query)
    if _resolve(run, query, best, roles, excluded, len(trace)):
        merged, roles = _judge(run, best)
    return ranked(list(best.values())), trace


def _kind_matches(run: Run, path: str, kind: str) -> list[str]:
    """The indexed files of `kind` a path the task mentions matches."""
    files = run.search.all_files(run.index)
    return [row.path for fid in run.search.path_matches(run.index, path)
            if (row := files.get(fid)) is not None and row.kind == kind]


def _say_why_nothing(best: dict[str, Evaluation], trace: list[CycleTrace], query: Query) -> None:
    """When no file was found, whatever stopped the loop, its stop reason says why, for a user
    to reword the task: it gave nothing to search (a task in a script the code does not write,
    only filler words), or nothing in scope says it."""
    if best or not trace:
        return
    why = ("the task holds no word or name to search for" if not query.keywords
           else "no file in scope says the task's words")
    trace[-1].stop_reason += f": {why}"


def _names_files(query: Query) -> bool:
    """The task names its files (paths, stack frames): what the codebase calls things adds
    little, so the first cycle may be enough; otherwise the words REFINE learned are searched
    once before the loop stops (the pattern's cycle 2)."""
    return any(c.kind in ("path", "frame") for c in query.keywords)


def _merge(best: dict[str, Evaluation], evals: list[Evaluation]) -> None:
    """Keep each file's best own evidence, and the cycle that first found it."""
    for ev in evals:
        prev = best.get(ev.path)
        if prev is None:
            best[ev.path] = ev
        elif ev.score > prev.score:
            best[ev.path] = replace(ev, cycle=prev.cycle)


def _judge(run: Run, best: dict[str, Evaluation]) -> tuple[list[Evaluation], Roles]:
    merged = sorted(best.values(), key=lambda e: e.score, reverse=True)
    return merged, assign(run, merged)


def _resolve(run: Run, query: Query, best: dict[str, Evaluation], roles: Roles,
             excluded: set[str], cycle: int) -> bool:
    """Evaluate the files that define what the implementing files use, when no cycle did, and
    the pinned files no cycle found; True when any was added."""
    by_path = run.search.by_path or {}
    files = run.files()
    admit = admitter(run, query, excluded)
    pending: list[str] = []
    for use in sorted(roles.uses, key=lambda u: -u.weight):
        for p in use.definers:
            if p not in best and p not in pending and p in by_path and admit(files[by_path[p]]):
                pending.append(p)
    pending = pending[:RESOLVED_MAX]
    pinned = [p for p in run.pinned if p not in best and p not in pending and p in by_path]
    if not pending and not pinned:
        return False
    cands = [Candidate(p, by_path[p], sources={"focus"}) for p in pending]
    cands += [Candidate(p, by_path[p], sources={"pinned"}) for p in pinned]
    _merge(best, evaluate(run, query, cands, cycle))
    return True
