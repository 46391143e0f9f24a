"""EVALUATE: work out each candidate's evidence, score it and say why.

The facts a reviewer can check, per file: how much of the task it covers (IDF-weighted),
whether it *defines* what the task names rather than only using it, whether its path or its
definitions' names carry the task's words, paths and stack frames naming it, a commit scope
(`fix(http):`), its BM25F standing, the learned terms it matches, and its import links to the
strongest candidates. signals.py turns them into the own-evidence score and the reason;
relevance.py into the file's role and band.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, count
from operator import add, itemgetter, methodcaller

from .changes import WORK_KINDS
from .config import ablated_signals
from .graph import import_links
from .index import Index
from .models import Candidate, Concept, Evaluation, Query, Symbol, SymbolRows
from .options import declared
from .run import Run
from .search import SCOPE_HIT, SearchCache, concept_hits
from .signals import (
    BY_NAME,
    DECLARATION_RE,
    coverage_weight,
    evidence,
    evidence_below,
    reason,
    score,
)
from .textmemo import TextMemo
from .tokenize import identifier_terms, path_terms, stem, stemmed_terms

SUBSTITUTE_SHARE = 0.8
"""A synonym or variant covers the task word it stands in for at this share…"""
PHRASE_SHARE = 1.0
"""…and a synonym of a phrase of the task (`rate limiting` → throttle) covers its words whole:
the code says the thing the phrase names, where a file with one of its words may not."""
MASSLESS = ("phrase", "path")
"""Concepts that add to the files that say them and take nothing from the others."""
CHANGE_FLOOR = 0.75
"""The share of the changed files' signal when the task seems about something else."""
LEAD_MARGIN = 0.01
"""How far below the file the task names (_weigh_changes) the work's files stay, in evidence."""
STAGE2 = 40
"""How many of the best candidates get the costly text and graph pass."""
ANCHORS = 5
ANCHOR_SCORE = 0.35
"""The strongest candidates whose importers and imports gain evidence (the graph signal)."""


@dataclass
class ConceptStats:
    """Per-concept evidence shared by all candidates of a cycle."""

    concept: Concept
    hits: dict[int, float]
    idf: float
    task: bool
    """True for the task's own concepts; learned terms count apart."""
    elsewhere: bool = False
    """Another root of the workspace says it."""


def concept_stats(
    index: Index, concepts: list[Concept], task_texts: set[str], cache: SearchCache,
    others: tuple[tuple[Index, SearchCache], ...] = (),
) -> list[ConceptStats]:
    """Each concept's hits in this root, and its rarity over the whole workspace (`others`:
    the other roots)."""
    n = max(len(cache.all_files(index)) + sum(len(oc.all_files(oi)) for oi, oc in others), 2)
    out = []
    for c in concepts:
        hits = concept_hits(index, c, cache)
        elsewhere = sum(len(concept_hits(oi, c, oc)) for oi, oc in others)
        df = len(hits) + elsewhere
        idf = math.log((n + 1) / (df + 0.5)) / math.log(n + 1)
        out.append(ConceptStats(c, hits, max(idf, 0.02), c.text in task_texts, elsewhere > 0))
    return out


def _said(index: Index, cache: SearchCache, concept: Concept, fid: int) -> list[str]:
    """How the reason names a task concept a file's text matches (`_in_part`)."""
    terms = concept.terms
    if concept.kind != "identifier" or len(terms) < 2 or fid in cache.search(index, terms[-1]):
        return [concept.text]
    return _in_part(concept, {t for t in terms[:-1] if fid in cache.search(index, t)})


def _in_part(concept: Concept, present: set[str]) -> list[str]:
    """A compound identifier a file says only in part (`present`: the terms it says) is named
    by those parts (`session`, `request` for SESSION_REFRESH_EACH_REQUEST), or not at all: a
    reason never claims a name the file does not hold."""
    terms = concept.terms
    if concept.kind != "identifier" or len(terms) < 2 or terms[-1] in present:
        return [concept.text]
    words: dict[str, str] = {}
    for w in identifier_terms(concept.text):  # the terms are their stems
        words.setdefault(stem(w), w)
    # a part of one or two letters (`no` of NoOptDefVal) would read as a word of the sentence
    return [w for t in terms[:-1] if t in present and len(w := words.get(t, t)) > 2]


# C901: one pass over the candidates; each branch is one piece of evidence, computed where the
# values it needs are at hand (a helper per signal would pass a dozen locals along).
def evaluate(run: Run, query: Query, candidates: list[Candidate], cycle: int,  # noqa: C901
             limit: int = 150) -> list[Evaluation]:
    """Own-evidence score and reason of the best `limit` candidates (by BM25), best first."""
    if not candidates:
        return []
    index, cache = run.index, run.search
    task_concepts = list(run.task_concepts)
    files = run.files()
    task_texts = {c.text for c in task_concepts}
    all_concepts = list({c.text: c for c in [*task_concepts, *query.keywords]}.values())
    stats = concept_stats(index, all_concepts, task_texts, cache, run.others)
    subs: dict[str, list[ConceptStats]] = {}
    for st in stats:
        for o in st.concept.origin:
            subs.setdefault(o, []).append(st)
    # a task word nothing in the code says, and nothing stands in for, cannot tell files apart
    # …and one another root says is still the task's: this root's files just do not cover it
    task_stats = [st for st in stats if st.task and (st.hits or st.elsewhere
                                                      or subs.get(st.concept.text))]
    # a phrase (two words the code may join into one name) adds where a file says it, and
    # takes nothing from the files that say its words apart; a path the task names, likewise,
    # is evidence for the file it names (a squash's "* Unpin the version in setup.py" had every
    # other file of the task's words under 0.2), not a shortfall of every other file. A stack
    # frame stays in: a traceback's files are where the task is.
    task_mass = sum(st.concept.weight * st.idf for st in task_stats
                    if st.concept.kind not in MASSLESS) or 1.0
    other_stats = [st for st in stats if not st.task]
    learned_mass = sum(st.concept.weight * st.idf for st in other_stats) or 1.0
    cands = sorted(candidates, key=lambda c: c.bm25, reverse=True)[: max(limit, 1)]
    # dispatch hands out one candidate per file: the file id says whether it is in already
    taken = {c.file_id for c in cands}
    cands += [c for c in candidates if c.sources & {"path", "frame", "focus", "definition", "scope"}
              and c.file_id not in taken][:50]
    # half of the BM25 feature is the task's own concepts (stand-ins at their share): learned
    # terms come from the best files themselves, so they may lift a file, not crown it
    worded = [st for st in task_stats if st.concept.kind != "phrase"]
    task_bm25 = {c.file_id: _task_bm25(c.file_id, worded, subs) for c in cands}
    max_task_bm25 = max(task_bm25.values(), default=1.0) or 1.0
    max_bm25 = max((c.bm25 for c in cands), default=1.0) or 1.0
    max_named = max((st.concept.weight for st in stats if st.concept.kind in ("path", "frame")),
                    default=1.0)
    ident_mass = {
        st.concept.text.split(".")[-1].lower(): st.concept.weight * st.idf
        for st in stats if st.concept.kind == "identifier" and st.task and st.hits
    }
    ident_names = set(ident_mass)
    idents = sorted({st.concept.text.split(".")[-1] for st in stats
                     if st.concept.kind == "identifier" and st.task})
    ident_total = sum(sorted(ident_mass.values(), reverse=True)[:3]) or 1.0
    members = [(t.lower(), m.lower()) for t, m in query.members]

    w_cov = coverage_weight(len(task_stats))
    off = ablated_signals()
    # what each concept brings, whatever the candidate: worked out once, not per candidate.
    # A stand-in for a word the code says too (a synonym of `query`, which the top files only
    # happen not to say) is a guess at other wording: it counts once, for the word it stands in
    # for (`alternatives`), not again as learned evidence (`query` → find, lookup had a template
    # finder outrank the router's path builder); it still weighs in learned_mass (without it
    # there, the feedback terms alone made a larger share, and more files reached 0.7 on them).
    # One for a phrase or a word the code never writes (`rate limiting` → throttle) is the
    # code's own name for it, learned as the pattern means.
    said = {st.concept.text for st in task_stats if st.hits}
    per_concept = [
        (st, st.concept.weight * st.idf, st.concept.text, set(st.concept.terms),
         st.concept.kind in ("path", "frame", "scope"), subs.get(st.concept.text, ()))
        for st in task_stats + other_stats
        if st.task or len(st.concept.origin) != 1 or st.concept.origin[0] not in said
    ]
    path_stats = [st for st in stats if st.concept.kind in ("path", "frame")]
    tested_by = dict(query.tested)
    scope_stats = [st for st in stats if st.concept.kind == "scope"]
    evals: list[Evaluation] = []
    by_name: set[int] = set()  # files whose name says one of the task's own words
    symbols = index.symbols_of_many([c.file_id for c in cands])
    for c in cands:
        fid = c.file_id
        row = files.get(fid)
        if row is None:
            continue
        syms = symbols.get(fid, ())
        sym_stems, lower_names, names, lowered = _symbol_facts(syms)
        p_stems, name_stems = _path_stems(row.path)
        covered_task = covered_learned = sym_mass = path_mass = 0.0
        matched_words: list[str] = []
        stood_in: set[str] = set()  # task concepts that already read as a stand-in for a word
        in_part: list[str] = []  # the words of names it says only in part, after the rest
        covers: list[str] = []
        path_words: list[str] = []
        matched = c.matched
        for st, m, text, terms, is_path, alternatives in per_concept:
            via = None
            if fid not in st.hits and text not in matched:
                if not st.task:
                    continue
                if not alternatives:
                    continue
                via = next((x for x in alternatives if fid in x.hits), None)
                if via is None:
                    continue
                m *= substitute_share(via.concept)
                terms = terms | set(via.concept.terms)
            if st.task:
                covered_task += m
                if via is None:
                    covers.append(text)
                # said apart in the reason ("named in the task", "the task's scope")
                if not is_path:
                    if via is not None:
                        matched_words.append(f"{via.concept.text} (for {text})")
                        stood_in.add(via.concept.text)
                    elif (words := _said(index, cache, st.concept, fid)) == [text]:
                        matched_words.append(text)
                    else:
                        in_part.extend(words)
            else:
                covered_learned += m
            share = 1.0 if st.task else 0.5
            if not terms.isdisjoint(sym_stems):
                sym_mass += m * share
            who = st.concept if via is None else via.concept
            if not terms.isdisjoint(name_stems):
                if st.task and not is_path:
                    by_name.add(fid)
                path_mass += m * share
                path_words.extend([""] if is_path else _in_part(who, terms & name_stems))
            elif not terms.isdisjoint(p_stems):
                path_mass += 0.5 * m * share
                path_words.extend([""] if is_path else _in_part(who, terms & p_stems))
        # most files define none of the task's identifiers: one set test says so
        defines = (list(compress(names, map(ident_names.__contains__, lowered)))
                   if not ident_names.isdisjoint(lower_names) else [])
        # a type and its member the task names together (`Handler::handle()`, `Request.get_json`)
        # address one definition, as a path names a file: the file defining both is named (the
        # members are weighed by rarity otherwise, and a base class every handler extends and
        # says is common: monolog's AbstractProcessingHandler.php was 5th behind the file
        # defining the rarer method its fix calls)
        owns = bool(defines) and any(t in lower_names and m in lower_names for t, m in members)
        named = [st.concept.weight for st in path_stats if fid in st.hits]
        via_test = [tested_by[st.concept.text] for st in path_stats
                    if fid in st.hits and st.concept.text in tested_by] if tested_by else []
        explicit = max(named) / max_named if named else 0.0
        scoped = [(st.hits[fid] / SCOPE_HIT, st.concept.text)
                  for st in scope_stats if fid in st.hits]
        f = {
            "coverage": min(covered_task / task_mass, 1.0),
            "learned": covered_learned / learned_mass if covered_learned else 0.0,
            "bm25": (0.5 * task_bm25[c.file_id] / max_task_bm25 + 0.5 * c.bm25 / max_bm25),
            # share of the task's strongest identifiers that this file defines
            "defines": 1.0 if owns else min(
                1.0, sum(ident_mass[n] for n in {d.lower() for d in defines}) / ident_total),
            "symbol_terms": min(sym_mass / task_mass, 1.0),
            "path_terms": min(path_mass / task_mass, 1.0),
            "explicit": 1.0 if owns else explicit,
            "named_path": explicit,  # by a path or a frame only (signals._kind)
            "scope": max(scoped)[0] if scoped else 0.0,
            "focus": 1.0 if "focus" in c.sources else 0.0,
            "graph": 0.0,
            "declaration": 0.0 if query.about_types or not (
                DECLARATION_RE.search(row.path) or types_only(row.lang, syms)) else 1.0,
        }
        change = run.changes.get(row.path)
        editor = run.editor.get(row.path)
        if editor is not None:
            f["editor"] = editor[0]
        ev = Evaluation(
            path=row.path, relevance=0.0, reason="", cycle=cycle, features=f, kind=row.kind,
            change=change.reason if change else "", editor=editor[1] if editor else "",
            tested_by=via_test[0] if via_test and len(via_test) == len(named) else "",
            defines=list(dict.fromkeys(defines)), file_id=fid,
            # a stand-in that is a task concept too (`f-strings` for strings) is said once
            matched_words=[w for w in matched_words if w not in stood_in] + in_part,
            covers=covers, path_words=path_words, in_name=fid in by_name,
            symbols=syms,
            scopes=[t.strip("()") for _, t in sorted(scoped, reverse=True)],
        )
        ev.score = score(ev, w_cov, off)
        evals.append(ev)

    _weigh_changes(run, evals, w_cov, off, by_name)
    evals.sort(key=lambda e: e.score, reverse=True)
    # the costly pass, on the best few: import links to the strongest candidates
    stage2 = evals[:STAGE2]
    anchors = [e for e in stage2[:ANCHORS] if e.score >= ANCHOR_SCORE] if len(stage2) > 1 else []
    links = import_links(index, files, stage2, anchors)
    for ev in stage2:
        mine = [str(link) for link in links.get(id(ev), ())]
        ev.features["graph"] = min(len(mine), 3) / 3
        ev.graph_links = mine
        # the options the task names, where the code declares them (read on the best few only)
        if query.options and ev.kind == "source" and (code := run.read_text(ev.path)):
            ev.options = declared(code, query.options)
            ev.features["option"] = 1.0 if ev.options else 0.0
        ev.score = score(ev, w_cov, off)
    evals.sort(key=lambda e: e.score, reverse=True)
    all_terms = {t for st in stats for t in st.concept.terms}
    search = terms_search(all_terms)
    for rank, ev in enumerate(evals):
        if rank < STAGE2:
            ev.named = _named_symbols(ev, all_terms, search)
            ev.named_after = named_after(_symbol_facts(ev.symbols), idents)
        ev.reason = ev.evidence = reason(ev)
    return evals


STEMS_MEMO_MAX = 50_000
"""Paths whose stems, and import targets whose keys, are kept between retrievals."""
_SymbolFacts = tuple[set[str], set[str], tuple[str, ...], tuple[str, ...]]
_path_stems_memo: dict[str, tuple[set[str], set[str]]] = {}


TYPE_KINDS = frozenset({"type", "interface"})
ERASED_TYPES = frozenset({"typescript"})
"""Languages whose types are erased before the code runs: a module that declares only types
(`source/types/options.ts`) is a declaration file under another name. It says every option
and hook of the API, while a task about behaviour changes the code that reads them (not so in
Go or Rust, where a struct's fields are the data the code works on)."""
TYPES_SHARE = 0.8
"""…and so is one whose definitions are this share types and interfaces: pinia's `types.ts`
(32 of 37, a helper function and an enum among them) came before `store.ts` in tasks about
the store's behaviour."""


def types_only(lang: str | None, syms: Sequence[Symbol]) -> bool:
    """Whether a file of a language with erased types defines types (at least TYPES_SHARE of
    its definitions)."""
    if lang not in ERASED_TYPES or not syms:
        return False
    kinds = (list(map(itemgetter(2), syms.rows)) if isinstance(syms, SymbolRows)
             else [s.kind for s in syms])
    return sum(k in TYPE_KINDS for k in kinds) >= TYPES_SHARE * len(kinds)


def _symbol_facts(syms: Sequence[Symbol]) -> _SymbolFacts:
    """The stems of a file's definitions, the set of their lower-case names, and their names
    and lower-case names in order; kept with the index's rows (one object per file version), so
    between cycles and retrievals, and never for a rewritten file."""
    if isinstance(syms, SymbolRows):
        hit = syms.derived.get("facts")
        if hit is not None:
            return hit  # from the stored rows, without a Symbol per definition
        rows = syms.rows
        stored = list(map(itemgetter(5), rows))
        stems = set(" ".join(stored).split())
        if "" in stored or any(map(str.isspace, stored)):  # (checked in C: mostly none)
            for _, name, _, _, _, terms in rows:
                if not terms or terms.isspace():  # no stored terms: split the name, as below
                    stems.update(stemmed_terms(name))
        names = tuple(map(itemgetter(1), rows))
    else:
        stems = {t for s in syms for t in (s.terms or stemmed_terms(s.name))}
        names = tuple(s.name for s in syms)
    lowered = tuple(map(str.lower, names))
    facts = (stems, set(lowered), names, lowered)
    if isinstance(syms, SymbolRows):
        syms.derived["facts"] = facts
    return facts


def named_after(facts: _SymbolFacts, idents: Sequence[str]) -> list[str]:
    """Definitions named after what the task names, at a word boundary: a printer's
    `_print_Poly` or a visitor's `visitCall` for the task's `Poly` or `Call`."""
    _, _, names, lowered = facts
    lows = tuple(low for low in (ident.lower() for ident in idents) if low)
    if not lows:
        return []
    out: list[str] = []
    # one C-speed test per name: most files have none
    ends = map(methodcaller("endswith", lows), lowered)
    for name, lname in compress(zip(names, lowered, strict=True), ends):
        for low in lows:
            k = len(name) - len(low)
            if k <= 0 or not lname.endswith(low):
                continue
            prev, head = name[k - 1], name[k]
            if not prev.isalnum() or (head.isupper() and (prev.islower() or prev.isdigit())):
                out.append(name)
                break
    return list(dict.fromkeys(out))


def _path_stems(path: str) -> tuple[set[str], set[str]]:
    """Stems of a path and of its file name, remembered between cycles and retrievals."""
    hit = _path_stems_memo.get(path)
    if hit is None:
        if len(_path_stems_memo) >= STEMS_MEMO_MAX:
            _path_stems_memo.clear()
        hit = _path_stems_memo[path] = (
            {stem(t) for t in path_terms(path)},
            {stem(t) for t in path_terms(path.rsplit("/", 1)[-1])},
        )
    return hit


def _named_symbols(
    ev: Evaluation, terms: set[str], search: Callable[[str], Iterable[re.Match]] | None = None
) -> list[str]:
    """Definitions whose names carry the task's words, most words first (for the reason).

    `search` is terms_search(terms), made once per cycle: it finds, in C, the stored rows whose
    stems say one of the words, so that a generated file's thousands of names cost one scan.
    """
    syms = ev.symbols
    if terms.isdisjoint(_symbol_facts(syms)[0]):
        return []  # no definition's name carries any of them
    rows = syms if isinstance(syms, SymbolRows) else None
    lines = _symbol_lines(rows) if rows is not None else None
    if lines is None or search is None or rows is None:
        named = (
            ((name, start, t.split()) for _, name, _, start, _, t in syms.rows)
            if isinstance(syms, SymbolRows) else
            ((s.name, s.start_line, s.terms) for s in syms)
        )
        scored = []
        for name, start, stored in named:
            words = stored or stemmed_terms(name)
            if terms.isdisjoint(words):
                continue
            scored.append((-len(terms.intersection(words)), start, name))
    elif (by_stem := _stem_rows(rows)) is not None:
        counts: dict[int, int] = {}  # row → how many of the terms its stems say
        for t in terms:
            for i in by_stem.get(t, ()):
                counts[i] = counts.get(i, 0) + 1
        scored = [(-n, rows.rows[i][3], rows.rows[i][1]) for i, n in counts.items()]
    else:
        joined, starts, unstored = lines
        hit = {bisect.bisect_right(starts, m.start()) - 1 for m in search(joined)}
        hit.update(i for i, words in unstored if not terms.isdisjoint(words))
        scored = []
        for i in hit:
            _, name, _, start, _, t = rows.rows[i]
            n = len(terms.intersection(t.split() or stemmed_terms(name)))
            if n:
                scored.append((-n, start, name))
    scored.sort()
    return list(dict.fromkeys(name for _, _, name in scored))[:6]


def terms_search(terms: set[str]) -> Callable[[str], Iterable[re.Match]] | None:
    """finditer for the whole whitespace-separated tokens equal to one of the terms (a term
    with whitespace in it can equal no token); None when no term can."""
    usable = [t for t in terms if t and not any(c.isspace() for c in t)]
    if not usable:
        return None
    if all(t == t.lower() for t in usable):  # trie_regex lower-cases: only then is it exact
        body = trie_regex(sorted(usable, key=len, reverse=True))
    else:
        body = "|".join(map(re.escape, sorted(usable, key=len, reverse=True)))
    return re.compile(r"(?<!\S)(?:" + body + r")(?!\S)").finditer


STEM_MAP_AFTER = 3
"""Scans of one file's stems before it gets a stem → rows map (a server's next retrievals
come back to the same files; a one-off CLI run would spend more building it than it saves)."""


def _stem_rows(syms: SymbolRows) -> dict[str, list[int]] | None:
    """stem → the rows whose stems say it, each row once per stem; None until the file has
    been scanned STEM_MAP_AFTER times. Kept with the rows."""
    by_stem = syms.derived.get("by_stem")
    if by_stem is None:
        calls = syms.derived["scans"] = syms.derived.get("scans", 0) + 1
        if calls <= STEM_MAP_AFTER:
            return None
        by_stem = {}
        for i, (_, name, _, _, _, t) in enumerate(syms.rows):
            for w in set(t.split() or stemmed_terms(name)):
                by_stem.setdefault(w, []).append(i)
        syms.derived["by_stem"] = by_stem
    return by_stem


def _symbol_lines(
    syms: SymbolRows,
) -> tuple[str, list[int], list[tuple[int, tuple[str, ...]]]] | None:
    """A file's stored stems, one definition a line, with the lines' offsets, and the
    definitions without stored stems (split from the name instead); None if a row's stems
    hold a line break (then the rows are read one by one). Kept with the rows."""
    if "lines" in syms.derived:
        return syms.derived["lines"]
    stored = list(map(itemgetter(5), syms.rows))
    joined = "\n".join(stored)
    lines: tuple[str, list[int], list[tuple[int, tuple[str, ...]]]] | None = None
    if joined.count("\n") == max(len(stored) - 1, 0):
        starts = [0, *map(add, accumulate(map(len, stored)), count(1))]
        unstored = []
        if "" in stored or any(map(str.isspace, stored)):
            unstored = [(i, stemmed_terms(row[1])) for i, row in enumerate(syms.rows)
                        if not row[5] or row[5].isspace()]
        lines = (joined, starts, unstored)
    syms.derived["lines"] = lines
    return lines


_hit_lines = TextMemo[list[tuple[int, tuple[str, ...]]]](max_chars=4_000_000)
"""hit_lines by (stems pattern, text): the server's next retrieval of a task reads the same."""


def _weigh_changes(run: Run, evals: list[Evaluation], w_cov: float, off: frozenset[str],
                   by_name: set[int]) -> None:
    """The changed files' signal, as far as the task is about the work in progress (run.lean:
    it says so, or the work's own text says the task's words), down to CHANGE_FLOOR: a task
    about something else is not pulled towards the developer's files.

    The file the task's own evidence puts first, when its name says one of the task's words
    and it is none of the work's (`fish completion` → fish_completions.go, on a branch that
    changed completions.go), stays ahead of the work's files: the task has said where it is.
    Unless the task says it is about the work (lean 1)."""
    if not run.changes:
        return
    share = CHANGE_FLOOR + (1 - CHANGE_FLOOR) * run.lean
    cap = None
    lead = max(evals, key=lambda e: e.score, default=None)
    if lead is not None and lead.file_id in by_name and run.lean < 1.0:
        theirs = run.changes.get(lead.path)
        if theirs is None or theirs.kind not in WORK_KINDS:
            cap = min(evidence(lead, w_cov, off) - LEAD_MARGIN, evidence_below(lead.score))
    for ev in evals:
        change = run.changes.get(ev.path)
        if change is None:
            continue
        x = change.strength * share
        if cap is not None and ev is not lead and change.kind in WORK_KINDS \
                and not BY_NAME["changed"].off(off):
            x = max(0.0, min(x, (cap - evidence(ev, w_cov, off)) / BY_NAME["changed"].weight))
        ev.features["changed"] = x
        ev.score = score(ev, w_cov, off)


def substitute_share(stand_in: Concept) -> float:
    """How much of a task word a stand-in for it covers."""
    return PHRASE_SHARE if len(stand_in.origin) > 1 else SUBSTITUTE_SHARE


def _task_bm25(fid: int, task_stats: list[ConceptStats],
               subs: dict[str, list[ConceptStats]]) -> float:
    total = 0.0
    for st in task_stats:
        score = st.hits.get(fid, 0.0)
        if not score:
            alternatives = subs.get(st.concept.text)
            score = max((substitute_share(x.concept) * x.hits.get(fid, 0.0) for x in alternatives),
                        default=0.0) if alternatives else 0.0
        total += st.concept.weight * score
    return total


def concept_stems(concepts: list[Concept]) -> list[str]:
    """The stems a line must contain to count as a hit, longest first (for the regex)."""
    return sorted({t for c in concepts for t in c.terms if len(t) >= 3 and " " not in t},
                  key=len, reverse=True)


MAX_STEMS = 300
TASK_STEM_FACTOR = 2.0
"""A word of the task itself tells more about a line than a term the loop learned."""


def stem_weights(index: Index, concepts: list[Concept],
                 task_concepts: list[Concept]) -> dict[str, float]:
    """What a line that says each stem is worth: rarer in the repository, and the task's own,
    more."""
    stems = concept_stems(concepts)[:MAX_STEMS]
    if not stems:
        return {}
    n = max(index.file_count(), 2)
    dfs = index.doc_freqs(stems)
    task = {t for c in task_concepts for t in c.terms}
    return {
        s: math.log((n + 1) / (dfs.get(s, 0) + 0.5)) * (TASK_STEM_FACTOR if s in task else 1.0)
        for s in stems
    }


def text_pass(
    evals: list[Evaluation], weights: dict[str, float], read_text: Callable[[str], str | None]
) -> None:
    """Hit lines with the stems each says, and what a stem is worth, for the chosen files'
    regions."""
    if not weights:
        return
    pattern = trie_regex(sorted(weights, key=len, reverse=True))
    search = re.compile(pattern).search
    for ev in evals:
        text = read_text(ev.path)
        if text is None:
            continue
        hits = _hit_lines.get((pattern, text), text, lambda t: hit_lines(t, search))
        ev.hit_lines = [ln for ln, _ in hits]
        ev.hit_terms = [terms for _, terms in hits]
        ev.term_weights = weights


def hit_lines(text: str, search: Callable, limit: int = 400) -> list[tuple[int, tuple[str, ...]]]:
    """(1-based line, distinct stems) of the lines with a match: one C-speed scan per hit."""
    low = text.lower()
    starts = [0]
    find = low.find
    i = find("\n")
    while i != -1:
        starts.append(i + 1)
        i = find("\n", i + 1)
    out: list[tuple[int, tuple[str, ...]]] = []
    pos = 0
    while len(out) < limit:
        m = search(low, pos)
        if m is None:
            break
        line = bisect.bisect_right(starts, m.start())
        end = starts[line] if line < len(starts) else len(low)
        seen = {m.group(0)}
        j = m.end()
        while True:
            m2 = search(low, j, end)
            if m2 is None:
                break
            seen.add(m2.group(0))
            j = max(m2.end(), j + 1)
        out.append((line, tuple(sorted(seen))))
        if line >= len(starts):
            break
        pos = starts[line]
    return out


def trie_regex(words: list[str]) -> str:
    """One alternation as a prefix trie: Python's re tries a flat alternation word by word."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w.lower():
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_pattern(trie)


def _trie_pattern(node: dict) -> str:
    if "" in node and len(node) == 1:
        return ""
    alts = []
    optional = False
    for ch, child in sorted(node.items()):
        if ch == "":
            optional = True
            continue
        alts.append(re.escape(ch) + _trie_pattern(child))
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    if optional:
        return "(?:" + body + ")?"
    return body
