"""Relevance: each file's role for the task, from its own evidence and its links, in the
pattern's bands.

- **implements** (0.8–1.0): its own evidence is strong (signals.py's score ≥ TARGET_SCORE): it is
  named in the task, defines what the task names, or its code and path carry the task's words;
  or it is the developer's own work and the task says it is about that work (Run.work).
- **related** (0.5–0.75): it defines a name an implementing file uses, or an implementing file
  imports it (the context a fix needs); or its own evidence is partial (score ≥ RELATED_SCORE).
- **indirect** (0.2–0.45): a caller (it imports an implementing file but says little of the
  task), a test, doc, config or example file, a file with some evidence (score ≥
  INDIRECT_SCORE), or a source file whose name says one of the task's words.
- **irrelevant** (below 0.2): REFINE excludes it, the context leaves it out.

A file takes the best role its evidence earns; inside the band, the strength of that evidence
places it. A file's rank among its rivals never moves it to another band, so "≥ 0.7" (the stop
rule) and "< 0.2" (the excludes) read the same on every run. The reason starts with the role.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .graph import TELLING, Link, Use, definition_links, import_links, uses_of
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
STRONG_SCORE = 0.9
"""…and from which it is a sure one: only its direct context reaches 0.7, the stop rule's mark
(the context is enough when the implementing file is certain and what it needs is in hand)."""
RELATED_SCORE = 0.1
"""Own-evidence score from which a file's partial evidence alone makes it related."""
INDIRECT_SCORE = 0.02
"""…from which it is indirect; below it, irrelevant unless a link says otherwise."""
RELATED_CAP = 0.69
"""The top of the related band for all but the direct context of a sure implementing file."""
SURE_CONTEXT = 2
"""…and of that context, the few files that reach 0.7 (the stop rule counts them)…"""
NEEDED = 0.8
"""…when the implementing file needs them at least this much (`need`: own evidence and links)."""
WORK_SAYS = "the work in progress the task is about"
"""What the role says first of a file that implements because it is the work the task names."""
GUESS_CEILING = 0.6
"""A run that only the task's generic words found anything for hands out guesses: related at
best."""

LINK_PLACE = {"defines": 0.1, "imported by": 0.2}
"""What a link to an implementing file adds to a related file's place in the band: a little,
so that among the related files their own evidence orders them (a file that says the task's
words is more often the one a fix changes than a module the best file merely uses)."""
LINK_NEED = {"defines": 0.9, "imported by": 0.5}
"""How strongly an implementing file needs a file it links to (a definition link in full
when the name is telling: graph.TELLING); with its own evidence, ≥ 0.8 is needed context."""
EXTRA_LINK = 0.1
EXTRA_LINK_MAX = 0.2
"""Each further link of the same kind (another name, another implementing file) adds this, up
to the max."""
SECOND_HOP = 0.5
"""A link to a related file (the JWT helpers a token module imports) is worth this share."""
OWN_SHARE = 1.0
"""A linked file's own evidence (its score over TARGET_SCORE) adds this share of the band."""
CALLER_STRENGTH = 0.5
"""Where in the indirect band a file that imports an implementing file, and says little else,
lies."""
SOURCES = 4
"""Implementing (then related) files whose imports and used names are followed, best first."""
LINKED = 60
"""Files checked for import links to them (the rest are too weak to be their context)."""
NON_SOURCE = ("test", "doc", "config", "example", "tool")


@dataclass
class Roles:
    """What relevance learned about the run, for REFINE and the final context."""

    targets: list[Evaluation] = field(default_factory=list)
    """The implementing files, best first."""
    uses: list[Use] = field(default_factory=list)
    """Names the implementing files use that other files define."""


def assign(run: Run, evals: list[Evaluation]) -> Roles:
    """Set each evaluation's `relevance`, `role` and `reason` (evals: best own score first).

    Two hops: the implementing files' links first; then the links of the best related files
    that those links found (a token module's JWT helpers), worth less and never 0.7."""
    work = run.work()
    targets = [e for e in evals if (e.score >= TARGET_SCORE and not run.guess) or e.path in work]
    strong = {e.path for e in targets if e.score >= STRONG_SCORE}
    uses = [u for t in targets[:SOURCES] for u in uses_of(run, t)]
    links = _links(run, evals, targets[:SOURCES], uses, hop=1)
    for ev in evals:
        judge(ev, links.get(ev.path, []), strong, run.guess, ev.path in work)
    _needed_context(evals)
    taken = {e.path for e in targets}
    second = [e for e in ranked(evals) if e.role == RELATED.role and e.path not in taken
              and any(lk.hop == 1 and lk.kind in LINK_PLACE for lk in links.get(e.path, ()))]
    second = second[:SOURCES]
    if second:
        more = _links(run, evals, second, [u for e in second for u in uses_of(run, e)], hop=2)
        for ev in evals:
            if ev.path in more and ev.path not in taken:
                judge(ev, links.get(ev.path, []) + more[ev.path], strong, run.guess,
                      ev.path in work)
        _needed_context(evals)
    return Roles(targets, uses)


def _needed_context(evals: list[Evaluation]) -> None:
    """The SURE_CONTEXT files a sure implementing file needs most (its direct context, with
    their own evidence: `need` ≥ NEEDED) reach 0.7 and up: the stop rule counts them. Not every
    module it imports: the others stay in the related band below 0.7."""
    needed = [e for e in evals if e.need >= NEEDED and e.role != IMPLEMENTS.role]
    needed.sort(key=lambda e: (-e.need, -e.score, e.path))
    for ev in needed[:SURE_CONTEXT]:
        rel = RELATED.place(min(ev.need, 1.0))
        if rel > ev.relevance:
            ev.relevance = rel
            if ev.role != RELATED.role:
                ev.role = RELATED.role
                ev.reason = RELATED.role + ": " + ev.reason.split(": ", 1)[-1]


def _links(run: Run, evals: list[Evaluation], sources: list[Evaluation], uses: list[Use],
           hop: int) -> dict[str, list[Link]]:
    """path → its definition and import links to the sources."""
    out: dict[str, list[Link]] = {}
    for path, found in definition_links(uses, hop).items():
        out.setdefault(path, []).extend(found)
    imported = import_links(run.index, run.files(), evals[:LINKED], sources, hop)
    for ev in evals[:LINKED]:
        out.setdefault(ev.path, []).extend(imported.get(id(ev), ()))
    return {p: [lk for lk in found if lk.other != p] for p, found in out.items() if found}


def judge(ev: Evaluation, links: list[Link],
          strong: set[str] | frozenset[str] = frozenset(), guess: bool = False,
          work: bool = False) -> None:
    """The best role the file's evidence and links earn, its relevance and its reason. `work`:
    the file is the developer's own work and the task says it is about it (Run.work): it
    implements what the task names, as a file the task names by its path does."""
    s = ev.score
    options: list[tuple[float, str, str]] = []  # (relevance, role, what the role says first)
    if s >= TARGET_SCORE or work:
        options.append((IMPLEMENTS.place(max(s - TARGET_SCORE, 0.0) / (1 - TARGET_SCORE)),
                        IMPLEMENTS.role, WORK_SAYS if work else ""))
    structural = [lk for lk in links if lk.kind in LINK_PLACE]
    callers = [lk for lk in links if lk.kind == "imports"]
    own = min(s / TARGET_SCORE, 1.0)
    ev.need = 0.0
    if structural and ev.kind not in NON_SOURCE:
        strength = OWN_SHARE * own + _link_worth(structural, LINK_PLACE)
        options.append((round(RELATED.lo + (RELATED_CAP - RELATED.lo) * min(strength, 1.0), 3),
                        RELATED.role, _said(structural)))
        sure = [lk for lk in structural if lk.hop == 1 and lk.other in strong]
        if sure:
            ev.need = OWN_SHARE * own + _link_worth(sure, LINK_NEED)
    if s >= RELATED_SCORE and ev.kind not in NON_SOURCE:
        options.append((round(RELATED.lo + (RELATED_CAP - RELATED.lo)
                              * (s - RELATED_SCORE) / (TARGET_SCORE - RELATED_SCORE), 3),
                        RELATED.role, ""))
    if callers or structural:
        options.append((INDIRECT.place(CALLER_STRENGTH + (1 - CALLER_STRENGTH) * own),
                        INDIRECT.role, _said(structural + callers)))
    if s >= INDIRECT_SCORE:
        options.append((INDIRECT.place((s - INDIRECT_SCORE) / (RELATED_SCORE - INDIRECT_SCORE)),
                        INDIRECT.role, ""))
    if ev.in_name and ev.kind == "source":
        # a module named for what the task says ("… in palettes": palettes.py) is at least
        # indirect, whatever the rarer words that other files say took of the task's weight
        options.append((INDIRECT.lo, INDIRECT.role, ""))
    options.append((IRRELEVANT.place(s / INDIRECT_SCORE), IRRELEVANT.role, ""))
    relevance, role, first = max(options, key=lambda o: o[0])
    if guess and relevance > GUESS_CEILING and not work:
        relevance, role = GUESS_CEILING, RELATED.role
    ev.relevance, ev.role = relevance, role
    ev.links = [str(lk) for lk in links]
    ev.used_by = list(dict.fromkeys(lk.name for lk in links if lk.kind == "defines"))
    label = role if ev.kind == "source" or role == IMPLEMENTS.role else f"{role} ({ev.kind})"
    said = first.split("; ") if first else []
    said += [b for b in ev.evidence.split("; ") if b and b not in said]
    ev.reason = f"{label}: " + "; ".join(said)


def _link_worth(links: list[Link], worth: dict[str, float]) -> float:
    """What the links add up to: per kind, the most telling one in full, a little per further
    one; a second-hop link at its share."""
    total = 0.0
    for kind, full in worth.items():
        for hop, share in ((1, 1.0), (2, SECOND_HOP)):
            found = [lk for lk in links if lk.kind == kind and lk.hop == hop]
            if found:
                telling = max(min(lk.weight / TELLING, 1.0) if kind == "defines" else 1.0
                              for lk in found)
                total += share * (full * telling
                                  + min(EXTRA_LINK * (len(found) - 1), EXTRA_LINK_MAX))
    return total


def _said(links: list[Link]) -> str:
    """The links as a reason fragment, the closest and definitions first, at most three."""
    ordered = sorted(links, key=lambda lk: (lk.hop, lk.kind != "defines"))
    return "; ".join(dict.fromkeys(str(lk) for lk in ordered[:3]))


def order(ev: Evaluation) -> tuple[float, float, str]:
    """The sort key of the handed-out order: best relevance first, then the own score, then
    the path (so that equals come in the same order from every index)."""
    return (-ev.relevance, -ev.score, ev.path)


def ranked(evals: list[Evaluation]) -> list[Evaluation]:
    return sorted(evals, key=order)
