"""REFINE: learn the codebase's words from what EVALUATE found, and aim the next cycle.

Four sources, strongest first: pseudo-relevance feedback (terms frequent in the best files, rare
in the repository); close variants of task words with no evidence (rapidfuzz over the index
vocabulary); programming synonyms for words the code never uses; and focus areas — the names
the implementing files use whose definitions no cycle has looked at. Files under 0.2 are excluded.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from .config import ablated
from .graph import Use
from .index import Index, classify
from .models import Concept, Evaluation, Query, Symbol, SymbolRows, symbol_names
from .query import ENGLISH_STOP, STOP_WORDS, TASK_VERBS, W_IDENT, looks_like_identifier
from .run import Run
from .search import SearchCache
from .synonyms import synonyms
from .textmemo import TextMemo
from .tokenize import CODE_STOP, identifier_terms, split_identifier, stem, term_counts

HIGH = 0.7
"""The pattern's threshold for a file that counts as good context (stop rule)."""
GOOD = 0.5
"""Files from the related band up cover the task's concepts (gaps)."""
EXCLUDE_BELOW = 0.2
FEEDBACK_FILES = 5
FEEDBACK_RELEVANCE = 0.7
"""The best files whose words REFINE learns: the implementing files and their needed context."""
LEARNED_WEIGHT = 0.6
VARIANT_WEIGHT = 0.9
SYNONYM_WEIGHT = 0.8
SUPERSEDED_WEIGHT = 0.5
"""What a task word weighs once the codebase was found to say its phrase otherwise (superseded)."""
MAX_FOCUS = 6
FEEDBACK_TERMS_PER_FILE = 120
FEEDBACK_POOL = 80

PRAGMA_RE = re.compile(
    r"(?:#|//|/\*)\s*(?:type:\s*ignore\b|noqa\b|pragma\b|pylint:|mypy:|pyright:|fmt:|isort:|"
    r"nolint\b|@ts-(?:ignore|expect-error|nocheck)\b|eslint-(?:disable|enable)|prettier-ignore\b|"
    r"istanbul ignore\b|c8 ignore\b|NOSONAR\b)[^\n]*",
)
"""A comment that is an instruction to a tool (`# type: ignore[attr-defined]`, `# noqa: E501`,
`// eslint-disable-next-line no-console`): its words are the tool's, not the code's (flask's
nineteen `type: ignore` had `ignore` learned)."""


def _counts_of_code(text: str) -> Counter[str]:
    return term_counts(PRAGMA_RE.sub(" ", text))


_term_counts = TextMemo(_counts_of_code, 4_000_000)
"""A file's term counts, between retrievals too (a Counter holds more than its text)."""


@dataclass
class Refinement:
    """What one REFINE step produced."""

    query: Query
    learned: list[str]
    excluded: list[str]
    focus: list[str]
    task_concepts: tuple[Concept, ...] = ()
    """The task's concepts for the next cycle: a word the codebase says otherwise weighs less."""
    superseded: frozenset[str] = frozenset()
    """Those words (see `superseded`)."""


@dataclass
class Gaps:
    """What the result still lacks."""

    critical: list[str]
    """Strong task concepts (identifiers, paths, frames, quoted messages) no good file covers."""
    weak: list[str]
    """Plain task words no good file covers."""


def find_gaps(
    evals: list[Evaluation], task_concepts: Sequence[Concept],
    found: Callable[[Concept], bool] = bool, about_tests: bool = True,
) -> Gaps:
    """Task concepts that no file of the related band or above covers.

    A gap is critical — it keeps the loop going — when it is a strong concept the task means:
    a path, a frame, a quoted message, or an identifier it says in its prose, in backticks or
    more than once (not one that appears once in a pasted log or snippet), that something in
    the repository matches (`found(c)`: the reporter's /Users/me/sandbox, a package of their pip
    list, no cycle can fill), and that a candidate could cover (not a test file's path when tests
    are not candidates). Every other uncovered concept is a weak gap."""
    good = [e for e in evals if e.relevance >= GOOD][:10]
    covered = {w for e in good for w in e.covers}
    # a scope says where to look, not what to find: no file owes it anything
    wanted = [c for c in task_concepts if c.text not in covered and c.kind != "scope"]
    critical = [c for c in wanted if c.strong and _meant(c, about_tests) and found(c)]
    return Gaps([c.text for c in critical], [c.text for c in wanted if c not in critical])


def _meant(c: Concept, about_tests: bool) -> bool:
    if c.kind == "identifier":
        # a plain word in backticks (`tox -e py37`, `pytest -rs`) may be a command, a flag or
        # an environment's name: only a code-shaped name is one the result owes the task
        return c.weight >= W_IDENT and looks_like_identifier(c.text)
    if c.kind in ("path", "frame") and not about_tests:
        return classify(c.text.lower(), None) != "test"
    return True


def focus_areas(uses: Sequence[Use], evaluated: set[str]) -> list[str]:
    """Names the implementing files use whose definitions no cycle has looked at yet: the
    next cycle's focus, most telling first."""
    weight: Counter[str] = Counter()
    for u in uses:
        if not evaluated.issuperset(u.definers):
            weight[u.name] += u.weight  # type: ignore[assignment] # float weights
    return [n for n, _ in weight.most_common(MAX_FOCUS)]


def refine(run: Run, query: Query, evals: list[Evaluation], focus: list[str], gaps: Gaps,
           excluded: set[str]) -> Refinement:
    """The next cycle's query: learned terms, the folders of the implementing files, the
    focus areas, and confident excludes (evals: best own score first)."""
    known = {t for c in query.keywords for t in c.terms}
    learned: list[Concept] = []
    if not ablated("feedback"):
        learned += _feedback(run, evals, known)
    known |= {t for c in learned for t in c.terms}
    if not ablated("synonyms"):
        learned += variants_and_synonyms(run, gaps, known)
    if ablated("focus"):
        focus = []

    new_excl = [
        e.path for i, e in enumerate(evals)
        if e.relevance < EXCLUDE_BELOW and i >= 10 and e.path not in excluded
    ]
    good = [e for e in evals if e.role == "implements"][:6]
    patterns = list(query.patterns)
    for e in good:
        folder = e.path.rsplit("/", 1)[0] if "/" in e.path else ""
        pat = f"{folder}/**" if folder else "*"
        if folder and pat not in patterns:
            patterns.append(pat)
    gone = superseded(run, learned)
    keywords = tuple(_weaker(c, gone) for c in query.keywords)
    new_query = replace(
        query,
        keywords=keywords + tuple(learned),
        patterns=tuple(patterns[:8]),
        excludes=tuple(query.excludes) + tuple(new_excl),
        focus_areas=tuple(focus),
    )
    task = tuple(_weaker(c, gone) for c in run.task_concepts)
    return Refinement(new_query, [c.text for c in learned], new_excl, focus, task,
                      run.superseded | gone)


def _weaker(c: Concept, superseded_words: set[str]) -> Concept:
    if c.text in superseded_words and c.kind == "word":
        return replace(c, weight=c.weight * SUPERSEDED_WEIGHT)
    return c


DOC_MARKUP = frozenset(
    """
    param params parameter parameters rtype returns yields raises seealso note notes example
    examples todo versionadded versionchanged deprecated ivar cvar vartype meth func attr exc
    autoclass autofunction automodule automethod autoattribute doctest testsetup testcode
    typedef inheritdoc fileoverview memberof noqa nolint pragma nocover pylint eslint
    """.split()
)
"""The words of docstring and comment markup (reST fields, directives and roles, numpydoc
sections, JSDoc tags, linter pragmas): frequent in the best files' text because they are
documented, they say nothing of what the code does (`versionchanged`, `param` were learned)."""
_NOT_LEARNED = frozenset({stem(w) for w in ENGLISH_STOP | CODE_STOP | DOC_MARKUP} | STOP_WORDS
                         | CODE_STOP | DOC_MARKUP | TASK_VERBS)
"""Stop words, keywords, documentation markup and task verbs; English's and the languages' own
also as the index stems them (`already` is `alread` there, `package` `packag`). Not the issue
words' stems: `issu` is also `issued` in `issueAccessToken`."""


def _feedback(run: Run, evals: list[Evaluation], known: set[str]) -> list[Concept]:
    """RM3-style: terms frequent in the top files, rare in the repository. The top files are
    the best by relevance: the implementing files and the context they need most."""
    top = [e for e in sorted(evals, key=lambda e: (-e.relevance, -e.score))[:FEEDBACK_FILES]
           if e.relevance >= FEEDBACK_RELEVANCE]
    if not top:
        return []
    index, cache, read_text = run.index, run.search, run.read_text
    n = max(index.file_count(), 2)
    scores: Counter[str] = Counter()
    support: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for ev in top:
        counts = run.counts.get(ev.path)
        if counts is None:
            text = read_text(ev.path)
            if not text:
                continue
            counts = run.counts[ev.path] = _term_counts(text)
        counts = Counter(counts)
        total = sum(counts.values()) or 1
        sym_counts, sym_surface = _symbol_terms(ev.symbols)
        counts.update(sym_counts)  # 3 per use in a definition's name, new terms in that order
        for s, t in sym_surface.items():
            surface.setdefault(s, t)
        for s, tf in counts.most_common(FEEDBACK_TERMS_PER_FILE):
            if s in known or len(s) < 3 or s in _NOT_LEARNED:
                continue
            scores[s] += (tf / total) * ev.relevance  # type: ignore[assignment] # floats
            support[s] += 1
    # rarity in the repository, looked up only for the terms that are frequent in the top files
    pool = [s for s, _ in scores.most_common(FEEDBACK_POOL)]
    dfs = index.doc_freqs(pool)
    for s in list(scores):
        df = dfs.get(s, 0)
        if df == 0 or df > max(0.15 * n, min(10, 0.3 * n)):
            del scores[s]
        else:
            scores[s] *= math.log((n + 1) / (df + 0.5))  # type: ignore[assignment] # floats
    ranked = [(s, v * (1.5 if support[s] >= 2 else 1.0)) for s, v in scores.items()
              if support[s] >= 2 or len(top) == 1]
    ranked.sort(key=lambda t: -t[1])
    out = []
    for s, _ in ranked[:6]:
        # a word of the bodies only: the trace shows it as the code writes it (toggl → toggle)
        word = surface.get(s) or surface_of(index, s, cache, read_text)
        out.append(Concept(word, "learned", LEARNED_WEIGHT, (s,)))
    return out


def _symbol_terms(syms: Sequence[Symbol]) -> tuple[Counter[str], dict[str, str]]:
    """Stems of a file's definition names, 3 per use, and the first word written for each;
    kept with the index's rows (a top file comes back every cycle)."""
    if isinstance(syms, SymbolRows) and "terms" in syms.derived:
        return syms.derived["terms"]
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for name in symbol_names(syms):
        terms = identifier_terms(name)
        for i, t in enumerate(terms):
            s = stem(t)
            counts[s] += 3
            # a compound's joined term, the last, is written as the name (checklimit → check_limit)
            surface.setdefault(s, name if 0 < i == len(terms) - 1 else t)
    if isinstance(syms, SymbolRows):
        syms.derived["terms"] = (counts, surface)
    return counts, surface


_WORDS_RE = re.compile(r"[A-Za-z]{2,}")


def surface_of(
    index: Index, term: str, cache: SearchCache, read_text: Callable[[str], str | None]
) -> str:
    """A word as the code writes it for an index term (`authentic` → `authentication`)."""
    hits = cache.search(index, term)
    if not hits:
        return term
    best = max(hits, key=hits.__getitem__)
    row = cache.all_files(index).get(best)
    text = read_text(row.path) if row else None
    if not text:
        return term
    for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text[:200_000]):
        if term[:3] not in m.group().lower():
            continue
        parts = split_identifier(m.group())
        for p in parts:
            if stem(p) == term:
                return p
        if "".join(parts) == term or stem("".join(parts)) == term:
            return m.group()
    return term


def superseded(run: Run, learned: list[Concept]) -> set[str]:
    """Task words whose phrase the codebase says in other words: a phrase synonym was learned
    (`rate limiting` → throttle) and the code never writes the phrase itself (no `rate_limit`).
    On their own those words mean something else here (exchange rates, a body-size limit)."""
    words: set[str] = set()
    for c in learned:
        if c.kind == "synonym" and len(c.origin) > 1:
            joined = stem("".join(split_identifier("_".join(c.origin))))
            if not run.index.doc_freqs([joined]).get(joined, 0):
                words.update(c.origin)
    return words


# C901: close spellings, then synonyms of words, then of phrases: each branch one source.
def variants_and_synonyms(run: Run, gaps: Gaps, known: set[str]) -> list[Concept]:  # noqa: C901
    """Close spellings (rapidfuzz) and programming synonyms for task words with no evidence."""
    index, cache, read_text = run.index, run.search, run.read_text
    task_concepts, task_text = list(run.task_concepts), run.task
    n = max(index.file_count(), 1)
    out: list[Concept] = []
    words_ids = [c for c in task_concepts if c.kind in ("word", "identifier")]
    dfs = index.doc_freqs(t for c in words_ids for t in c.terms)
    weak = [c for c in words_ids if c.text in gaps.weak + gaps.critical]
    rare = [c for c in words_ids if all(dfs.get(t, 0) == 0 for t in c.terms)]
    targets = list({c.text: c for c in weak + rare}.values())

    # phrases of two task words ("rate limiting") are looked up joined, as code writes them
    words = [w.lower() for w in _WORDS_RE.findall(task_text[:2000])]
    pair_words = list(pairwise(words))
    phrases = ["".join(split_identifier(a + "_" + b)) for a, b in pair_words]
    by_text = {c.text.lower(): c.text for c in task_concepts}
    # a word another root of the workspace says is that root's, not a word this root says in
    # other words: `blueprints` beside flask makes no `app` of click's a stand-in for it (its
    # own spellings still count: they are how this root writes the word)
    said_elsewhere = {t for oi, _ in run.others
                      for t, df in oi.doc_freqs(t for c in targets for t in c.terms).items() if df}
    syn_sources: list[tuple[str, tuple[str, ...]]] = [
        (c.text, (c.text,)) for c in targets if not said_elsewhere.issuperset(c.terms)]
    for phrase, (a, b) in zip(phrases, pair_words, strict=False):
        origin = tuple(by_text[w] for w in (a, b) if w in by_text)
        if origin and synonyms(phrase):
            syn_sources.insert(0, (phrase, origin))
    seen = set(known)
    for word, origin in syn_sources:
        added = 0
        for syn in synonyms(word):
            terms = tuple(dict.fromkeys(stem(t) for t in identifier_terms(syn) or [syn]))
            if not terms or terms[-1] in seen:
                continue
            df = index.doc_freqs([terms[-1]])[terms[-1]]
            if df == 0 or df > 0.3 * n:
                continue
            seen.update(terms)
            out.append(Concept(syn, "synonym", SYNONYM_WEIGHT, terms, origin))
            added += 1
            if added >= 3:
                break

    for c in targets[:6]:
        key = "".join(c.terms[-1:])
        if len(key) < 4:
            continue
        # misspellings keep their first letters: compare against terms sharing a prefix
        choices = [t for t in index.terms_with_prefix(key[:3]) if len(t) >= 4]
        if choices:
            from rapidfuzz import fuzz, process  # imported only when needed: faster start-up

            for term, _score, _ in process.extract(key, choices, scorer=fuzz.ratio, limit=3,
                                                   score_cutoff=84):
                # a numbered copy of the word (`option_1`, `option_2`: a test's names) is the
                # word itself, not another spelling of it
                if term in seen or term.rstrip("0123456789") == key:
                    continue
                seen.add(term)
                word = surface_of(index, term, cache, read_text)
                out.append(Concept(word, "variant", VARIANT_WEIGHT, (term,), (c.text,)))
    return out[:10]
