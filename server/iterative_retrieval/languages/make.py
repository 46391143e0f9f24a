"""Makefiles: targets (functions spanning their recipe), UPPER variables (constants) and
`include`s."""

from __future__ import annotations

import re

from .clean import HASH, clean, cleaner
from .definitions import MAX_SYMBOLS, Definition
from .rules import upper

CLEANER = cleaner(HASH)
_MK_INCLUDE = re.compile(r"\s*-?s?include\s+(.+)")

_MK_VAR = re.compile(r"(?:export\s+|override\s+)?(?P<n>[A-Za-z_][\w.]*)\s*(?:[:+?!]?=)")
_MK_TARGET = re.compile(r"(?P<n>[A-Za-z0-9_./-][\w./-]*)(?:\s+[\w./-]+)*\s*::?(?!=)")


def _outline(raw: list[str], clean: list[str], defs: list[Definition]) -> None:
    """Targets become functions spanning their recipe; UPPER variables become constants."""
    n = len(clean)
    for i, line in enumerate(clean):
        if not line or line[0] in " \t\x01#" or len(defs) >= MAX_SYMBOLS:
            continue
        m = _MK_VAR.match(line)
        if m:
            if upper(m.group("n")):
                defs.append(Definition(m.group("n"), "constant", i, i))
            continue
        m = _MK_TARGET.match(line)
        if m and not m.group("n").startswith("."):
            j = i
            while j + 1 < n and (raw[j + 1].startswith("\t") or clean[j].rstrip().endswith("\\")):
                j += 1
            defs.append(Definition(m.group("n"), "function", i, j))


def _imports(raw: list[str], clean: list[str]) -> list[str]:
    out: list[str] = []
    for line in clean:
        if "include" in line:
            m = _MK_INCLUDE.match(line)
            if m:
                out.extend(m.group(1).split())
    return out


def outline(text: str, raw: list[str], defs: list[Definition], imports: list[str]) -> None:
    """The targets, constants and includes of a prepared Makefile text (outline.Outliner)."""
    lines = clean(CLEANER, text).split("\n")
    _outline(raw, lines, defs)
    imports.extend(_imports(raw, lines))
