"""Python (and Starlark): indentation decides where definitions end.

A definition ends at the last non-blank line before the next statement indented no deeper than
it; lines inside brackets, after a backslash, or inside multi-line strings never end one. Nested
`def`s count (they are real definitions); a definition starts at its first decorator.
"""

from __future__ import annotations

import re
from typing import NamedTuple, cast

from .clean import DQ, HASH, SQ, TDQ, TSQ, brackets, clean, cleaner
from .definitions import Definition, add
from .rules import upper

CLEANER = cleaner(TDQ, TSQ, DQ, SQ, HASH)


class _Open(NamedTuple):
    """A definition whose block is still open."""

    indent: int
    entry: int
    """Its index in the outline (-1 past MAX_SYMBOLS)."""
    is_class: bool


_PY_DEF = re.compile(r"(?:async\s+)?(def|class)\s+([^\W\d]\w*)")
_PY_TOP = re.compile(
    r"type\s+(?P<t>[^\W\d]\w*)\s*(?:\[[^\]]*\])?\s*="
    r"|(?P<a>[^\W\d]\w*)\s*:\s*(?:typing\.|t\.)?TypeAlias\s*="
    r"|(?P<c>[A-Z_][A-Z0-9_]*)\s*(?::[^=]*)?=(?!=)"
)
_PY_FROM = re.compile(r"from\s+(\.*+[\w.]*+)\s+import\b(.*)", re.S)  # possessive: dots met dots
_PY_IMPORT = re.compile(r"import\s+(.*)", re.S)
_DOTTED = re.compile(r"\.*[\w.]+")


# C901: the one pass over every line of a file, its states (brackets, backslashes, decorators,
# the open definitions) kept in locals for speed.
def _outline(clean: list[str], brackets: list[str], defs: list[Definition],  # noqa: C901
             imports: list[str]) -> None:
    """Definitions (with decorator-inclusive starts) and imports of a Python file.

    A definition ends at the last non-blank line before the next statement indented no deeper
    than it; lines inside brackets, after a backslash, or inside multi-line strings never end one.
    """
    stack: list[_Open] = []
    deltas: dict[str, int] = {}
    last = -1
    dec = -1
    depth = 0
    backslash = False
    for i, line in enumerate(clean):
        s = line.lstrip()
        if not s:
            backslash = False
            continue
        cont = depth > 0 or backslash or s[0] == "\x01"
        b = brackets[i]
        if b:
            d = deltas.get(b)
            if d is None:
                d = deltas[b] = _bracket_delta(b)
            depth = max(0, depth + d)
        backslash = s.endswith("\\")
        if cont:
            last = i
            continue
        indent = len(line) - len(s)
        while stack and stack[-1].indent >= indent:
            idx = stack.pop().entry
            if idx >= 0:
                defs[idx].end = last
        last = i
        c0 = s[0]
        if c0 == "@":
            if dec < 0:
                dec = i
            continue
        if c0 in "acd":
            m = _PY_DEF.match(s)
            if m:
                is_class = m.group(1) == "class"
                kind = "class" if is_class else (
                    "method" if stack and stack[-1].is_class else "function")
                stack.append(_Open(indent, add(defs, m.group(2), kind, dec if dec >= 0 else i),
                                   is_class))
                dec = -1
                continue
        dec = -1
        if c0 in "if" and (s.startswith("import") or s.startswith("from")):
            imports.extend(_imports(clean, i))
        elif indent == 0:
            m = _PY_TOP.match(s)
            if m:
                top_kind: str | None
                if m.group("c") is not None:
                    top_kind, name = ("constant" if upper(m.group("c")) else None), m.group("c")
                else:
                    top_kind, name = "type", cast(str, m.group("t") or m.group("a"))
                if top_kind:
                    stack.append(_Open(0, add(defs, name, top_kind, i), False))
    for o in stack:
        if o.entry >= 0:
            defs[o.entry].end = last


def _bracket_delta(b: str) -> int:
    return b.count("(") + b.count("[") + b.count("{") - b.count(")") - b.count("]") - b.count("}")


def _imports(clean: list[str], i: int) -> list[str]:
    """Modules of an import statement; `from a import b` gives `a` and `a.b`."""
    text = clean[i].strip()
    j = i
    balance = text.count("(") - text.count(")")
    while (balance > 0 or text.endswith("\\")) and j + 1 < len(clean) and j - i < 100:
        j += 1
        more = clean[j].replace("\x01", " ").strip()
        balance += more.count("(") - more.count(")")
        text = text.rstrip("\\") + " " + more
    text = text.split(";", 1)[0]
    m = _PY_FROM.match(text)
    if m:
        mod = m.group(1)
        out = [mod] if mod else []
        for part in m.group(2).replace("(", " ").replace(")", " ").replace("\\", " ").split(","):
            words = part.split()
            if words and words[0] != "*" and _DOTTED.fullmatch(words[0]):
                out.append(mod + words[0] if mod.endswith(".") else f"{mod}.{words[0]}")
        return out
    m = _PY_IMPORT.match(text)
    if not m:
        return []
    names = (part.split() for part in m.group(1).replace("\\", " ").split(","))
    return [w[0] for w in names if w and _DOTTED.fullmatch(w[0])]


def outline(text: str, raw: list[str], defs: list[Definition], imports: list[str]) -> None:
    """The definitions and imports of a prepared Python text (outline.Outliner)."""
    cleaned = clean(CLEANER, text)
    _outline(cleaned.split("\n"), brackets(cleaned), defs, imports)
