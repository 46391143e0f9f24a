"""Context: choose the files to hand out and the code regions of each, within a token budget.

Regions are the definitions the task names and the passages where its words cluster, densest
first, merged where they overlap; a short relevant file goes whole. Files ≥ 0.7 come first, then
the best of the rest; the budget is spent in rank order, each file's most telling region first,
so a small budget still shows every top file.
"""

from __future__ import annotations

from collections.abc import Callable

from .lines import split_lines
from .models import Evaluation, FileResult, Region
from .redact import redact_text
from .textmemo import TextMemo

_redacted = TextMemo(redact_text)
"""A file's redacted text, between retrievals too: the same top files come back often."""

CHARS_PER_TOKEN = 4
MAX_DEF_LINES = 120
MIN_RELEVANCE = 0.2
HEADER_LINES = 36
WHOLE_FILE_LINES = 400
"""A relevant file this short is clearer whole than in pieces."""
CLUSTER_GAP = 4
"""Hit lines this close belong to one passage."""
MAX_RUN = 50
"""…so that a word repeated every few lines does not chain a whole file into one passage."""
CLUSTER_PAD = 3
ENCLOSING_MAX = 80
"""A passage inside a definition this short shows the whole definition."""
DENSITY_EXP = 0.3
"""Passages rank by worth / length ** this: dense ones first, long ones not crushed."""


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // CHARS_PER_TOKEN)


def select(evals: list[Evaluation], max_files: int, high: float = 0.7) -> list[Evaluation]:
    """Files ≥ `high` first (all of them, up to the limit), then the best of the rest above 0.2."""
    ranked = [e for e in evals if e.relevance >= MIN_RELEVANCE]
    top = [e for e in ranked if e.relevance >= high]
    rest = [e for e in ranked if e.relevance < high]
    return (top + rest)[:max_files]


def spans_for(ev: Evaluation, n_lines: int) -> list[tuple[int, int, str]]:
    """Candidate (start, end, why) spans of one file, most telling first.

    Definitions the task names come first, then passages: runs of hit lines, widened to a short
    enclosing definition, ranked by what their distinct task words are worth per line, so that
    the budget goes to the dense passages a fix usually touches rather than to every mention.
    """
    if n_lines <= WHOLE_FILE_LINES and ev.relevance >= 0.5:
        return [(1, n_lines, "whole file")]
    spans: list[tuple[int, int, str]] = []
    named = set(ev.defines)
    for s in ev.symbols:
        if s.name in named:
            end = min(s.end_line, s.start_line + MAX_DEF_LINES - 1, n_lines)
            spans.append((s.start_line, max(end, s.start_line), f"defines {s.name}"))
    passages = []
    for a, b, worth in _clusters(ev):
        inner = _enclosing(ev, a, b)
        if inner is not None:
            a, b = inner.start_line, min(inner.end_line, n_lines)
            why = f"{inner.kind} {inner.name}"
        else:
            a, b = max(1, a - CLUSTER_PAD), min(n_lines, b + CLUSTER_PAD)
            why = "matched lines"
        passages.append((worth / (b - a + 1) ** DENSITY_EXP, a, b, why))
    passages.sort(key=lambda t: -t[0])
    spans += [(a, b, why) for _, a, b, why in passages]
    if not spans:
        spans.append((1, min(n_lines, HEADER_LINES), "file start"))
    return spans


def _clusters(ev: Evaluation) -> list[tuple[int, int, float]]:
    """Runs of hit lines at most CLUSTER_GAP apart (and at most MAX_RUN long), worth the sum of
    their distinct stems: a word said on every line of a run counts once."""
    runs: list[tuple[int, int, set[str]]] = []
    terms = ev.hit_terms or [()] * len(ev.hit_lines)
    for ln, said in sorted(zip(ev.hit_lines, terms)):
        if runs and ln - runs[-1][1] <= CLUSTER_GAP and ln - runs[-1][0] <= MAX_RUN:
            runs[-1] = (runs[-1][0], ln, runs[-1][2] | set(said))
        else:
            runs.append((ln, ln, set(said)))
    w = ev.term_weights
    return [(a, b, sum(w.get(t, 1.0) for t in said) or 1.0) for a, b, said in runs]


def _enclosing(ev: Evaluation, a: int, b: int):
    """The shortest definition around lines a..b, when it is short enough to show whole."""
    best = None
    for s in ev.symbols:
        if s.start_line <= a and b <= s.end_line and s.end_line - s.start_line < ENCLOSING_MAX:
            if best is None or s.end_line - s.start_line < best.end_line - best.start_line:
                best = s
    return best


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
    redact: bool = True,
) -> list[FileResult]:
    """Pack regions of the selected files into the budget, in rank order.

    With `redact`, credential-looking strings are masked in the whole file before any region is
    cut from it (so a key block that starts above a region is still recognised); line numbers
    do not move.
    """
    # keyed by evaluation, not path: two roots may hold the same relative path
    lines_of: dict[int, list[str]] = {}
    spans_of: dict[int, list[tuple[int, int, str]]] = {}
    for ev in evals:
        text = read_text(ev)
        if text is not None and redact:
            text = _redacted(text)
        lines = split_lines(text) if text is not None else []
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
