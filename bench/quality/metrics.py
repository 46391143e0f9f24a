"""Pure scoring functions: rankings against gold files, regions against gold lines, summaries.

A ranking is a list of relative paths, best first. A region is a (path, start_line, end_line)
triple with 1-based inclusive lines. Nothing here reads files or keeps state.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

KS = (1, 3, 5, 10)
Region = tuple[str, int, int]


def gold_ranks(ranking: Sequence[str], gold: Iterable[str]) -> dict[str, int | None]:
    """1-based rank of each gold path in the ranking (None when absent)."""
    pos: dict[str, int] = {}
    for i, p in enumerate(ranking, 1):
        pos.setdefault(p, i)
    return {g: pos.get(g) for g in gold}


def recall_at(ranking: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Share of the gold files found in the top k."""
    gold = set(gold)
    if not gold:
        return 0.0
    return len(gold & set(ranking[:k])) / len(gold)


def reciprocal_rank(ranking: Sequence[str], gold: Iterable[str]) -> float:
    """1 / rank of the first gold file (0 when none is ranked)."""
    gold = set(gold)
    for i, p in enumerate(ranking, 1):
        if p in gold:
            return 1.0 / i
    return 0.0


def all_in_top(ranking: Sequence[str], gold: Iterable[str], k: int) -> float:
    """1.0 when every gold file is in the top k, else 0.0."""
    gold = set(gold)
    return float(bool(gold) and gold <= set(ranking[:k]))


def ranking_metrics(ranking: Sequence[str], gold: Iterable[str]) -> dict[str, float]:
    """R@1/3/5/10, MRR and Acc@5 of one ranking."""
    gold = list(gold)
    out = {f"R@{k}": recall_at(ranking, gold, k) for k in KS}
    out["MRR"] = reciprocal_rank(ranking, gold)
    out["Acc@5"] = all_in_top(ranking, gold, 5)
    return out


def gold_line_set(gold_lines: dict[str, Sequence[Sequence[int]]]) -> set[tuple[str, int]]:
    """Every (path, line) inside the gold line ranges."""
    out: set[tuple[str, int]] = set()
    for path, ranges in gold_lines.items():
        for start, end in ranges:
            out.update((path, n) for n in range(start, end + 1))
    return out


def region_line_set(regions: Iterable[Region]) -> set[tuple[str, int]]:
    """Every (path, line) covered by the regions (overlaps counted once)."""
    out: set[tuple[str, int]] = set()
    for path, start, end in regions:
        out.update((path, n) for n in range(start, end + 1))
    return out


def line_recall(
    gold_lines: dict[str, Sequence[Sequence[int]]], regions: Iterable[Region]
) -> float | None:
    """Share of the gold lines covered by the regions (None when the task lists no gold lines)."""
    gold = gold_line_set(gold_lines)
    if not gold:
        return None
    return len(gold & region_line_set(regions)) / len(gold)


def lines_sent(regions: Iterable[Region]) -> int:
    """Distinct lines the regions hand out."""
    return len(region_line_set(regions))


def high_precision_counts(
    files: Iterable[tuple[str, float]], gold: Iterable[str], threshold: float = 0.7
) -> tuple[int, int]:
    """(gold files, all files) among the (path, relevance) pairs at or above the threshold."""
    gold = set(gold)
    high = [p for p, rel in files if rel >= threshold]
    return sum(1 for p in high if p in gold), len(high)


STOP_KINDS = ("enough", "max cycles", "nothing new", "other")


def stop_kind(reason: str) -> str:
    """The kind of a trace's stop reason: the pattern's "good enough" stop, the cycle limit,
    a cycle that learned nothing, or anything else (cancelled, empty)."""
    r = reason.lower()
    if "no critical gap" in r or "good enough" in r:
        return "enough"
    if "max cycles" in r:
        return "max cycles"
    if "nothing new" in r:
        return "nothing new"
    return "other"


def ranking_at_cycle(rankings: Sequence[Sequence[str]], cycle: int) -> Sequence[str]:
    """The ranking after `cycle` (1-based); a loop that stopped earlier keeps its last ranking."""
    if not rankings:
        return []
    return rankings[min(cycle, len(rankings)) - 1]


def pack_whole_files(
    ranking: Sequence[str], sizes: dict[str, tuple[int, int]], budget_tokens: int,
    lines_in_prefix: Callable[[str, int], int], chars_per_token: int = 4,
) -> tuple[list[Region], int]:
    """Send ranked files whole until the budget (tokens = chars / 4) is spent.

    `sizes` maps path → (characters, lines); `lines_in_prefix(path, n)` counts the complete
    lines within a file's first n characters. The file that crosses the budget is cut to those
    lines. Returns the regions and the characters they hold.
    """
    left = budget_tokens * chars_per_token
    out: list[Region] = []
    used = 0
    for p in ranking:
        if left <= 0:
            break
        chars, lines = sizes.get(p, (0, 0))
        if lines <= 0:
            continue
        if chars <= left:
            out.append((p, 1, lines))
            left -= chars
            used += chars
            continue
        n = lines_in_prefix(p, left)
        if n > 0:
            out.append((p, 1, n))
        used += left
        left = 0
    return out, used


def mean(xs: Iterable[float | None]) -> float | None:
    """Mean of the values that are not None (None when there are none)."""
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


def percentile(xs: Iterable[float], q: float) -> float | None:
    """The q-th percentile (0..100), linear between closest ranks; None for no values."""
    vals = sorted(xs)
    if not vals:
        return None
    pos = (len(vals) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(vals) - 1)
    return vals[lo] + (vals[hi] - vals[lo]) * (pos - lo)


def median(xs: Iterable[float]) -> float | None:
    return percentile(xs, 50)
