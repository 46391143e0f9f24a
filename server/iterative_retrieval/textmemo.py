"""Memos of pure functions of a file's text, kept between retrievals.

The language server answers many retrievals over mostly the same files: what depends on nothing
but a file's text (the names it uses, its term counts, its redacted form) is worked out once per
text. Keyed by the text itself, so an edited file is a new key and never a stale answer; bounded
by the characters held (plus a cost per entry), oldest first out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")

MAX_CHARS = 8_000_000
"""Characters of text one memo keeps as keys (a few hundred source files)."""
ENTRY_CHARS = 2_000
"""What an entry costs beyond its text's characters (its key, its value, the dict's slot),
counted against MAX_CHARS: an open buffer edited before every retrieve makes a new small text
each time, and counted by their characters alone, thousands of them were kept (the language
server's memory still grew after 5,000 retrieves)."""


class TextMemo(Generic[T]):
    """fn(text), remembered by text. The answers are shared: callers must not change them."""

    def __init__(self, fn: Callable[[str], T] | None = None, max_chars: int = MAX_CHARS,
                 entry_chars: int = ENTRY_CHARS):
        self.fn = fn
        self.max_chars = max_chars
        self.entry_chars = entry_chars
        self._memo: dict[Hashable, tuple[int, T]] = {}
        self._held = 0
        self._lock = threading.Lock()

    def __call__(self, text: str) -> T:
        assert self.fn is not None
        return self.get(text, text, self.fn)

    def get(self, key: Hashable, text: str, compute: Callable[[str], T]) -> T:
        """compute(text), remembered under key (which must include the text)."""
        with self._lock:
            hit = self._memo.get(key)
        if hit is not None:
            return hit[1]
        value = compute(text)
        size = len(text) + self.entry_chars
        if size > self.max_chars:
            return value
        with self._lock:
            if key not in self._memo:
                self._memo[key] = (size, value)
                self._held += size
                while self._held > self.max_chars:
                    oldest = next(iter(self._memo))
                    self._held -= self._memo.pop(oldest)[0]
        return value

    def clear(self) -> None:
        with self._lock:
            self._memo.clear()
            self._held = 0
