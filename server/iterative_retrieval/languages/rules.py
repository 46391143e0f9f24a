"""The definition rules a language family is described by, and matching one against a line.

A family module (javascript.py, go.py, …) describes its language as a `Spec`: how to clean it,
its `Rule`s (anchored regexes that say what a line starting a definition looks like), how to
find its imports, and optional hooks for what rules cannot say (C functions have no keyword,
Ruby's blocks are keywords, Go groups declarations). braces.py runs a Spec over a file.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Getter = Callable[[str], str | None]
"""A match's group by its rule-local name ("n", "k", …; "*" is the whole match)."""
Judge = Callable[[Getter, str, bool], str | None]
"""(groups, name, inside a class body) → the definition's kind, or None: not a definition."""
Importer = Callable[[list[str], list[str]], list[str]]
"""(raw lines, cleaned lines) → the imported module paths or names, as written."""


@dataclass(frozen=True)
class Rule:
    """One definition pattern, matched at the start of a stripped line.

    The pattern names the definition with group `n` and, when the keyword picks the kind, group
    `k` (looked up in `kinds`). `body` says what a brace body opened by the definition is: `func`
    (its insides are skipped), `class` (functions in it are methods), `ns` (transparent).
    """

    pattern: str
    kind: str | None = None
    scope: str = "any"
    """top, member (directly in a class body) or any."""
    body: str | None = None
    kinds: Mapping[str, tuple[str, str | None]] | None = None
    """The keyword (group `k`, spaces collapsed) → (kind, body)."""
    judge: Judge | None = None
    col0: bool = False
    """Only at column 0."""
    ctor: bool = False
    """Only when the name is the enclosing class's name."""
    block: bool = False
    """A Go `const (` / `var (` / `type (` group: its items are definitions (Spec.group_item)."""
    inner: bool = False
    """Also tried inside function bodies (Spec.inner_gate), whose insides are otherwise not
    outlined."""


@dataclass(frozen=True)
class Found:
    """What a line that starts a definition defines (the start may be a line above it)."""

    name: str | None
    kind: str | None
    body: str | None
    start: int


@dataclass(frozen=True)
class Spec:
    """How one language family is cleaned, outlined and mined for imports."""

    cleaner: re.Pattern[str]
    rules: tuple[Rule, ...]
    imports: Importer
    annotations: tuple[str, ...] = ()
    """Line starts of decorators, annotations and attributes, which a definition starts at."""
    keyword_blocks: Callable[[str], list[str]] | None = None
    """A line's block openers and ends as virtual braces, for a language whose blocks are
    keywords (Ruby's `def`…`end`) instead of braces."""
    hook: Callable[[str, list[str], int, bool, str | None], Found | None] | None = None
    """A definition no rule can say (a C function has no keyword): (stripped line, cleaned
    lines, line, inside a class body, the class's name) → what it defines."""
    group_item: Callable[[str, str, int], Found | None] | None = None
    """A name declared inside a group (Rule.block): (the group's kind, stripped line, line)."""
    bodyless_fallback: bool = False
    """No brace body: a definition ends at the next definition, not at its line."""
    inner_gate: Callable[[str], bool] | None = None
    """Whether a stripped line inside a function body may start a definition of an `inner`
    rule (a cheap test before the regex): JavaScript factories and module closures declare
    their API inside a function (`function fastify(opts) { … function addHook(…) {…} … }`,
    `return { goto: (href) => {…} }`, a library in an IIFE), as Python's nested defs are kept."""

    # Compiled on first use: compiling every language's alternations at import cost a quarter
    # of a second of each command line start, for files of one or two languages.
    @functools.cached_property
    def top_re(self) -> re.Pattern[str]:
        return _combine(self.rules, ("top", "any"))

    @functools.cached_property
    def member_re(self) -> re.Pattern[str]:
        return _combine(self.rules, ("member", "any"))

    @functools.cached_property
    def inner_re(self) -> re.Pattern[str]:
        return _combine(tuple(r if r.inner else _NEVER for r in self.rules), ("top", "any"))


_NEVER = Rule("(?!)", scope="none")
"""A stand-in that keeps a rule's place (its group number) in a combination it is not part of."""


def _combine(rules: tuple[Rule, ...], scopes: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation per scope; alternative i is group r{i} with its own n_i/k_i/e_i groups."""
    alts = []
    for i, r in enumerate(rules):
        if r.scope in scopes:
            def local(m: re.Match[str], i: int = i) -> str:
                return f"(?P<{m.group(1)}_{i}>"

            p = re.sub(r"\(\?P<(\w+)>", local, r.pattern)
            alts.append(f"(?P<r{i}>{p})")
    return re.compile("|".join(alts) or r"(?!)")


ID = r"[^\W\d]\w*"
JID = r"(?:[^\W\d]|\$)[\w$]*"

KEYWORDS = frozenset(
    "if else elif for foreach while do switch case catch try finally return function typeof "
    "sizeof throw await yield synchronized unless until".split()
)
"""Words a name pattern can catch (`if (` looks like a call) that never name a definition."""

CLASSY = {"class": ("class", "class"), "interface": ("interface", "class")}


def upper(name: str) -> bool:
    return name.isupper()


def upper_constant(get: Getter, name: str, member: bool) -> str | None:
    """A judge: a constant when named like one (upper case)."""
    return "constant" if upper(name) else None


@dataclass(frozen=True)
class Match:
    """A rule that matched the start of a line, and what it says."""

    rule: Rule
    name: str | None
    kind: str | None
    """The definition's kind; for a group (Rule.block), its keyword (const, var, type)."""
    body: str | None


def match_rule(spec: Spec, s: str, member: bool, owner: str | None, cdepth: int,
               inner: bool = False) -> Match | None:
    """The rule a stripped line matches and what it defines, or None; `inner`: only the rules
    tried inside function bodies."""
    m = (spec.inner_re if inner else spec.member_re if member else spec.top_re).match(s)
    if m is None or m.lastgroup is None:
        return None
    ri = int(m.lastgroup[1:])
    rule = spec.rules[ri]

    def get(g: str) -> str | None:
        if g == "*":
            return m.group()
        try:
            return m.group(f"{g}_{ri}")
        except IndexError:
            return None

    name = get("n")
    kind, body = rule.kind, rule.body
    if rule.kinds:
        kind, body = rule.kinds.get(" ".join((get("k") or "").split()), (kind, body))
    if name is not None:
        name = tidy(name)
        if not name or name in KEYWORDS or (rule.ctor and name != owner):
            return None
        if rule.judge is not None:
            kind = rule.judge(get, name, member)
            if kind is None:
                return None
    elif rule.block:
        return Match(rule, None, get("k"), None)
    if kind == "function" and (member or (spec.keyword_blocks is not None and cdepth > 0)):
        kind = "method"
    return Match(rule, name, kind, body)


def tidy(name: str) -> str:
    """Plain name: backticks dropped, qualification (`a.b`, `A::B`) reduced to the last part."""
    name = name.strip("`")
    if "." in name or ":" in name:
        name = re.split(r"[.:]+", name.rstrip(".:"))[-1]
    return name
