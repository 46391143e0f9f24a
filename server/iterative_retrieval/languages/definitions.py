"""What every outliner shares: the definition record it fills, and the bounds that keep
outlining linear in the size of a file."""

from __future__ import annotations

from dataclasses import dataclass

MAX_SYMBOLS = 2000
MAX_IMPORTS = 500
MAX_TEXT = 16 * 1024 * 1024
"""Bytes of text looked at; the rest of a larger file is ignored."""
MAX_LINE = 5000
"""Longer lines are minified code or data: blanked so they cost nothing and match nothing."""
MAX_TOKENS = 200_000
"""Strings and comments the cleaner rewrites before it gives up and scans the raw text."""
MATCH_WIDTH = 300
"""Definition patterns only look at this many characters of a line (bounds regex work)."""
MAX_HEADER = 30
"""Lines a signature may span before its body brace or its end is found."""
FALLBACK_SPAN = 50
"""Lines a definition may cover when its end cannot be found."""


@dataclass(slots=True)
class Definition:
    """A definition as an outliner finds it; its end is set once its body closes."""

    name: str
    kind: str
    start: int
    """0-based first line (its first decorator or annotation line)."""
    end: int | None = None
    """0-based last line; None until known (outline.finish bounds it then)."""
    depth: int = 0
    """Open blocks around it (a brace scan's stack depth): the next definition at this depth
    or an outer one bounds an unterminated definition."""


def add(defs: list[Definition], name: str, kind: str, start: int, end: int | None = None,
        depth: int = 0) -> int:
    """Record a definition (up to MAX_SYMBOLS); its index, or -1 when the cap is reached."""
    if len(defs) >= MAX_SYMBOLS:
        return -1
    defs.append(Definition(name, kind, start, end, depth))
    return len(defs) - 1
