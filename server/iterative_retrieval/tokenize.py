"""Identifier-aware tokenization shared by the index and the query.

Code names things in compounds (`getUserById`, `rate_limiter`, `jwt-utils`), tasks name them in
words. Emitting both the parts and the joined whole lets "user id" find `getUserById` and
`getUserById` find exactly itself. The index and the query must tokenize alike, so both use this.

`reference_term_counts` says what a text's terms are, in a few readable lines: every name in
it, split by `split_identifier`, filtered and stemmed. The index counts them with
`term_counts_upto`, in C where the accelerator is built (_speedups.c) and otherwise with a
faster Python path that works run by run through memos; tests/test_speedups.py holds all three
equal. The fast Python path is kept because a pure install (the VS Code extension's bundled
server) indexes with it: on a sympy tree (1,544 files, 27.8 MB) the reference counts in 8.6 s,
the fast path in 0.9 s, C in 0.23 s.
"""

from __future__ import annotations

import functools
import os
import re
import string
from collections import Counter
from collections.abc import Callable
from itertools import repeat
from operator import add, mul
from types import ModuleType
from typing import TypeVar

# A name, or digits glued to a name (`3dTexture`). The digit branch starts only at the head of a
# digit run and never backtracks: otherwise a long run of digits with no letter after it (a file
# of pi's digits) is re-scanned from every position, quadratic in its length. Same matches.
IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|(?<![0-9])[0-9]++[A-Za-z_][A-Za-z0-9_]*")
# The parts of a name: camelCase / PascalCase / ACRONYMWord boundaries, a digit run glued to the
# word before it (v2, utf8, sha256), a digit run alone. The one splitter of this module.
_PARTS_RE = re.compile(r"(?:[A-Z]{2,}(?=s(?![a-z]))|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+)"
                       r"[0-9]*|[0-9]+")
"""A name's parts: words and acronyms (HTTP|Server), an acronym's plural as the acronym and its
`s` (allowed|URL|s, user|ID|s: not UR|Ls, I|Ds), which is too short to be a term."""
_SEP_RE = re.compile(r"[_$\-.]+")

MIN_PART = 2
MAX_TOKEN = 40
MAX_NAME = 80  # longer names (generated, minified, encoded data) give no terms
CACHE_MAX = 200_000
"""Entries per memo below; each parse worker fills its own, so together they stay near 100 MB
per process on the largest trees (at 500k they reached 300 MB per worker on Linux)."""

T = TypeVar("T")


class _Memo(dict[str, T]):
    """key → compute(key), at most `size` entries in two generations.

    When the young half is full it becomes the old one (the older is dropped), and an old entry
    asked for again moves back: memory stays bounded on the largest trees, and the names in use
    stay hits (a memo that stops adding at its cap misses every new name for ever after).
    Lookups are plain dict lookups (in C); only a miss runs Python.
    """

    def __init__(self, compute: Callable[[str], T], size: int) -> None:
        super().__init__()
        self.compute = compute
        self.half = max(1, size // 2)
        self.old: dict[str, T] = {}

    def __missing__(self, key: str) -> T:
        value = self.old.get(key)
        if value is None:
            value = self.compute(key)
        if len(self) >= self.half:
            self.old = dict(self)
            self.clear()
        self[key] = value
        return value


# Keywords and boilerplate of the common languages: frequent everywhere, so they only add noise
# and index size. Task stop words live in query.py.
CODE_STOP = frozenset(
    """
    if else elif for while do return def class self this function func fn var let const import from
    as in is not and or none null nil true false new try except catch finally throw throws raise
    with pass break continue public private protected static void int str bool string float double
    char long short byte unsigned signed struct enum interface extends implements package namespace
    using include end begin then lambda yield async await typeof instanceof switch case default
    goto sizeof export module require super cls args kwargs println printf fmt err ok the of to
    a an be it at on by we you use get set
    """.split()
)


def split_identifier(ident: str) -> list[str]:
    """`getUserByID_v2` → ['get', 'user', 'by', 'id', 'v2']: lower-case parts of one identifier.

    Separators (`_`, `$`, `-`, `.`) split it into chunks, _PARTS_RE splits each chunk; a digit
    run that other characters part from the word before it is still glued to it (`ab€2` → ab2).
    """
    parts: list[str] = []
    for chunk in _SEP_RE.split(ident):
        merged: list[str] = []
        for p in _PARTS_RE.findall(chunk):
            if p.isdigit() and merged and not merged[-1].isdigit():
                merged[-1] += p
            else:
                merged.append(p)
        parts.extend(m.lower() for m in merged)
    return parts


def reference_term_counts(text: str) -> Counter[str]:
    """The index's terms of a text, by definition: every name in it (IDENT_RE), split into its
    parts, each part that is at least MIN_PART long, no code stop word and no number, and the
    whole of a compound (at most MAX_TOKEN long), all stemmed; a name over MAX_NAME characters
    gives none. term_counts counts exactly these, faster (tests/test_speedups.py)."""
    counts: Counter[str] = Counter()
    for m in IDENT_RE.finditer(text):
        name = m.group()
        if len(name) <= MAX_NAME:
            counts.update(stem(t) for t in _identifier_terms(name))
    return counts


def identifier_terms(ident: str) -> list[str]:
    """Index terms for one identifier: its parts, and the whole joined when it is a compound."""
    return list(_TERMS[ident])


def _identifier_terms(ident: str) -> tuple[str, ...]:
    parts = split_identifier(ident)
    out = [p for p in parts if len(p) >= MIN_PART and p not in CODE_STOP and not p.isdigit()]
    if len(parts) > 1:
        whole = "".join(parts)
        if len(whole) <= MAX_TOKEN:
            out.append(whole)
    return tuple(out)


_TERMS = _Memo(_identifier_terms, CACHE_MAX // 2)


def path_terms(path: str) -> list[str]:
    """Terms of a relative path: every folder and the file name, split like identifiers."""
    out: list[str] = []
    for seg in re.split(r"[/\\]", path):
        stem = seg.rsplit(".", 1)[0] if "." in seg[1:] else seg
        out.extend(identifier_terms(stem))
    return out


def stemmed_terms(ident: str) -> tuple[str, ...]:
    """Stemmed index terms of one identifier, memoised: identifiers repeat across a codebase."""
    return _STEMMED[ident]


def _stemmed_terms(ident: str) -> tuple[str, ...]:
    if _RUN_NAME.fullmatch(ident):
        # the same terms, from the memo of the body text's runs: a file's names are in its text
        return _run_tuple(ident)
    return tuple(stem(t) for t in identifier_terms(ident)) if len(ident) <= MAX_NAME else ()


# A name that is one run of identifier characters, as IDENT_RE matches it whole.
_RUN_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


_STEMMED = _Memo(_stemmed_terms, CACHE_MAX)


# Runs of identifier characters ([A-Za-z0-9_$]+); IDENT_RE then splits each distinct run once
# (its matches never cross runs). A byte table finds them in C, three times faster than a regex:
# every other byte becomes a space, and UTF-8 writes a non-ASCII character as bytes >= 0x80, so
# those separate runs as the character would.
_RUN_CHARS = (string.ascii_letters + string.digits + "_$").encode()
_RUN_BYTES = bytes(c if c in _RUN_CHARS else 32 for c in range(256))


def _runs(text: str) -> list[str]:
    """The runs of identifier characters in a text, in order (the list a regex findall makes)."""
    return text.encode("utf-8", "surrogatepass").translate(_RUN_BYTES).decode("ascii").split()


def _run_terms(run: str) -> str:
    """A run of identifier characters → its stemmed terms, each followed by a space."""
    if run.isdigit():
        return ""  # a number names nothing
    if run.isalpha() and (run.islower() or run.isupper() or run.istitle()):
        # one word (`token`, `Token`, `TOKEN`): what split_identifier would make of it
        w = run.lower()
        return "" if not MIN_PART <= len(w) <= MAX_NAME or w in CODE_STOP else stem(w) + " "
    if run[0].isdigit():  # maybe digits, then names
        return "".join(map(_name_terms, IDENT_RE.findall(run)))
    return _name_terms(run)  # one IDENT_RE match


_RUN_TERMS = _Memo(_run_terms, CACHE_MAX)

# The optional C accelerator (setup.py builds it where a compiler is found); IR_PURE_PYTHON=1
# turns it off, to compare the two paths. It is configured with this module's constants at the
# end of the module.
_speedups: ModuleType | None
try:
    from . import _speedups
except ImportError:  # no compiler at install time: the same counts, in Python
    _speedups = None
if os.environ.get("IR_PURE_PYTHON"):
    _speedups = None


def _run_tuple(run: str) -> tuple[str, ...]:
    """A run's stemmed terms: made in C where the accelerator is built, otherwise taken from
    the memo that the Python counting path fills."""
    if _speedups is not None:
        return _speedups.run_terms(run)
    return tuple(_RUN_TERMS[run].split())


def _name_terms(ident: str) -> str:
    """stemmed_terms of an IDENT_RE match, each followed by a space, without its memo.

    Every distinct name of a tree passes here once per parse worker (a million on Linux):
    the parts are lowered, filtered and stemmed by C-level maps over a memo of parts, which
    repeat far more than names do. For a name of [A-Za-z0-9_$] only, _PARTS_RE over the whole
    name gives split_identifier's parts (`_` and `$` match nothing, so they separate).
    """
    if len(ident) > MAX_NAME:
        return ""
    parts = " ".join(_PARTS_RE.findall(ident)).lower().split()
    out = " ".join(filter(None, map(_PART_TERMS.__getitem__, parts)))
    if len(parts) > 1:
        whole = "".join(parts)
        if len(whole) <= MAX_TOKEN:  # a compound's whole: rarely seen again, not memoised
            out = f"{out} {_stem(whole)}" if out else _stem(whole)
    return out + " " if out else ""


def _part_term(part: str) -> str:
    """A lower-case part's stemmed term, or "" for one that is not indexed."""
    if len(part) < MIN_PART or part in CODE_STOP or part.isdigit():
        return ""
    return stem(part)


_PART_TERMS = _Memo(_part_term, CACHE_MAX // 2)


def term_counts(text: str) -> Counter[str]:
    """Stemmed term frequencies of a text, in order of first appearance.

    It runs on every indexed file: in C where the accelerator is built (_speedups.c), otherwise
    with the per-term work still in C-level calls: count the distinct runs, join each run's terms
    repeated by its count, and count the terms of that stream.
    """
    if _speedups is not None:
        return Counter(_speedups.count_terms(text, 0))
    return _py_counts(text, None)


def term_counts_upto(text: str, cap: int) -> dict[str, int]:
    """term_counts, exact below `cap`; a count of `cap` or more may be any number >= cap.

    For the index, which stores at most `cap` of each term, in less time: every run's count is
    cut to `cap` before its terms are added up. A term that some run with it reaches the cap
    with is >= cap either way; any other term's count was not cut at all.
    """
    if _speedups is not None:
        return _speedups.count_terms(text, cap)
    return _py_counts(text, cap)


def _py_counts(text: str, cap: int | None) -> Counter[str]:
    """The pure-Python path (and the reference the C one is tested against)."""
    runs = Counter(_runs(text))
    times = runs.values() if cap is None else map(capped(cap), runs.values(), repeat(cap))
    stream = "".join(map(mul, map(_RUN_TERMS.__getitem__, runs.keys()), times))
    return Counter(stream.split())


def capped_text(counts: dict[str, int], cap: int) -> str:
    """Each term repeated min(count, cap) times, space-separated, in the dict's order: the
    index's body column (in C where the accelerator is built; here with C-level calls)."""
    if _speedups is not None:
        return _speedups.body_text(counts, cap)
    return _py_capped_text(counts, cap)


def _py_capped_text(counts: dict[str, int], cap: int) -> str:
    if not counts:
        return ""
    spaced = map(add, counts.keys(), repeat(" "))
    return "".join(map(mul, spaced, map(capped(cap), counts.values(), repeat(cap))))[:-1]


@functools.lru_cache(maxsize=8)
def capped(cap: int) -> Callable[[int, int], int]:
    """A function of (n, cap) → min(n, cap) for counts n >= 0, a dict's `get`: mapped over
    every distinct run of every file, it costs half what `min` does."""
    return {n: n for n in range(cap)}.get


_STEM_SUFFIXES = (
    "izations", "ization", "ations", "ation", "ators", "ator", "ments", "ment", "ness", "ings",
    "ing", "ions", "ion", "ated", "ates", "ate", "ies", "ied", "ers", "er", "ed", "es", "ly", "s",
)
_MIN_STEM = 4


def stem(word: str) -> str:
    """A light suffix stripper so that expiry/expires/expiration and token/tokens meet.

    Deliberately weaker than Porter: code vocabulary is full of short names where aggressive
    stemming merges unrelated words, and it must be cheap enough to run on every indexed term.
    """
    w = word.lower()
    return w if len(w) <= _MIN_STEM else _STEMS[w]


def _stem(w: str) -> str:
    out = w
    for suf in _STEM_SUFFIXES if w.endswith(_STEM_SUFFIXES) else ():
        if w.endswith(suf) and len(w) - len(suf) >= _MIN_STEM:
            if suf == "s" and w[-2] in "su":  # class, status, analysis
                continue
            if suf == "es" and w[-3] not in "sxzhi" and w[-3] not in "aeiou":
                out = w[:-1]  # "bytes" -> "byte" (then trimmed below)
            else:
                out = w[: -len(suf)]
            # renderers, rendered and render meet: a word that ends in -er loses it
            # whatever suffix came after it
            if out.endswith("er") and len(out) - 2 >= _MIN_STEM:
                out = out[:-2]
            break
    if len(out) > _MIN_STEM and out[-1] in "ey":
        out = out[:-1]
    return out


_STEMS = _Memo(_stem, CACHE_MAX)


if _speedups is not None:
    # the C path splits and stems runs itself (a few hundred thousand distinct runs per tree
    # and worker), with this module's constants, and keeps up to CACHE_MAX runs' terms
    _speedups.configure(sorted(CODE_STOP), _STEM_SUFFIXES, MIN_PART, MAX_TOKEN, MAX_NAME,
                        _MIN_STEM, CACHE_MAX)
