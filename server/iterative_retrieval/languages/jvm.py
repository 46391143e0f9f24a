"""Java, Kotlin and Scala: definitions and imports."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, CHAR, DQ, TDQ, cleaner
from .imports import line_imports, use_tree
from .rules import CLASSY, ID, Rule, Spec, upper_constant

_J_MODS = (r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|protected|private|static|final|abstract|"
           r"sealed|non-sealed|strictfp|default|synchronized|native|transient|volatile)\s+)*")
_J_TYPE = r"[\w$.]+(?:\s*<[^()=;{}]*>)?(?:\s*\[\s*\])*"
JAVA_RULES = (
    Rule(_J_MODS + r"(?P<k>class|interface|enum|record|@interface)\s+(?P<n>" + ID + ")",
          kinds={**CLASSY, "enum": ("enum", "class"), "record": ("class", "class"),
                 "@interface": ("interface", "class")}),
    Rule(r"(?:(?:public|protected|private)\s+)?(?:static\s+final|final\s+static)\s+" + _J_TYPE
          + r"\s+(?P<n>" + ID + r")\s*[=;]", "constant", "member"),
    Rule(_J_MODS + r"(?:<[^()]*?>\s+)?" + _J_TYPE + r"\s+(?P<n>" + ID + r")\s*\(", "method",
          "member", "func"),
    Rule(_J_MODS + r"(?P<n>" + ID + r")\s*\(", "method", "member", "func", ctor=True),
)

_K_MODS = (r"(?:@[\w.:]+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|internal|open|abstract|"
           r"final|override|sealed|data|inner|value|inline|suspend|operator|infix|tailrec|"
           r"external|expect|actual|lateinit)\s+)*")
KOTLIN_RULES = (
    Rule(_K_MODS + r"fun\s+(?:<[^>]*>\s*)?(?:[\w.?]+(?:<[^>]*>)?\??\.)?(?P<n>" + ID
          + r"|`[^`]+`)\s*[(<]", "function", body="func"),
    Rule(_K_MODS + r"(?P<k>enum\s+class|annotation\s+class|fun\s+interface|class|interface|"
          r"object)\s+(?P<n>" + ID + ")",
          kinds={**CLASSY, "object": ("class", "class"), "enum class": ("enum", "class"),
                 "annotation class": ("class", "class"),
                 "fun interface": ("interface", "class")}),
    Rule(_K_MODS + r"companion\s+object\b", body="class"),
    Rule(_K_MODS + r"typealias\s+(?P<n>" + ID + ")", "type"),
    Rule(_K_MODS + r"const\s+val\s+(?P<n>" + ID + ")", "constant"),
    Rule(_K_MODS + r"(?:val|var)\s+(?P<n>" + ID + r")\s*[:=]", "constant",
          judge=upper_constant),
)

_SC_MODS = (r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:private|protected|final|sealed|abstract|"
            r"implicit|lazy|override|case|inline|transparent|open|opaque|infix)"
            r"(?:\[[\w.]*\])?\s+)*")
SCALA_RULES = (
    Rule(_SC_MODS + r"def\s+(?P<n>[\w$]+|`[^`]+`)", "function", body="func"),
    Rule(_SC_MODS + r"(?P<k>class|trait|object|enum)\s+(?P<n>[\w$]+)",
          kinds={"class": ("class", "class"), "trait": ("interface", "class"),
                 "object": ("class", "class"), "enum": ("enum", "class")}),
    Rule(_SC_MODS + r"type\s+(?P<n>[\w$]+)", "type"),
    Rule(_SC_MODS + r"(?:val|var)\s+(?P<n>[A-Z][\w$]*)\s*[:=]", "constant"),
)

_JAVA_IMP = re.compile(r"\s*import\s+(?:static\s+)?([\w$]+(?:\.[\w$]+)*(?:\.\*)?)")
_KOTLIN_IMP = re.compile(r"\s*import\s+([\w`]+(?:\.[\w`]+)*(?:\.\*)?)")
_SCALA_IMP = re.compile(r"\s*import\s+(.+)")


def _scala_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for line in clean:
        if "import" in line:
            m = _SCALA_IMP.match(line[:1000])
            if m:
                out.extend(use_tree(m.group(1), "."))
    return out


JAVA = Spec(cleaner(C_BLOCK, C_LINE, TDQ, DQ, CHAR), JAVA_RULES,
            line_imports(_JAVA_IMP, "import"), ("@",))
KOTLIN = Spec(cleaner(C_BLOCK, C_LINE, TDQ, DQ, CHAR), KOTLIN_RULES,
              line_imports(_KOTLIN_IMP, "import"), ("@",))
SCALA = Spec(cleaner(C_BLOCK, C_LINE, TDQ, DQ, CHAR), SCALA_RULES, _scala_imports, ("@",))

STANDARD_ROOTS = frozenset({"java", "javax", "jdk", "sun", "kotlin", "kotlinx", "scala"})
"""The first element of the platform's own packages (`java.util.List`, `kotlin.collections`):
an import of one names no file of the project."""
