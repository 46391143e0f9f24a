"""C, C++ and Objective-C: definitions (functions by their shape: they have no keyword)
and `#include` imports."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, CHAR, CPP_RAW, DQ, cleaner
from .imports import line_imports
from .rules import ID, Found, Getter, Rule, Spec


def _define(get: Getter, name: str, member: bool) -> str | None:
    return "function" if get("k") else "constant"


RULES = (
    Rule(r"#\s*define\s+(?P<n>" + ID + r")(?P<k>\()?", "constant", judge=_define),
    Rule(r"(?:(?:typedef|static|extern|const)\s+)*(?:template\s*<[^;{]*>\s*)?"
          r"(?P<k>struct|class|union|enum\s+class|"
          r"enum\s+struct|enum)\s+(?:(?:__attribute__\(\([^)]*\)\)|alignas\([^)]*\)|"
          r"[A-Z][A-Z0-9_]+)\s+)*(?P<n>" + ID + r")\s*(?:final\s*)?(?:\{|:(?!:)|$)",
          kinds={"struct": ("struct", "class"), "class": ("class", "class"),
                 "union": ("struct", "class"), "enum": ("enum", None),
                 "enum class": ("enum", None), "enum struct": ("enum", None)}),
    Rule(r"(?:inline\s+)?namespace\b[\w\s:]*\{", body="ns"),
    Rule(r"extern\s*\"\"\s*\{", body="ns"),
    Rule(r"typedef\s+[^;{}()]*?\(\s*\*\s*(?P<n>" + ID + r")\s*\)", "type"),
    Rule(r"typedef\s+[^;{}()]*?\b(?P<n>" + ID + r")\s*(?:\[[^\]]*\]\s*)?;", "type"),
    Rule(r"using\s+(?P<n>" + ID + r")\s*=", "type"),
)

_C_HEAD_OK = re.compile(r"[\w\s*&:<>,~\[\]]*")
_C_TYPEISH = re.compile(r"[^\W\d][\w\s*&:<>,]*")
_IDENT = re.compile(r"~?[^\W\d]\w*")
_C_NOT_TYPE = frozenset(
    "return else case goto delete new throw typedef co_return using namespace if while for "
    "switch do sizeof defined static_assert alignof decltype __attribute__ __declspec operator "
    "template public private protected".split()
)
_C_TYPES = frozenset(
    "int char void long short unsigned signed float double bool auto const struct enum union "
    "static inline extern volatile register".split()
)


def _function(s: str, clean: list[str], i: int, member: bool,
              owner: str | None) -> Found | None:
    """`type name(` at top level or in a class body: a function, method or prototype."""
    p = s.find("(")
    if p <= 0 or s[0] == "#":
        return None
    head = s[:p]
    if not _C_HEAD_OK.fullmatch(head):
        return None
    toks = head.replace("*", " ").replace("&", " ").split()
    if not toks:
        return None
    name = toks[-1]
    short = name.rsplit("::", 1)[-1]
    bare = short.lstrip("~")
    if (not _IDENT.fullmatch(short) or bare in _C_NOT_TYPE or bare in _C_TYPES
            or bare.isupper()):
        return None
    start = i
    if toks[:-1]:
        if toks[0] in _C_NOT_TYPE:
            return None
    elif "::" in name or (member and bare == owner):
        pass  # constructors and destructors have no return type
    elif len(s) == len(clean[i]) and i > 0:  # GNU style: the return type is on the line above
        prev = clean[i - 1].strip()
        if not (prev and _C_TYPEISH.fullmatch(prev) and prev.split()[0] not in _C_NOT_TYPE):
            return None
        start = i - 1
    else:
        return None
    return Found(short, "method" if member or "::" in name else "function", "func", start)


C_INCLUDE = re.compile(r'\s*#\s*(?:include|import)\s*[<"]([^>"\n]+)[>"]')

SPEC = Spec(cleaner(C_BLOCK, C_LINE, DQ, CHAR, CPP_RAW), RULES,
            line_imports(C_INCLUDE, "#", raw_text=True), ("template",), hook=_function)
