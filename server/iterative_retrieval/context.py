"""Context: choose the files to hand out and the code regions of each, within a token budget.

Regions are the definitions that matched the task and windows around matched lines, merged where
they overlap. Files ≥ 0.7 come first, then the best of the rest; the budget is spent in rank
order, each file's most telling region first, so a small budget still shows every top file.
"""

from __future__ import annotations

from collections.abc import Callable

from .models import Evaluation, FileResult, Region

CHARS_PER_TOKEN = 4
WINDOW = 6
MAX_DEF_LINES = 120
MIN_RELEVANCE = 0.2
HEADER_LINES = 12
WHOLE_FILE_LINES = 150


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // CHARS_PER_TOKEN)


def select(evals: list[Evaluation], max_files: int, high: float = 0.7) -> list[Evaluation]:
    """Files ≥ `high` first (all of them, up to the limit), then the best of the rest above 0.2."""
    ranked = [e for e in evals if e.relevance >= MIN_RELEVANCE]
    top = [e for e in ranked if e.relevance >= high]
    rest = [e for e in ranked if e.relevance < high]
    return (top + rest)[:max_files]


def spans_for(ev: Evaluation, n_lines: int) -> list[tuple[int, int, str]]:
    """Candidate (start, end, why) spans of one file, most telling first."""
    if n_lines <= WHOLE_FILE_LINES and ev.relevance >= 0.5:
        return [(1, n_lines, "whole file")]  # a short relevant file is clearer whole
    spans: list[tuple[int, int, str]] = []
    for s in ev.hit_symbols:
        end = min(s.end_line, s.start_line + MAX_DEF_LINES - 1, n_lines)
        spans.append((s.start_line, max(end, s.start_line), f"{s.kind} {s.name}"))
    covered = [(a, b) for a, b, _ in spans]
    for ln in ev.hit_lines:
        if any(a <= ln <= b for a, b in covered):
            continue
        a, b = max(1, ln - WINDOW), min(n_lines, ln + WINDOW)
        spans.append((a, b, "matched lines"))
        covered.append((a, b))
    if not spans:
        spans.append((1, min(n_lines, HEADER_LINES * 3), "file start"))
    return spans


def merge_spans(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for a, b, why in sorted(spans):
        if out and a <= out[-1][1] + 1:
            pa, pb, pw = out[-1]
            out[-1] = (pa, max(pb, b), pw if why == pw else f"{pw}; {why}")
        else:
            out.append((a, b, why))
    return out


def build_context(
    evals: list[Evaluation],
    budget: int,
    read_text: Callable[[Evaluation], str | None],
) -> list[FileResult]:
    """Pack regions of the selected files into the budget, in rank order."""
    # keyed by evaluation, not path: two roots may hold the same relative path
    lines_of: dict[int, list[str]] = {}
    spans_of: dict[int, list[tuple[int, int, str]]] = {}
    for ev in evals:
        text = read_text(ev)
        lines = text.splitlines() if text is not None else []
        lines_of[id(ev)] = lines
        spans_of[id(ev)] = spans_for(ev, len(lines)) if lines else []
    chosen: dict[int, list[tuple[int, int, str]]] = {id(ev): [] for ev in evals}
    remaining = budget
    # round 1: each file's best span; round 2+: the rest, in rank order
    rounds = max((len(s) for s in spans_of.values()), default=0)
    for r in range(rounds):
        for ev in evals:
            spans = spans_of[id(ev)]
            if r >= len(spans):
                continue
            a, b, why = spans[r]
            lines = lines_of[id(ev)]
            cost = _cost(lines, a, b)
            if cost > remaining:
                if r == 0 and remaining > 40:
                    b = _fit(lines, a, b, remaining)
                    cost = _cost(lines, a, b)
                else:
                    continue
            chosen[id(ev)].append((a, b, why))
            remaining -= cost
        if remaining <= 0:
            break
    results = []
    for ev in evals:
        lines = lines_of[id(ev)]
        regions = [
            Region(a, b, "\n".join(lines[a - 1 : b]), why)
            for a, b, why in merge_spans(chosen[id(ev)])
        ]
        results.append(
            FileResult(ev.path, ev.relevance, ev.reason, ev.missing, ev.cycle, regions)
        )
    return results


def _cost(lines: list[str], a: int, b: int) -> int:
    return estimate_tokens("\n".join(lines[a - 1 : b])) + 8


def _fit(lines: list[str], a: int, b: int, budget: int) -> int:
    """The largest end line ≤ b whose span fits the budget (binary search)."""
    lo, hi = a, b
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _cost(lines, a, mid) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo
