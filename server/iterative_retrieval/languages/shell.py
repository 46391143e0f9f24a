"""Shell scripts: functions, exported constants and `source` imports."""

from __future__ import annotations

import re

from .clean import DQ, SH_HASH, SH_SQ, cleaner
from .imports import line_imports
from .rules import Rule, Spec, upper_constant

RULES = (
    Rule(r"function\s+(?P<n>[^\W\d][\w.:-]*)", "function", body="func"),
    Rule(r"(?P<n>[^\W\d][\w.:-]*)\s*\(\s*\)", "function", body="func"),
    Rule(r"(?:(?:export|readonly|declare(?:\s+-\w+)*)\s+)?(?P<n>[A-Z_][A-Z0-9_]*)=",
          "constant", judge=upper_constant, col0=True),
)

_SH_SOURCE = re.compile(r"""\s*(?:source|\.)\s+(['"]?)([^\s'";|&]+)\1""")

SPEC = Spec(cleaner(SH_HASH, DQ, SH_SQ), RULES,
            line_imports(_SH_SOURCE, "", group=2, raw_text=True))
