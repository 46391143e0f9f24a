"""Every other language (Lua, Perl, Dart, Elixir, Groovy, Julia, Zig, …): keyword-shaped
definitions (`function`, `def`, `fn`, `class`, `module`, …) and import-like lines."""

from __future__ import annotations

import re

from .c import C_INCLUDE
from .clean import C_BLOCK, C_LINE, DQ, SH_HASH, SQ, cleaner
from .imports import live
from .rules import CLASSY, Rule, Spec

RULES = (
    Rule(r"(?:(?:export|public|private|protected|static|async|local|pub|override|final|"
          r"abstract|inline)\s+)*(?:function|func|fn|def|defp|defn|fun|sub|proc|procedure)\s+"
          r"[&*]?(?P<n>[^\W\d][\w$]*(?:[.:][^\W\d][\w$]*)*)", "function", body="func"),
    Rule(r"(?:(?:export|public|private|abstract|final|data|sealed|open)\s+)*(?P<k>class|"
          r"interface|struct|enum|trait|protocol|module|object|record|defmodule|message|"
          r"service)\s+(?P<n>[^\W\d][\w.:]*)",
          kinds={**CLASSY, "struct": ("struct", "class"), "enum": ("enum", None),
                 "trait": ("interface", "class"), "protocol": ("interface", "class"),
                 "module": ("module", "class"), "object": ("class", "class"),
                 "record": ("class", "class"), "defmodule": ("module", "class"),
                 "message": ("struct", "class"), "service": ("interface", "class")}),
)

_GEN_IMPORT = re.compile(r"""\s*(?:import|from|use|using|require|alias|include)\b\s*+\(?\s*+"""
                         r"""(['"]?)([\w./:\\@-]+)\1""")


def _imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(raw):
        if live(clean, i):
            m = C_INCLUDE.match(line) or _GEN_IMPORT.match(line[:1000])
            if m:
                out.append(m.group(m.lastindex or 1))
    return out


SPEC = Spec(cleaner(C_BLOCK, C_LINE, SH_HASH, DQ, SQ), RULES, _imports, bodyless_fallback=True)
