"""Gitignore-style patterns, matched fast: `.gitignore` files, settings and the loop's own.

pathspec knows the full gitignore rules but tries the patterns one by one in Python; a walk asks
for every path of the tree, and dispatch for every candidate. The quick tests here answer most
paths in C and leave the rest to pathspec, which is imported only when some pattern needs it
(a git repository and no settings need none: its import is a tenth of a CLI start).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_NAMED_GROUP = re.compile(r"\(\?P<\w+>")
_ANY_FOLDER, _SEGMENT_END = "^(?:.+/)?", "(?:/|$)"
_LITERAL = re.compile(r"(?:[^\\.^$*+?{}\[\]|()/]|\\[^A-Za-z0-9])+")
_ANY_NAME = "[^/]*"


class GitIgnore:
    """pathspec's gitignore matching, with a quick test of all the patterns first.

    pathspec tries the patterns one by one, in Python: Linux's top `.gitignore` alone made the
    walk of its 78k files take 6.5 s. Most paths match no pattern at all. Most patterns name a
    file or folder anywhere (`*.o`, `.tmp_versions`, `modules.order`): a path matches one when
    one of its segments ends with, starts with or is a literal, which sets and `str` methods
    say in C; the other patterns are tried as one regex. A path that passes goes to pathspec,
    which knows which pattern is the last to match (a `!negation` can undo an earlier one).
    """

    __slots__ = ("_names", "_normalize", "_path", "_prefixes", "_quick", "_segment",
                 "_suffixes", "spec")

    def __init__(self, lines: list[str]):
        import pathspec
        from pathspec.pattern import RegexPattern
        from pathspec.util import lookup_pattern, normalize_file

        # pathspec's own patterns, their regexes made linear (_linear); its pure-Python
        # backend, which the rewritten regexes need (re2 and hyperscan know no atomic groups).
        # A line pathspec refuses (a lone `\` or `!`) matches nothing, as in git: one such
        # line in a .gitignore stopped every index of the folder.
        make = lookup_pattern("gitignore")
        patterns = [p for p in (_or_none(make, line) for line in lines if line) if p is not None]
        self.spec = pathspec.PathSpec([
            RegexPattern(re.compile(_linear(p.regex.pattern), p.regex.flags), p.include)
            if p.include is not None and isinstance(getattr(p, "regex", None), re.Pattern)
            else p
            for p in patterns
        ], backend="simple")
        self._normalize = normalize_file
        names: set[str] = set()
        suffixes: list[str] = []
        prefixes: list[str] = []
        segment: list[str] = []
        path: list[str] = []
        plain = re.compile("").flags
        live = [rx for p in self.spec.patterns
                if p.include is not None and (rx := getattr(p, "regex", None)) is not None]
        # a pattern with flags or a back-reference cannot join the others: pathspec alone
        self._quick = all(rx.flags == plain and "(?P=" not in rx.pattern for rx in live)
        for rx in live if self._quick else ():
            src = _NAMED_GROUP.sub("(?:", rx.pattern)
            body = src[len(_ANY_FOLDER):-len(_SEGMENT_END)]
            if not (src.startswith(_ANY_FOLDER) and src.endswith(_SEGMENT_END)) or \
                    "/" in body.replace("[^/]", ""):
                path.append(src)  # anchored, or spanning folders: tried on the whole path
            elif _LITERAL.fullmatch(body):
                names.add(_unescape(body))
            elif body.startswith(_ANY_NAME) and _LITERAL.fullmatch(body[len(_ANY_NAME):]):
                suffixes.append(_unescape(body[len(_ANY_NAME):]))
            elif body.endswith(_ANY_NAME) and _LITERAL.fullmatch(body[:-len(_ANY_NAME)]):
                prefixes.append(_unescape(body[:-len(_ANY_NAME)]))
            else:
                segment.append(body)
        self._names = names
        self._suffixes, self._prefixes = tuple(suffixes), tuple(prefixes)
        try:
            self._segment = re.compile("|".join(segment)) if segment else None
            self._path = re.compile("|".join(f"(?:{x})" for x in path)) if path else None
        except re.error:  # an odd pattern: pathspec alone
            self._quick, self._segment, self._path = False, None, None

    def match_file(self, path: str) -> bool:
        if self._quick and "\n" not in path and not self._may_match(path):
            return False
        return self.spec.match_file(path)

    def _may_match(self, path: str) -> bool:
        norm = self._normalize(path)
        if self._path is not None and self._path.match(norm):
            return True
        for seg in norm.split("/"):
            if seg in self._names or seg.endswith(self._suffixes) or \
                    seg.startswith(self._prefixes) or \
                    (self._segment is not None and self._segment.fullmatch(seg)):
                return True
        return False


# `[^/]*` then a literal, before another `[^/]*`: a star that a later star follows.
_STAR_THEN_LITERAL = re.compile(r"\[\^/\]\*(" + _LITERAL.pattern + r")(?=\[\^/\]\*)")


def _linear(regex: str) -> str:
    """A glob's regex that cannot backtrack over a name in polynomial time.

    pathspec writes `*a*a*a*b` as `[^/]*a[^/]*a[^/]*a[^/]*b`, which tries every way to place
    the literals: a user's or a `.gitignore`'s pattern with a few stars took a minute over 2000
    long names. Within one name, placing every literal but the last at its first occurrence
    loses no match (the star after it absorbs the gap), so those stars become atomic and lazy,
    `(?>[^/]*?a)`; the last keeps its backtracking, linear on its own.
    """
    return _STAR_THEN_LITERAL.sub(r"(?>[^/]*?\1)", regex)


def _or_none(make: Callable, line: str):
    try:
        return make(line)
    except ValueError:  # pathspec's GitIgnorePatternError
        return None


def pattern_error(pattern: str) -> str | None:
    """Why a gitignore-style pattern cannot be read, or None: for settings, which are refused
    with a message, where a .gitignore's bad line is passed over."""
    from pathspec.util import lookup_pattern

    try:
        lookup_pattern("gitignore")(pattern)
    except ValueError:
        if pattern.strip() == "!":
            return "a lone '!' negates nothing"
        if pattern.endswith("\\"):
            return "it ends with a backslash, which escapes nothing"
        return "it is not a gitignore-style pattern"
    return None


def _unescape(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal)


_GLOB_CHARS = frozenset("*?[]!\\#")


def path_matcher(patterns: Iterable[str]) -> Callable[[str], bool]:
    """Whether a relative path matches any of the gitignore-style patterns.

    The loop's own patterns are folders of good files (`src/auth/**`) and paths it excluded:
    those are prefix tests. Anything else (a user's globs) goes to GitIgnore.
    """
    lines = list(patterns)
    prefixes = []
    for line in lines:
        lit = line.removesuffix("/**")
        lit = lit.removeprefix("/")
        # a literal with a slash inside is anchored at the root, like a path
        if not lit or "/" not in lit.strip("/") or lit != lit.strip() or lit.endswith("/") \
                or not _GLOB_CHARS.isdisjoint(lit) or "//" in lit or "/./" in f"/{lit}/" \
                or "/../" in f"/{lit}/":
            return GitIgnore(lines).match_file
        prefixes.append(lit + "/")
        if not line.endswith("/**"):
            prefixes.append(lit)
    whole = frozenset(p for p in prefixes if not p.endswith("/"))
    heads = tuple(p for p in prefixes if p.endswith("/"))
    return lambda path: path in whole or path.startswith(heads)
