"""Swift: definitions and imports."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, DQ, TDQ, cleaner
from .imports import line_imports
from .rules import ID, Getter, Rule, Spec


def _let(get: Getter, name: str, member: bool) -> str | None:
    """Top-level `let`s and `static let`s are constants; instance `let`s are fields."""
    return "constant" if not member or "static" in (get("*") or "").split() else None


_MODS = (r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|"
           r"internal|open|final|static|class|override|mutating|nonmutating|convenience|"
           r"required|lazy|weak|unowned|dynamic|indirect|nonisolated|distributed|optional)"
           r"(?:\s*+\([^)]*\))?\s++)*")  # possessive: `\s*(…)?\s+` was quadratic in spaces
RULES = (
    Rule(_MODS + r"func\s+(?P<n>" + ID + ")", "function", body="func"),
    Rule(_MODS + r"(?P<n>init|deinit)\b", "method", "member", "func"),
    Rule(_MODS + r"(?P<k>class|struct|enum|protocol|actor)\s+"
          r"(?!(?:func|var|let|subscript|init)\b)(?P<n>" + ID + ")",
          kinds={"class": ("class", "class"), "struct": ("struct", "class"),
                 "enum": ("enum", "class"), "protocol": ("interface", "class"),
                 "actor": ("class", "class")}),
    Rule(_MODS + r"extension\b", body="class"),
    Rule(_MODS + r"typealias\s+(?P<n>" + ID + ")", "type"),
    Rule(_MODS + r"let\s+(?P<n>" + ID + ")", "constant", judge=_let),
)

_SWIFT_IMP = re.compile(r"\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|"
                        r"class|enum|protocol|let|var|func)\s+)?([\w.]+)")

SPEC = Spec(cleaner(C_BLOCK, C_LINE, TDQ, DQ), RULES, line_imports(_SWIFT_IMP, "import"), ("@",))
