"""Context: choose the files to hand out and the code regions of each, within a token budget.

Every file of the indirect band or above is handed out, best first, up to max_files; the token
budget decides how much of each is shown. Regions follow the file's role (spans_for): the
implementing files' named definitions and the passages where the task's words meet in code
(more than in comments and docstrings), the related files' definitions that
the implementing files use, the indirect files' signature lines; merged where they overlap.
The budget is spent in rank order, each file's most telling region first, so a small budget
still shows every top file; the lines the files' shares leave of LINES_TARGET then go to the
spans the shares cut or skipped, in rank order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from .config import DEFAULT_BUDGET_TOKENS
from .languages.detect import language_for
from .languages.outline import prose_lines
from .lines import split_lines
from .models import Evaluation, FileResult, Query, Region, Symbol
from .redact import redact_text
from .relevance import IMPLEMENTS, RELATED_SCORE
from .textmemo import TextMemo

_redacted = TextMemo(redact_text)
"""A file's redacted text, between retrievals too: the same top files come back often."""

CHARS_PER_TOKEN = 4
LONG_DEF = 200
DEF_HEAD_LINES = 12
"""A definition the task names shows whole, unless it is this long (a class of many methods):
then only its first DEF_HEAD_LINES, and the passages show where the task's words meet inside."""
MIN_RELEVANCE = 0.2
HEADER_LINES = 36
WHOLE_FILE_LINES = 400
"""The first file handed out, with evidence of its own and this short, is clearer whole…"""
HEAD_WHOLE_LINES = 150
"""…and the next head files this short."""
CONTEXT_WHOLE_LINES = 40
"""…and a file that is context only through its links, this short."""
HEAD_FILES = 3
"""The first files handed out show every span worth reading; the rest, a pointer each…"""
HEAD_LINES = (400, 180, 110)
"""…up to this many lines for the first, second and third file (a span that would pass it is
skipped for a shorter one): the budget goes where a fix most likely is. A file further down
that implements what the task names is shown as the third is."""
TAIL_LINES = 8
LINES_TARGET = 570
"""A context reads at about this many lines: what the files' shares leave of it (short files
shown whole, few passages) goes, in rank order, to the spans their shares cut or skipped…"""
TOP_UP_LINES = 150
"""…at most this many more lines to one file, so that the next files get some too."""
CONTEXT_SPANS = 2
"""A context-only file shows at most this many spans: the definitions used, else its passages."""
SIGNATURES = 8
"""An indirect file shows at most this many signature lines."""
PASSAGE_LINES = 5
"""…or a passage of at most this many lines, when no definition of it carries the task's words."""
CLUSTER_GAP = 4
"""Hit lines this close belong to one passage."""
MAX_RUN = 50
"""…so that a word repeated every few lines does not chain a whole file into one passage."""
CLUSTER_PAD = 3
ENCLOSING_MAX = 80
"""A passage inside a definition this short shows the whole definition."""
BRIDGE_GAP = 3
"""Two regions of a file this few lines apart are shown as one (the budget allowing): a reader
should not miss the line between two passages."""
DENSITY_EXP = 0.3
"""Passages rank by worth / length ** this: dense ones first, long ones not crushed."""
PROSE_WORTH = 0.25
"""A word a passage says only in comments or docstrings counts this much of its worth: a task's
words fill a long file's doc examples, and a fix changes code (docs/design.md, "Context", has
the figures)."""


FRAME_PAD = 20
"""A frame's line is shown with this many lines either side, when its definition is longer."""


def frames_in(query: Query, evals: list[Evaluation],
              matches: Callable[[str], Collection[int]]) -> None:
    """Set each evaluation's `frames`: the task's frames that name its file (`matches`: the
    ids of the files a frame's path names), nearest the error first."""
    weight = {c.text: c.weight for c in query.keywords if c.kind == "frame"}
    frames = sorted(query.frames, key=lambda fr: -weight.get(fr.path, 0.0))
    ids = {fr.path: set(matches(fr.path)) for fr in frames}
    for ev in evals:
        ev.frames = [fr for fr in frames if ev.file_id in ids[fr.path]]


def _frame_spans(ev: Evaluation, n_lines: int) -> list[tuple[int, int, str]]:
    """Where each of the task's frames in this file points: the definition it names (or that
    holds its line) when short, else its line and FRAME_PAD lines either side. A frame from the
    reporter's version of the file may point a few lines off: the named definition comes
    first."""
    out: list[tuple[int, int, str]] = []
    for fr in ev.frames:
        named = [s for s in ev.symbols if fr.function and s.name == fr.function]
        line = fr.line if fr.line and fr.line <= n_lines else None
        holds = [s for s in named or ev.symbols
                 if line is not None and s.start_line <= line <= s.end_line]
        sym = min(holds, key=lambda s: s.end_line - s.start_line) if holds else (
            named[0] if named else None)
        where = f"frame {fr.path.rsplit('/', 1)[-1]}:{fr.line}" if fr.line else "frame"
        if sym is not None and sym.end_line - sym.start_line < ENCLOSING_MAX:
            out.append((sym.start_line, min(sym.end_line, n_lines), f"{where} in {sym.name}"))
        elif line is not None:
            out.append((max(1, line - FRAME_PAD), min(n_lines, line + FRAME_PAD), where))
        elif sym is not None:
            out.append((sym.start_line, min(sym.start_line + 2 * FRAME_PAD, n_lines),
                        f"{where} in {sym.name}"))
    return out


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // CHARS_PER_TOKEN)


def select(evals: list[Evaluation], max_files: int, pinned: frozenset[int] | set[int] = frozenset()
           ) -> list[Evaluation]:
    """Every file of the indirect band or above, in order (evals: best relevance first), up to
    `max_files`: the budget, not the count, decides how much of each is shown. The pinned
    (`id`s of evaluations) are always in, in their own place, and take room from the others."""
    pins = [e for e in evals if id(e) in pinned]
    room = max(max_files - len(pins), 0)
    rest = [e for e in evals if id(e) not in pinned and e.relevance >= MIN_RELEVANCE][:room]
    keep = {id(e) for e in pins + rest}
    return [e for e in evals if id(e) in keep]


def spans_for(ev: Evaluation, n_lines: int, place: int = 0, scale: float = 1.0,
              prose: frozenset[int] = frozenset()) -> list[tuple[int, int, str]]:
    """Candidate (start, end, why) spans of one file, most telling first.

    Only the first goes whole up to WHOLE_FILE_LINES (`place` counts from 0); a budget `scale`
    times larger than the default asks that much more of every file.

    A file with evidence of its own (it implements what the task names, or says enough of it)
    shows what a fix touches: short, the whole of it; else the definitions the task names or
    the implementing files use, then passages — runs of hit lines, widened to a short enclosing
    definition, ranked by what their distinct task words are worth per line — with the
    definitions named after what the task names (a printer's `_print_Poly`) after the best
    passage. A file that is context only through its links shows the definitions the
    implementing files use; an indirect file its best passage, or the signature lines of its
    telling definitions.
    `prose`: the file's lines of only comments or strings (languages.outline.prose_lines), where
    words count less.
    """
    whole = int((WHOLE_FILE_LINES if place == 0 else HEAD_WHOLE_LINES) * scale)
    return _spans(ev, n_lines, whole, prose)


def _is_head(ev: Evaluation, place: int, scale: float) -> bool:
    """Only the first HEAD_FILES handed out, and the files further down that implement what the
    task names, show every span within their share; a later file shows its most telling span
    (cut to TAIL_LINES), as a pointer the reader can follow."""
    return place < HEAD_FILES * scale or ev.role == IMPLEMENTS.role


def _spans(ev: Evaluation, n_lines: int, whole: int, prose: frozenset[int]
           ) -> list[tuple[int, int, str]]:
    evidence = ev.role == IMPLEMENTS.role or ev.score >= RELATED_SCORE
    if ev.role == "indirect" and not evidence:
        return _signatures(ev, n_lines, prose)
    if evidence and n_lines <= whole:
        return [(1, n_lines, "whole file")]
    if not evidence and n_lines <= CONTEXT_WHOLE_LINES:
        return [(1, n_lines, "whole file")]
    spans: list[tuple[int, int, str]] = _frame_spans(ev, n_lines) if evidence else []
    named = set(ev.defines) | set(ev.used_by)
    # a printer's `_print_Poly` for the task's `Poly`: after the best passage, which says more
    # of the task than a name does
    after = set(ev.named_after) - named if evidence else set()
    later: list[tuple[int, int, str]] = []
    for sym in ev.symbols:
        if sym.name in named or sym.name in after:
            # a long definition (a class of many methods) shows its head: the passages show
            # where in it the task's words meet
            long = sym.end_line - sym.start_line >= LONG_DEF
            end = min(sym.start_line + DEF_HEAD_LINES - 1 if long else sym.end_line, n_lines)
            (spans if sym.name in named else later).append(
                (sym.start_line, max(end, sym.start_line), f"defines {sym.name}"))
    if not evidence and spans:
        return spans[:CONTEXT_SPANS]
    passages = []
    for a, b, worth in _clusters(ev, prose):
        inner = _enclosing(ev, a, b)
        if inner is not None:
            a, b = inner.start_line, min(inner.end_line, n_lines)
            why = f"{inner.kind} {inner.name}"
        else:
            a, b = max(1, a - CLUSTER_PAD), min(n_lines, b + CLUSTER_PAD)
            why = "matched lines"
        passages.append((worth / (b - a + 1) ** DENSITY_EXP, a, b, why))
    passages.sort(key=lambda t: -t[0])
    ranked = [(a, b, why) for _, a, b, why in passages]
    first = spans + ranked[:1]  # (a definition inside these is shown with them)
    later = [t for t in later if not any(x <= t[0] and t[1] <= y for x, y, _ in first)]
    spans += ranked[:1] + later + ranked[1:]
    if not evidence:
        spans = spans[:CONTEXT_SPANS]
    if not spans:
        spans.append((1, min(n_lines, HEADER_LINES), "file start"))
    return spans


def _signatures(ev: Evaluation, n_lines: int, prose: frozenset[int]
                ) -> list[tuple[int, int, str]]:
    """One-line spans: the first lines of the definitions that carry the task's words; else its
    densest passage, which says why the file is here (a file's first definitions did not: held-out
    LineRecall up to +.04, the development set −.001); else the first lines of its first
    definitions."""
    telling = set(ev.defines) | set(ev.named) | set(ev.used_by)
    lines = _starts([sym for sym in ev.symbols if sym.name in telling], n_lines)
    if lines:
        return [(ln, ln, "signature") for ln in lines]
    runs = _clusters(ev, prose)
    if runs:
        a, b, _ = max(runs, key=lambda t: t[2] / (t[1] - t[0] + 1) ** DENSITY_EXP)
        start = max(1, a - 1)
        return [(start, min(n_lines, b + 1, start + PASSAGE_LINES - 1), "matched lines")]
    lines = _starts(ev.symbols, n_lines)
    if lines:
        return [(ln, ln, "signature") for ln in lines]
    return [(1, min(n_lines, SIGNATURES), "file start")]


def _starts(syms: Sequence[Symbol], n_lines: int) -> list[int]:
    """The first lines of these definitions, the first SIGNATURES of them."""
    return sorted({sym.start_line for sym in syms if sym.start_line <= n_lines})[:SIGNATURES]


def _clusters(ev: Evaluation, prose: frozenset[int]) -> list[tuple[int, int, float]]:
    """Runs of hit lines at most CLUSTER_GAP apart (and at most MAX_RUN long), worth the sum of
    their distinct stems: a word said on every line of a run counts once, and a word said only
    on its `prose` lines PROSE_WORTH of its weight."""
    runs: list[tuple[int, int, set[str], set[str]]] = []
    terms = ev.hit_terms or [()] * len(ev.hit_lines)
    for ln, said in sorted(zip(ev.hit_lines, terms, strict=False)):
        code = set() if ln in prose else set(said)
        if runs and ln - runs[-1][1] <= CLUSTER_GAP and ln - runs[-1][0] <= MAX_RUN:
            a, _, all_said, in_code = runs[-1]
            runs[-1] = (a, ln, all_said | set(said), in_code | code)
        else:
            runs.append((ln, ln, set(said), code))
    w = ev.term_weights
    return [(a, b, sum(w.get(t, 1.0) * (1.0 if t in in_code else PROSE_WORTH) for t in said)
             or 1.0) for a, b, said, in_code in runs]


def _enclosing(ev: Evaluation, a: int, b: int):
    """The shortest definition around lines a..b, when it is short enough to show whole."""
    best = None
    for s in ev.symbols:
        if s.start_line <= a and b <= s.end_line and s.end_line - s.start_line < ENCLOSING_MAX \
                and (best is None or s.end_line - s.start_line < best.end_line - best.start_line):
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
    # the shares are a default budget's: a larger budget is asked for more of every file
    scale = max(1.0, budget / DEFAULT_BUDGET_TOKENS)
    # keyed by evaluation, not path: two roots may hold the same relative path
    lines_of: dict[int, list[str]] = {}
    spans_of: dict[int, list[tuple[int, int, str]]] = {}
    every_span: dict[int, list[tuple[int, int, str]]] = {}
    for place, ev in enumerate(evals):
        text = read_text(ev)
        if text is not None and redact:
            text = _redacted(text)
        lines = split_lines(text) if text is not None else []
        lines_of[id(ev)] = lines
        spans = spans_for(ev, len(lines), place, scale, prose_lines(
            text or "", language_for(ev.path))) if lines else []
        every_span[id(ev)] = spans
        spans_of[id(ev)] = spans if _is_head(ev, place, scale) else spans[:1]
    chosen: dict[int, list[tuple[int, int, str]]] = {id(ev): [] for ev in evals}
    shown = {id(ev): 0 for ev in evals}
    cap = {id(ev): int(_share(i, ev) * scale) for i, ev in enumerate(evals)}
    remaining = budget
    # round 1: each file's best span; round 2+: the rest, in rank order
    rounds = max((len(s) for s in spans_of.values()), default=0)
    for r in range(rounds):
        for ev in evals:
            spans = spans_of[id(ev)]
            if r >= len(spans):
                continue
            a, b, why = spans[r]
            if shown[id(ev)] + b - a + 1 > cap[id(ev)]:
                if r > 0:
                    continue  # a later span that would pass the file's share: the next may fit
                b = a + cap[id(ev)] - 1  # a file's first span is cut to its share
            lines = lines_of[id(ev)]
            cost = _cost(lines, a, b)
            if cost > remaining:
                if r == 0 and remaining > 40:
                    b = _fit(lines, a, b, remaining)
                    cost = _cost(lines, a, b)
                else:
                    continue
            chosen[id(ev)].append((a, b, why))
            shown[id(ev)] += b - a + 1
            remaining -= cost
        if remaining <= 0:
            break
    remaining = _top_up(evals, chosen, every_span, lines_of, int(LINES_TARGET * scale),
                        int(TOP_UP_LINES * scale), remaining)
    results = []
    for ev in evals:
        lines = lines_of[id(ev)]
        spans, remaining = _bridged(merge_spans(chosen[id(ev)]), lines, remaining)
        regions = [Region(a, b, "\n".join(lines[a - 1 : b]), why) for a, b, why in spans]
        results.append(
            FileResult(ev.path, ev.relevance, ev.reason, ev.missing, ev.cycle, regions,
                       role=ev.role)
        )
    return results


def _top_up(evals: list[Evaluation], chosen: dict[int, list[tuple[int, int, str]]],
            every_span: dict[int, list[tuple[int, int, str]]], lines_of: dict[int, list[str]],
            target: int, per_file: int, remaining: int) -> int:
    """Spend what the shares left of the `target` lines on the spans they cut or skipped, file
    by file in rank order, at most `per_file` more lines to each (adds to `chosen`); returns
    the token budget left."""
    shown = {id(ev): {x for a, b, _ in chosen[id(ev)] for x in range(a, b + 1)} for ev in evals}
    room = target - sum(len(s) for s in shown.values())
    for ev in evals:
        if room <= 0:
            break
        have, more = shown[id(ev)], 0
        for a, b, why in every_span[id(ev)]:
            new = sum(1 for x in range(a, b + 1) if x not in have)
            if not new or new > room or more + new > per_file:
                continue
            cost = _cost(lines_of[id(ev)], a, b)
            if cost > remaining:
                continue
            chosen[id(ev)].append((a, b, why))
            have.update(range(a, b + 1))
            more += new
            room -= new
            remaining -= cost
    return remaining


def _bridged(spans: list[tuple[int, int, str]], lines: list[str], remaining: int
             ) -> tuple[list[tuple[int, int, str]], int]:
    """Merged spans with the gaps of at most BRIDGE_GAP lines between them filled, while the
    budget lasts; and what is left of it."""
    out: list[tuple[int, int, str]] = []
    for a, b, why in spans:
        if out and a - out[-1][1] - 1 <= BRIDGE_GAP:
            cost = _cost(lines, out[-1][1] + 1, a - 1) - 8  # the region's overhead is paid
            if cost <= remaining:
                pa, _, pw = out[-1]
                out[-1] = (pa, b, pw if why == pw else f"{pw}; {why}")
                remaining -= cost
                continue
        out.append((a, b, why))
    return out, remaining


def _share(place: int, ev: Evaluation) -> int:
    """The most lines a file's regions may take, by its place in the list (an implementing file
    further down keeps the last head file's share)."""
    if place < len(HEAD_LINES):
        return HEAD_LINES[place]
    return HEAD_LINES[-1] if ev.role == IMPLEMENTS.role else TAIL_LINES


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
