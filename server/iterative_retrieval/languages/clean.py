"""Cleaning a file before it is outlined: strings emptied and comments blanked, keeping lines.

A string becomes "" and a comment a space. Lines that start inside a multi-line token begin with
\x01, so line scanners can treat them as continuation lines. Each language family builds its
cleaner from the token patterns here (`cleaner(...)`); `braces` and `brackets` then keep just the
characters a scan counts, per line.
"""

from __future__ import annotations

import re
from itertools import repeat
from operator import add, mul

from .definitions import MAX_TOKENS

C_LINE = r"//[^\n]*"
C_BLOCK = r"/\*[\s\S]*?(?:\*/|\Z)"
JS_BLOCK = r"/\*(?<!\\/\*)[\s\S]*?(?:\*/|\Z)"  # not the `\/*` of a regex literal
# A JS regex literal: `/` right after an operator or opening punctuation (or `return `), so its
# braces and quotes are not code; division follows a name or `)` and is left alone.
JS_REGEX = (r"/(?:(?<=[(,=:\[!&|?{};>]/)|(?<=[(,=:\[!&|?{};>] /)|(?<=return /))(?![/*])"
             r"(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*+\])++/")
HASH = r"#[^\n]*"
SH_HASH = r"#(?<![^\s;|&()]#)[^\n]*"  # `#` starts a comment only at the start of a word
PHP_HASH = r"#(?!\[)[^\n]*"  # `#[Attr]` is an attribute
# Possessive loops and an always-matching end make every string match linear, even unterminated.
# Every alternative starts with a literal character, so the regex engine can skip to candidates
# (an optional prefix or a leading lookbehind makes cleaning several times slower).
DQ = r'"(?:[^"\\\n]|\\[\s\S]?)*+(?:"|(?=\n)|\Z)'
SQ = r"'(?:[^'\\\n]|\\[\s\S]?)*+(?:'|(?=\n)|\Z)"
DQ_ML = r'"(?:[^"\\]|\\[\s\S]?)*+(?:"|\Z)'
SH_SQ = r"'[^'\n]*+(?:'|(?=\n)|\Z)"
CHAR = r"'(?:\\[^\n][^'\\\n]{0,8}|[^'\\\n])'"  # strict, so Rust lifetimes are not strings
# A template literal's `${…}` may hold a template of its own (`${xs.map((x) => `<${x}>`)}`):
# read to one level of nested templates and of braces, so their backticks do not end the outer
# one. A `${` that cannot be read so is taken as text (the literal then ends at the next
# backtick, as a flat reading would).
_BT_FLAT = r"`(?:[^`\\$]++|\\[\s\S]?|\$\{[^{}`]*+\}|\$)*+`"
_BT_EXPR = r"\$\{(?:[^{}`]++|" + _BT_FLAT + r"|\{[^{}]*+\})*+\}"
BT = r"`(?:[^`\\$]++|\\[\s\S]?|" + _BT_EXPR + r"|\$)*+(?:`|\Z)"
RAW_BT = r"`[^`]*+(?:`|\Z)"
TDQ = r'"""[\s\S]*?(?:"""|\Z)'
TSQ = r"'''[\s\S]*?(?:'''|\Z)"
CS_VERBATIM = r'@\$?"(?:[^"]|"")*+(?:"|\Z)'
CS_VERBATIM2 = r'\$@"(?:[^"]|"")*+(?:"|\Z)'
CPP_RAW = r'R"(?P<d>[^()\\\s"]{0,16})\([\s\S]*?(?:\)(?P=d)"|\Z)'
RUST_RAW = r'r(?P<h>#*)"[\s\S]*?(?:"(?P=h)|\Z)'
RB_BEGIN = r"=begin(?<=^=begin)\b[\s\S]*?(?:^=end\b[^\n]*|\Z)"


def cleaner(*parts: str, flags: int = 0) -> re.Pattern[str]:
    """One pattern for a language's strings and comments; a group around it makes `split`
    return the tokens between the text."""
    return re.compile("(" + "|".join(f"(?:{p})" for p in parts) + ")", flags)


_COMMENT_STARTS = ("/", "#", "=")
_KEEP = ('""', " ")  # a string, a comment


def clean(rx: re.Pattern[str], text: str) -> str:
    """Text with strings emptied and comments blanked; same number of lines.

    Every step is a C call over all tokens (no Python per token: a file can hold 100k of them).
    """
    parts = rx.split(text)
    stride = rx.groups + 1  # the text before a token, then the pattern's groups
    tokens = parts[1::stride]
    if len(tokens) > MAX_TOKENS:
        return text
    keeps = map(_KEEP.__getitem__, map(str.startswith, tokens, repeat(_COMMENT_STARTS)))
    breaks = map(mul, repeat("\n\x01"), map(str.count, tokens, repeat("\n")))
    texts = parts[::stride]
    out = [""] * (2 * len(texts) - 1)
    out[::2] = texts
    out[1::2] = map(add, keeps, breaks)
    return "".join(out)


_NOT_BRACE = re.compile(r"[^{}\n]+")
_NOT_BRACKET = re.compile(r"[^()\[\]{}\n]+")
_ASCII_BRACE = bytes(c for c in range(128) if chr(c) not in "{}\n")  # bytes to delete
_ASCII_BRACKET = bytes(c for c in range(128) if chr(c) not in "()[]{}\n")


def _only(cleaned: str, delete: bytes, rx: re.Pattern[str]) -> list[str]:
    """Per line, just the bracket characters kept by `delete`/`rx`, in order: an ASCII text
    through bytes.translate (a table look-up per byte; str.translate looks up a dict)."""
    if cleaned.isascii():
        return cleaned.encode("ascii").translate(None, delete).decode("ascii").split("\n")
    return rx.sub("", cleaned).split("\n")


def braces(cleaned: str) -> list[str]:
    """Per line of a cleaned text, its `{` and `}` in order."""
    return _only(cleaned, _ASCII_BRACE, _NOT_BRACE)


def brackets(cleaned: str) -> list[str]:
    """Per line of a cleaned text, its brackets of every kind in order."""
    return _only(cleaned, _ASCII_BRACKET, _NOT_BRACKET)
