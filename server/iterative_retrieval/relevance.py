"""Relevance: each file's role for the task, from its own evidence and its links, in the pattern's bands.

- **implements** (0.8–1.0): its own evidence is strong (signals.py's score ≥ TARGET_SCORE): it is
  named in the task, defines what the task names, or its code and path carry the task's words.
- **related** (0.5–0.75): it defines a name an implementing file uses, or an implementing file
  imports it (the context a fix needs); or its own evidence is partial (score ≥ RELATED_SCORE).
- **indirect** (0.2–0.45): a caller (it imports an implementing file but says little of the
  task), a test, doc, config or example file, or a file with some evidence (score ≥
  INDIRECT_SCORE).
- **irrelevant** (below 0.2): REFINE excludes it, the context leaves it out.

A file takes the best role its evidence earns; inside the band, the strength of that evidence
places it. A file's rank among its rivals never moves it to another band, so "≥ 0.7" (the stop
rule) and "< 0.2" (the excludes) read the same on every run. The reason starts with the role.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .graph import Link, Use, definition_links, import_links, uses_of
from .models import Evaluation
from .run import Run


@dataclass(frozen=True)
class Band:
    """A role and the part of 0–1 it places files in."""

    role: str
    lo: float
    hi: float

    def place(self, strength: float) -> float:
        """The relevance of a file of this role whose evidence has `strength` (0–1)."""
        return round(self.lo + (self.hi - self.lo) * min(max(strength, 0.0), 1.0), 3)


IMPLEMENTS = Band("implements", 0.8, 1.0)
RELATED = Band("related", 0.5, 0.75)
INDIRECT = Band("indirect", 0.2, 0.45)
IRRELEVANT = Band("irrelevant", 0.0, 0.199)

TARGET_SCORE = 0.5
"""Own-evidence score from which a file implements what the task names."""
RELATED_SCORE = 0.2
"""…from which its own evidence alone makes it related."""
INDIRECT_SCORE = 0.05
"""…from which it is indirect; below it, irrelevant unless a link says otherwise."""
GUESS_CEILING = 0.6
"""A run that only the task's generic words found anything for hands out guesses: related at best."""

LINK_STRENGTH = {"defines": 0.6, "imported by": 0.35}
"""What a link to an implementing file is worth towards the top of the related band."""
EXTRA_LINK = 0.1
EXTRA_LINK_MAX = 0.2
"""Each further link of the same kind (another name, another implementing file) adds this, up to the max."""
OWN_SHARE = 0.3
"""A linked file's own evidence adds up to this share of the band."""
CALLER_STRENGTH = 0.5
"""Where in the indirect band a file that imports an implementing file, and says little else, lies."""
SOURCES = 4
"""Implementing files whose imports and used names are followed, best first."""
LINKED = 60
"""Files checked for import links to them (the rest are too weak to be their context)."""
NON_SOURCE = ("test", "doc", "config", "example")


@dataclass
class Roles:
    """What relevance learned about the run, for REFINE and the final context."""

    targets: list[Evaluation] = field(default_factory=list)
    """The implementing files, best first."""
    uses: list[Use] = field(default_factory=list)
    """Names the implementing files use that other files define."""


def assign(run: Run, evals: list[Evaluation]) -> Roles:
    """Set each evaluation's `relevance`, `role` and `reason` (evals: best own score first)."""
    targets = [e for e in evals if e.score >= TARGET_SCORE] if not run.guess else []
    sources = targets[:SOURCES]
    uses = [u for t in sources for u in uses_of(run, t)]
    defined = definition_links(uses)
    imported = import_links(run.index, run.files(), evals[:LINKED], sources)
    for ev in evals:
        links = [*defined.get(ev.path, ()), *imported.get(id(ev), ())]
        judge(ev, [lk for lk in links if lk.other != ev.path], run.guess)
    return Roles(targets, uses)


def judge(ev: Evaluation, links: list[Link], guess: bool = False) -> None:
    """The best role the file's evidence and links earn, its relevance and its reason."""
    s = ev.score
    options: list[tuple[float, str, str]] = []  # (relevance, role, what the role says first)
    if s >= TARGET_SCORE:
        options.append((IMPLEMENTS.place((s - TARGET_SCORE) / (1 - TARGET_SCORE)),
                        IMPLEMENTS.role, ""))
    structural = [lk for lk in links if lk.kind in LINK_STRENGTH]
    callers = [lk for lk in links if lk.kind == "imports"]
    own = min(s / TARGET_SCORE, 1.0)
    if structural and ev.kind not in NON_SOURCE:
        strength = OWN_SHARE * own
        for kind, worth in LINK_STRENGTH.items():
            n = sum(1 for lk in structural if lk.kind == kind)
            if n:
                strength += worth + min(EXTRA_LINK * (n - 1), EXTRA_LINK_MAX)
        options.append((RELATED.place(strength), RELATED.role, _said(structural)))
    if s >= RELATED_SCORE and ev.kind not in NON_SOURCE:
        options.append((RELATED.place((s - RELATED_SCORE) / (TARGET_SCORE - RELATED_SCORE)),
                        RELATED.role, ""))
    if callers or structural:
        options.append((INDIRECT.place(CALLER_STRENGTH + (1 - CALLER_STRENGTH) * own),
                        INDIRECT.role, _said(structural + callers)))
    if s >= INDIRECT_SCORE:
        options.append((INDIRECT.place((s - INDIRECT_SCORE) / (RELATED_SCORE - INDIRECT_SCORE)),
                        INDIRECT.role, ""))
    options.append((IRRELEVANT.place(s / INDIRECT_SCORE), IRRELEVANT.role, ""))
    relevance, role, first = max(options, key=lambda o: o[0])
    if guess and relevance > GUESS_CEILING:
        relevance, role = GUESS_CEILING, RELATED.role
    ev.relevance, ev.role = relevance, role
    ev.links = [str(lk) for lk in links]
    ev.used_by = list(dict.fromkeys(lk.name for lk in links if lk.kind == "defines"))
    label = role if ev.kind == "source" or role == IMPLEMENTS.role else f"{role} ({ev.kind})"
    said = first.split("; ") if first else []
    said += [b for b in ev.evidence.split("; ") if b and b not in said]
    ev.reason = f"{label}: " + "; ".join(said)


def _said(links: list[Link]) -> str:
    """The links as a reason fragment, definitions first, at most three."""
    ordered = sorted(links, key=lambda lk: lk.kind != "defines")
    return "; ".join(dict.fromkeys(str(lk) for lk in ordered[:3]))


def order(ev: Evaluation) -> tuple[float, float, str]:
    """The sort key of the handed-out order: best relevance first, then the own score, then
    the path (so that equals come in the same order from every index)."""
    return (-ev.relevance, -ev.score, ev.path)


def ranked(evals: list[Evaluation]) -> list[Evaluation]:
    return sorted(evals, key=order)
