"""Rust: definitions and imports (`use` trees, `mod x;`, `extern crate`)."""

from __future__ import annotations

import re

from .clean import C_BLOCK, C_LINE, CHAR, DQ_ML, RUST_RAW, cleaner
from .imports import gather, use_tree
from .rules import ID, Rule, Spec

_VIS = r"(?:pub(?:\s*\([^)]*\))?\s+)?"
RULES = (
    Rule(_VIS + r"(?:(?:const|async|unsafe|default|extern(?:\s*\"\")?)\s+)*fn\s+(?P<n>"
          + ID + ")", "function", body="func"),
    Rule(_VIS + r"(?:(?:unsafe|auto)\s+)*(?P<k>struct|enum|union|trait)\s+(?P<n>" + ID + ")",
          kinds={"struct": ("struct", None), "enum": ("enum", None), "union": ("struct", None),
                 "trait": ("interface", "class")}),
    Rule(_VIS + r"type\s+(?P<n>" + ID + ")", "type"),
    Rule(_VIS + r"(?:const|static(?:\s+mut)?)\s+(?P<n>" + ID + r")\s*:", "constant"),
    Rule(_VIS + r"mod\s+(?P<n>" + ID + r")\s*(?:\{|$)", "module", body="ns"),
    Rule(r"(?:default\s+)?(?:unsafe\s+)?impl\b", body="class"),
    Rule(r"(?:unsafe\s+)?extern\s*(?:\"\"\s*)?\{", body="ns"),
    Rule(r"macro_rules!\s*(?P<n>" + ID + ")", "function"),
)

_RUST_USE = re.compile(r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?use\s+(.*)")
_RUST_MOD = re.compile(r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*;")
_RUST_CRATE = re.compile(r"\s*extern\s+crate\s+(\w+)")


def _imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(clean):
        if "use" in line:
            m = _RUST_USE.match(line[:1000])
            if m:
                whole = _RUST_USE.match(gather(clean, i, ";")) or m  # it starts with line i
                out.extend(use_tree(whole.group(1), "::"))
                continue
        if "mod" in line or "crate" in line:
            m = _RUST_MOD.match(line) or _RUST_CRATE.match(line)
            if m:
                out.append(m.group(1))
    return out


SPEC = Spec(cleaner(C_BLOCK, C_LINE, CHAR, DQ_ML, RUST_RAW), RULES, _imports, ("#[",))

STANDARD_CRATES = frozenset({"std", "core", "alloc"})
"""Rust's own crates: `use std::io` names no file of the project, even tokio's src/io/mod.rs."""
