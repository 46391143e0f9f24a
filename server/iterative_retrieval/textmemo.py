"""Memos of pure functions of a file's text, kept between retrievals.

The language server answers many retrievals over mostly the same files: what depends on nothing
but a file's text (the names it uses, its term counts, its redacted form) is worked out once per
text. Keyed by the text itself, so an edited file is a new key and never a stale answer; bounded
by the characters held, oldest first out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

MAX_CHARS = 8_000_000
"""Characters of text one memo keeps as keys (a few hundred source files)."""


class TextMemo(Generic[T]):
    """fn(text), remembered by text. The answers are shared: callers must not change them."""

    def __init__(self, fn: Callable[[str], T], max_chars: int = MAX_CHARS):
        self.fn = fn
        self.max_chars = max_chars
        self._memo: dict[str, T] = {}
        self._held = 0
        self._lock = threading.Lock()

    def __call__(self, text: str) -> T:
        with self._lock:
            hit = self._memo.get(text, _MISSING)
        if hit is not _MISSING:
            return hit  # type: ignore[return-value]
        value = self.fn(text)
        if len(text) > self.max_chars:
            return value
        with self._lock:
            if text not in self._memo:
                self._memo[text] = value
                self._held += len(text)
                while self._held > self.max_chars:
                    oldest = next(iter(self._memo))
                    del self._memo[oldest]
                    self._held -= len(oldest)
        return value

    def clear(self) -> None:
        with self._lock:
            self._memo.clear()
            self._held = 0


_MISSING = object()
