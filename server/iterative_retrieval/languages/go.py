"""Go: definitions (with `const (`, `var (` and `type (` groups) and imports."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, CHAR, DQ, RAW_BT, cleaner
from .imports import live
from .rules import ID, Found, Rule, Spec

RULES = (
    Rule(r"func\s*\([^)]*\)\s*(?P<n>" + ID + ")", "method", "top", "func"),
    Rule(r"func\s+(?P<n>" + ID + ")", "function", "top", "func"),
    Rule(r"type\s+(?P<n>" + ID + r")\s*(?:\[[^\]]*\]\s*)?(?P<k>struct|interface)\b",
          kinds={"struct": ("struct", None), "interface": ("interface", None)}),
    Rule(r"(?P<k>const|var|type)\s*\(", block=True),
    Rule(r"type\s+(?P<n>" + ID + ")", "type"),
    Rule(r"const\s+(?P<n>" + ID + ")", "constant"),
    Rule(r"var\s+(?P<n>" + ID + ")", "variable"),
)

_GO_ONE = re.compile(r'\s*import\s+(?:[\w.]+\s+)?"([^"\n]+)"')
_GO_ITEM = re.compile(r'\s*(?:[\w.]+\s+)?"([^"\n]+)"')


def _imports(raw: list[str], clean: list[str]) -> list[str]:
    """Paths of `import "x"` lines and `import (` blocks.

    Only a line that starts with `import` once cleaned begins one, and the word is rare
    elsewhere in code: a search for it in the whole text finds them, so the rest of a file (all
    but its head) costs no Python.
    """
    out: list[str] = []
    cleaned = "\n".join(clean)
    i = pos = 0
    done = -1  # the last line read
    at = cleaned.find("import")
    while at >= 0:
        i += cleaned.count("\n", pos, at)
        pos = at
        at = cleaned.find("import", at + 6)
        if i <= done or clean[i].lstrip()[:6] != "import":
            continue
        done = i
        if re.match(r"import\s*\(", clean[i].strip()):
            out.extend(re.findall(r'"([^"\n]+)"', raw[i]))
            if ")" not in clean[i]:
                done = _go_block(raw, clean, i + 1, out)
        else:
            one = _GO_ONE.match(raw[i])
            if one:
                out.append(one.group(1))
    return out


def _go_block(raw: list[str], clean: list[str], i: int, out: list[str]) -> int:
    """The paths of an import block from line i into `out`; the line that closes it."""
    while i < len(clean) and not clean[i].strip().startswith(")"):
        m = _GO_ITEM.match(raw[i])
        if m and live(clean, i):
            out.append(m.group(1))
        i += 1
    return i


# Possessive: gofmt pads a group's names into columns, and generated files (zerrors_*.go)
# pad them by tens of spaces, over which `\s*(...)?\s+` backtracked quadratically (half a
# second for one 9k-line file, a quarter of Go's outline time in 60 such files).
_GROUP_ITEM = re.compile(r"(?P<n>[^\W\d]\w*+)(?:\s*+,\s*+[^\W\d]\w*+)*+"
                         r"(?:(?:\s*+\[[^\]]*+\])?\s++(?P<k>struct|interface)\b)?")


def _group_item(kind: str, s: str, i: int) -> Found | None:
    """A name declared inside a Go `const (`, `var (` or `type (` group."""
    m = _GROUP_ITEM.match(s)
    if m is None or m.group("n") == "_":
        return None
    if kind == "type" and m.group("k"):
        kind = m.group("k")
    return Found(m.group("n"), kind, None, i)


SPEC = Spec(cleaner(C_BLOCK, C_LINE, RAW_BT, DQ, CHAR), RULES, _imports, group_item=_group_item)

STANDARD_PACKAGES = frozenset(
    "archive bufio builtin bytes cmp compress container context crypto database debug embed "
    "encoding errors expvar flag fmt go hash html image index io iter log maps math mime net os "
    "path plugin reflect regexp runtime slices sort strconv strings structs sync syscall testing "
    "text time unicode unique unsafe weak".split())
"""The first element of the standard library's import paths (`encoding/json`, `net/http`): an
import of one names no file of the project, even one called json.go. A module of the project
has a domain-like first element (`github.com/…`), or a go.mod name of its own."""
