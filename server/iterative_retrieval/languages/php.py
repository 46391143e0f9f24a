"""PHP: definitions and imports (`use`, `require`, `include`)."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, DQ, PHP_HASH, SQ, cleaner
from .imports import gather, live, use_tree
from .rules import CLASSY, ID, Rule, Spec

RULES = (
    Rule(r"(?:(?:abstract|final|readonly)\s+)*(?P<k>class|interface|trait|enum)\s+(?P<n>"
          + ID + ")", kinds={**CLASSY, "trait": ("interface", "class"),
                              "enum": ("enum", "class")}),
    Rule(r"(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?\s*(?P<n>"
          + ID + r")\s*\(", "function", body="func"),
    Rule(r"(?:(?:public|private|protected|final)\s+)*const\s+(?:\w+\s+)?(?P<n>" + ID
          + r")\s*=", "constant"),
    Rule(r"namespace\s+[\w\\]+\s*\{", body="ns"),
)

_PHP_USE = re.compile(r"\s*use\s+(?:function\s+|const\s+)?(.*)")
_PHP_REQ = re.compile(r"""\b(?:require|include)(?:_once)?\b[^;'"\n]*(['"])([^'"\n]+)\1""")


def _imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(clean):
        if "use" in line:
            m = _PHP_USE.match(line[:1000])
            if m:
                whole = _PHP_USE.match(gather(clean, i, ";")) or m  # it starts with line i
                out.extend(use_tree(whole.group(1), "\\"))
        r = raw[i]
        if ("require" in r or "include" in r) and live(clean, i):
            out.extend(m.group(2) for m in _PHP_REQ.finditer(r[:1000]))
    return out


SPEC = Spec(cleaner(C_BLOCK, C_LINE, PHP_HASH, DQ, SQ), RULES, _imports, ("#[",))
