"""Calibration: turn each file's own evidence into a relevance that means what the bands say.

EVALUATE scores every file on its own (`Evaluation.score`). Whether a file is *the* one a task
needs depends as much on its rivals: a file far ahead of the rest is a safe bet, one of five
near-equals is not. On the development benchmark a file's raw score says little once its place in
the run is known; three facts of the run predict it well, and generalise across repositories
(fitted leaving one repository out; docs/benchmarks.md):

- how far the file's score lies below the best one's (log-odds),
- its rank,
- the largest drop in score at or below it among the first few files: a file above a clear
  break stands out with those before it (a run of fewer files ends at FLOOR).

Fitted on the 195 development tasks and 145 tasks mined from five other repositories (JS, TS,
Rust, Python; bench/quality/mine.py), leaving one repository out at a time: files at ≥ 0.7 were
the changed file .71 of the time over the nine repositories.

The logistic model gives the chance that the file is one the task's change touches. Relevance
is that chance raised to `SPREAD`, so that ≥ 0.7 means better than even odds, while the related
files after the first keep the middle and low bands instead of all falling under 0.2.

A *group* of at least three files that together stand clearly above the rest (the drop below
them large against their own spread) is a feature spread over several files: its members keep
their own scores, as in the pattern's worked examples (four auth files, three throttle files).
"""

from __future__ import annotations

import math

from .models import Evaluation

BIAS = -0.69
W_BELOW_BEST = 0.36
W_LOG_RANK = -0.97
W_DROP = 0.39
DROP_WINDOW = 6
"""The break that sets a file apart is looked for among the first files only."""
FLOOR = -1.386
"""log-odds of 0.2, the irrelevant band's edge: where a run with fewer than DROP_WINDOW files ends."""
SPREAD = 0.6
GROUP_MIN = 3
GROUP_DROP = 0.8
"""A group stands out when the drop below it is ≥ this × (its own spread in log-odds + 1)."""
GROUP_FLOOR = 0.5
"""…and its weakest member's own score is at least this in log-odds (≈ 0.62)."""


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def calibrate(evals: list[Evaluation], ceiling: float = 1.0) -> None:
    """Set `relevance` of evaluations ordered best first by `score`; the order is kept.

    `ceiling` scales every relevance: a run that found its files through the task's generic words
    alone (query.W_GENERIC) has guesses, however well they rank against each other.
    """
    if not evals:
        return
    zs = [logit(e.score) for e in evals]
    top = zs[0]
    n = len(zs)
    # a short run ends at what a file that is no candidate would score: a lone strong file then
    # stands out as far as it does above the rest of the repository
    padded = zs + [min(zs[-1], FLOOR)] if n < DROP_WINDOW else zs
    rel: list[float] = []
    for i, z in enumerate(zs):
        drops = [padded[j] - padded[j + 1] for j in range(i, min(DROP_WINDOW, len(padded) - 1))]
        x = BIAS + W_BELOW_BEST * (z - top) + W_LOG_RANK * math.log1p(i) + W_DROP * max(drops, default=0.0)
        rel.append((1.0 / (1.0 + math.exp(-x))) ** SPREAD)
    group = _group_end(zs)
    for i in range(group):
        rel[i] = max(rel[i], evals[i].score)
    for i in range(1, n):  # never above a better-evidenced file
        rel[i] = min(rel[i], rel[i - 1])
    for e, r in zip(evals, rel):
        e.relevance = round(r * ceiling, 3)


def _group_end(zs: list[float]) -> int:
    """Size of the leading group that stands clearly above the rest (0 when none)."""
    best = 0
    for j in range(GROUP_MIN - 1, min(DROP_WINDOW, len(zs) - 1)):
        drop, spread = zs[j] - zs[j + 1], zs[0] - zs[j]
        if drop >= GROUP_DROP * (spread + 1.0) and zs[j] >= GROUP_FLOOR:
            best = j + 1
    return best
