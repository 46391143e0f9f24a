"""C#: definitions and `using` imports."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, CHAR, CS_VERBATIM, CS_VERBATIM2, DQ, TDQ, cleaner
from .imports import line_imports
from .rules import CLASSY, ID, Rule, Spec

_MODS = (r"(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|sealed|abstract|"
            r"partial|readonly|unsafe|new|override|virtual|async|extern|file|required|volatile|"
            r"ref)\s+)*")
_TYPE = r"[\w.]+(?:\s*<[^()=;{}]*>)?\??(?:\s*\[[\s,]*\])*\??"
RULES = (
    Rule(_MODS + r"(?P<k>record\s+struct|record\s+class|class|interface|struct|enum|record)"
          r"\s+(?P<n>" + ID + ")",
          kinds={**CLASSY, "struct": ("struct", "class"), "enum": ("enum", "class"),
                 "record": ("class", "class"), "record class": ("class", "class"),
                 "record struct": ("struct", "class")}),
    Rule(r"namespace\s+[\w.]+\s*(?:\{|$)", body="ns"),
    Rule(_MODS + r"delegate\s+" + _TYPE + r"\s+(?P<n>" + ID + ")", "type"),
    Rule(_MODS + r"const\s+" + _TYPE + r"\s+(?P<n>" + ID + ")", "constant", "member"),
    Rule(_MODS + _TYPE + r"\s+(?P<n>" + ID + r")\s*(?:<[^()]*>)?\s*\(", "method",
          "member", "func"),
    Rule(_MODS + r"(?P<n>" + ID + r")\s*\(", "method", "member", "func", ctor=True),
)

_CS_IMP = re.compile(r"\s*(?:global\s+)?using\s+(?:static\s+)?(?:\w+\s*=\s*)?([\w.]+)\s*;")

SPEC = Spec(cleaner(C_BLOCK, C_LINE, TDQ, CS_VERBATIM, CS_VERBATIM2, DQ, CHAR), RULES,
            line_imports(_CS_IMP, "using"), ("[",))
