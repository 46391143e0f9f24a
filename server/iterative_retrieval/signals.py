"""EVALUATE's evidence: one signal per fact about a file, each with its weight and its reason.

A file's own-evidence score is a logistic over the signals, `BIAS + Σ weight × value`; its
reason is the fragments of the signals that fired, in the order of `SIGNALS`; the benchmark's
ablations (IR_ABLATE) switch signals off by name. So a signal is added, weighed, explained or
switched off here and nowhere else. The weights were fitted on the development benchmark
(docs/benchmarks.md) as the odds that a fix changes the file: the score orders the files and
tells how strongly a file implements what the task names; relevance.py turns it, with the file's
links to the best files, into the pattern's bands.

Each signal reads facts EVALUATE worked out once per candidate (`Evaluation.features` and the
lists beside them), so that a value is a pure function of the evaluation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from .models import Evaluation

BIAS = -5.5

W_COVERAGE = 1.8
W_COVERAGE_LONG = 1.0
COVERAGE_CONCEPTS = 6
"""Coverage weighs W_COVERAGE for a request of up to this many task concepts, sliding towards
W_COVERAGE_LONG for long issue texts, where covering many incidental words says little."""

KIND_PENALTY = {"source": 0.0, "config": -0.8, "tool": -0.8, "example": -1.6, "test": -2.0,
                "doc": -1.1}
VENDORED_RE = re.compile(
    r"(^|/)(_vendor|_vendored|vendored|third[_-]?party|3rdparty|_?externals?|extern)/"
    # requests/packages/urllib3/…, not a monorepo's packages/
    r"|^(?!packages/)(?:[^/]+/)+packages/[^/]+/.+\.py$"
)
"""A vendored copy of another project is rarely what a task changes (its fixes go upstream)."""
DECLARATION_RE = re.compile(r"\.d\.[cm]?ts$|\.pyi$")
"""Type declarations beside the code: a task about behaviour changes the code they describe,
and they say every name of the API (Query.about_types waives it)."""


def coverage_weight(n_concepts: int) -> float:
    share = min(1.0, COVERAGE_CONCEPTS / max(n_concepts, 1))
    return W_COVERAGE_LONG + (W_COVERAGE - W_COVERAGE_LONG) * share


def _feature(name: str) -> Callable[[Evaluation], float]:
    return lambda ev: ev.features.get(name, 0.0)


def _quoted(names: list[str], n: int = 3) -> str:
    return ", ".join(f"`{d}`" for d in names[:n])


def _named(ev: Evaluation) -> str:
    if not ev.features.get("explicit"):
        return ""
    if ev.tested_by:
        return f"tested by `{ev.tested_by.rsplit('/', 1)[-1]}`, which the task names"
    return "named in the task"


def _scope(ev: Evaluation) -> str:
    if not ev.scopes:
        return ""
    return ("is" if ev.features.get("scope", 0) >= 0.7 else "in") + " the task's scope " + \
        ", ".join(ev.scopes[:2])


def _defines(ev: Evaluation) -> str:
    return "defines " + _quoted(ev.defines) if ev.defines else ""


def _declares_option(ev: Evaluation) -> str:
    return "declares " + ", ".join(f"`--{o}` (line {n})" for o, n in ev.options[:2]) \
        if ev.options else ""


def _has(ev: Evaluation) -> str:
    return "has " + _quoted(ev.named) if ev.named and not ev.defines else ""


def _matches(ev: Evaluation) -> str:
    if not ev.matched_words:
        return ""
    where = f" ({len(ev.hit_lines)} lines)" if ev.hit_lines else ""
    return "matches " + ", ".join(list(dict.fromkeys(ev.matched_words))[:5]) + where


def _path(ev: Evaluation) -> str:
    shown = [w for w in dict.fromkeys(ev.path_words) if w]
    return "path matches " + ", ".join(shown[:3]) if shown else ""


def _links(ev: Evaluation) -> str:
    return "; ".join(ev.graph_links[:2])


def _focus(ev: Evaluation) -> str:
    return "defines a symbol the top files use" if ev.features.get("focus") else ""


def _learned(ev: Evaluation) -> str:
    return "matches learned terms" if ev.features.get("learned") and not ev.matched_words else ""


def _changed(ev: Evaluation) -> str:
    return ev.change if ev.features.get("changed") else ""


def _editor(ev: Evaluation) -> str:
    return ev.editor if ev.features.get("editor") else ""


def _kind(ev: Evaluation) -> float:
    # an example the task names by its path ("Fix ValueError in file_uploader.py") is what the
    # task is about: the prior that examples are seldom changed does not hold for it
    if ev.kind == "example" and ev.features.get("named_path", 0.0) >= 1.0:
        return 0.0
    return KIND_PENALTY.get(ev.kind, 0.0)


def _declaration(ev: Evaluation) -> float:
    return -ev.features.get("declaration", 0.0)


def _declares(ev: Evaluation) -> str:
    return "declares types only (the task is not about types)" if _declaration(ev) else ""


def _vendored(ev: Evaluation) -> float:
    return -1.0 if VENDORED_RE.search(ev.path) else 0.0


@dataclass(frozen=True)
class Signal:
    """One kind of evidence: its value for a file, its weight, and what it says when it fires."""

    name: str
    weight: float
    value: Callable[[Evaluation], float]
    says: Callable[[Evaluation], str] | None = None
    """The reason fragment, "" when the signal has nothing to say about this file."""
    ablate: tuple[str, ...] = ()
    """IR_ABLATE names besides `name` that switch it off."""

    def off(self, switched_off: frozenset[str]) -> bool:
        return self.name in switched_off or not switched_off.isdisjoint(self.ablate)


COVERAGE = "coverage"
SIGNALS: tuple[Signal, ...] = (
    Signal("explicit", 3.0, _feature("explicit"), _named),
    Signal("scope", 1.5, _feature("scope"), _scope),
    Signal("defines", 2.0, _feature("defines"), _defines, ("definitions",)),
    Signal("option", 1.0, _feature("option"), _declares_option),
    Signal("symbol_terms", 2.4, _feature("symbol_terms"), _has, ("definitions",)),
    Signal(COVERAGE, W_COVERAGE, _feature("coverage"), _matches),
    Signal("path_terms", 2.1, _feature("path_terms"), _path, ("path",)),
    Signal("graph", 0.8, _feature("graph"), _links),
    Signal("focus", 0.3, _feature("focus"), _focus),
    Signal("learned", 0.9, _feature("learned"), _learned),
    Signal("changed", 4.0, _feature("changed"), _changed, ("changes",)),
    Signal("editor", 1.5, _feature("editor"), _editor),
    Signal("bm25", 3.6, _feature("bm25")),
    Signal("kind", 1.0, _kind),
    Signal("vendored", 1.6, _vendored),
    Signal("declaration", 0.8, _declaration, _declares),
)
"""In the order their fragments read in a reason."""
BY_NAME = {s.name: s for s in SIGNALS}


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def evidence(ev: Evaluation, w_coverage: float = W_COVERAGE,
             switched_off: frozenset[str] = frozenset()) -> float:
    """The file's own evidence before the logistic: BIAS + Σ weight × value."""
    z = BIAS
    for s in SIGNALS:
        if switched_off and s.off(switched_off):
            continue
        v = s.value(ev)
        if v:
            z += (w_coverage if s.name == COVERAGE else s.weight) * v
    return z


SCORE_DIGITS = 3
"""A score's precision (decimals): what the ranking and every surface see."""


def score(ev: Evaluation, w_coverage: float = W_COVERAGE,
          switched_off: frozenset[str] = frozenset()) -> float:
    """The file's own-evidence score in (0, 1); coverage weighs `w_coverage` (coverage_weight)."""
    return round(sigmoid(evidence(ev, w_coverage, switched_off)), SCORE_DIGITS)


def evidence_below(s: float) -> float:
    """The most evidence whose score is a step below the score `s`: near 1 the logistic is
    flat, and a margin in evidence alone rounds to the same score (the path then decides)."""
    target = s - 0.6 * 10.0 ** -SCORE_DIGITS  # rounds to a step below
    return math.log(target / (1.0 - target)) if target > 0 else -math.inf


def reason(ev: Evaluation) -> str:
    """What the file's evidence says, signal by signal ("defines `X`; matches a, b; …")."""
    bits = []
    for s in SIGNALS:
        said = s.says(ev) if s.says is not None else ""
        if said:
            bits.append(said)
    return "; ".join(bits) or "weak textual match"
