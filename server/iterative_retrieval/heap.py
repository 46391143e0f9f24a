"""When Python's cycle collector runs: not in the middle of an answer.

A retrieval allocates hundreds of thousands of small objects (file rows, symbol rows, hits), and
the memos that keep them between retrievals grow the heap. CPython's collector walks the whole
heap each time it has grown by a quarter: on a 10k-file tree that was 100-150 ms in the middle of
a request now and then (the server's p95), and a fifth of a command-line run. Almost nothing the
engine allocates forms reference cycles, so reference counting frees it either way.
"""

from __future__ import annotations

import gc
import threading

FULL_EVERY = 50
"""Settles between two collections of the whole heap (frozen objects included)."""

_settles = 0
_lock = threading.Lock()


def short_run() -> None:
    """A command-line run or an indexing worker: no cycle collection at all (the process ends
    soon, and what it allocates is freed by reference counting)."""
    gc.disable()


def settle(idle: bool = True) -> None:
    """A long-lived server after an answer: collect what is young, then freeze the survivors
    (the memos) so that the collector's passes during the next request walk only what that
    request allocates. Cheap (milliseconds), so it also runs while a next request is under way;
    every FULL_EVERY settles, at the first idle one, the frozen objects are collected too
    (a cycle that became garbage after it was frozen)."""
    global _settles
    with _lock:
        _settles += 1
        if idle and _settles >= FULL_EVERY:
            _settles = 0
            gc.unfreeze()
        gc.collect()
        gc.freeze()
