"""What a line is, said once: every count and cut of a text into lines goes through here.

A line ends at "\\n", "\\r\\n" or a lone "\\r": the line breaks of the LSP (so a line number here
is the editor's), of git and of the outline patterns. `str.splitlines()` also breaks at \\v,
\\f, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029; a file with form feeds between its pages had its
regions cut by those breaks but its definitions and hit lines counted by "\\n", so a region
named after a function held text from hundreds of lines above it.
A break at the very end of a text ends its last line; it does not start an empty one.
"""

from __future__ import annotations

import re

_LINE_KEEPING_END = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def normalize(text: str) -> str:
    """The text with every line break written as "\\n" (a no-op, and no copy, without "\\r")."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_lines(text: str) -> list[str]:
    """The text's lines, without their breaks."""
    text = normalize(text)
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def split_lines_keeping_ends(text: str) -> list[str]:
    """The text's lines with their breaks as written: joined, they are the text again."""
    return _LINE_KEEPING_END.findall(text)


def count_lines(text: str) -> int:
    """len(split_lines(text)), without building the lines."""
    text = normalize(text)
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
