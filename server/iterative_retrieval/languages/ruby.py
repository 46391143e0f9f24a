"""Ruby: definitions, blocks by keyword (`def`…`end`), and `require` imports."""

from __future__ import annotations

import re

from .clean import DQ, HASH, RB_BEGIN, SQ, cleaner
from .imports import line_imports
from .rules import ID, Getter, Rule, Spec


def _constant(get: Getter, name: str, member: bool) -> str | None:
    return "class" if get("v") else "constant"


RULES = (
    Rule(r"(?:(?:private|protected|public|module_function)\s+)?def\s+"
          r"(?:self\s*\.\s*|[A-Z]\w*\s*\.\s*)?(?P<n>" + ID + r"[?!=]?)", "function", body="func"),
    Rule(r"class\s*<<", body="class"),
    Rule(r"class\s+(?:[A-Z]\w*::)*(?P<n>[A-Z]\w*)", "class", body="class"),
    Rule(r"module\s+(?:[A-Z]\w*::)*(?P<n>[A-Z]\w*)", "module", body="class"),
    Rule(r"(?P<n>[A-Z]\w*)\s*(?:\|\|)?=(?![=~>])(?P<v>\s*(?:Struct|Class|Data)\."
          r"(?:new|define)\b)?", "constant", body="class", judge=_constant),
)

_RB_REQUIRE = re.compile(r"""\s*(?:require|require_relative|load|autoload)\b[\s(]*"""
                         r"""(?::\w+\s*,\s*)?(['"])([^'"\n]+)\1""")

_EVENTS = re.compile(
    r"^\s*(?:(?:private|protected|public|module_function)\s+)?"
    r"(?P<o>class|module|def|if|unless|while|until|case|begin|for)\b"
    r"|[=(,]\s*(?P<x>if|unless|case|begin|while|until)\b"
    r"|(?<![.:\w@$])(?P<d>do)\b(?![?!:])"
    r"|(?<![.:\w@$])(?P<c>end)\b(?![?!:])"
)
_HINT = re.compile(r"end|do|if|unless|while|until|case|begin|class|module|def|for")
_ENDLESS_DEF = re.compile(r"\s*(?:(?:private|protected|public)\s+)?def\s+[\w.?!]+"
                             r"(?:\([^)]*\))?\s*=(?!=)")


def _events(line: str) -> list[str]:
    """Ruby block openers and `end`s of a line as virtual braces, in order."""
    if not _HINT.search(line):
        return []
    evs = []
    loop = False
    for m in _EVENTS.finditer(line):
        if m.group("c"):
            evs.append("}")
        elif m.group("d"):
            if not loop:
                evs.append("{")
        else:
            kw = m.group("o")
            if kw == "def" and _ENDLESS_DEF.match(line):
                continue
            loop = kw in ("while", "until", "for")
            evs.append("{")
    return evs


SPEC = Spec(cleaner(RB_BEGIN, HASH, DQ, SQ, flags=re.M), RULES,
            line_imports(_RB_REQUIRE, "", group=2, raw_text=True), keyword_blocks=_events)
