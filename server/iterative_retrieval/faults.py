"""What went wrong with an index database, and what to do about it.

The index is a cache: whatever happens to it, the answer must come from the files as they are
now, never from stale rows. So every storage fault has one of two remedies:

- **rebuild** — the file is damaged (corrupt, not a database, of another schema): delete it and
  index again from the files on disk;
- **fall back** — the file cannot be used right now (locked by another process past the busy
  timeout, a read-only or missing folder, a full disk, an I/O error): leave it alone (it may be
  another process's) and index into a private in-memory database for the rest of the session.

Other errors (a bug, a bad query) are not storage faults and propagate as they are.
"""

from __future__ import annotations

import os
import sqlite3

REBUILD = "rebuild"
FALL_BACK = "fall back"

LOCK_TIMEOUT_ENV = "ITERATIVE_RETRIEVAL_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 15.0
"""Seconds to wait for another process's lock on the index before falling back."""
BUILD_WAIT_ENV = "ITERATIVE_RETRIEVAL_BUILD_WAIT"
DEFAULT_BUILD_WAIT = 120.0
"""Seconds a run waits for another process that builds the index (buildlock.py) and shows no
sign of progress, before falling back: a cold index of a large tree holds the lock for
minutes, but touches it every half second while it works."""


class IndexUnavailable(RuntimeError):
    """The index database cannot be opened or written; `problem` says why in a few words."""

    def __init__(self, problem: str, remedy: str):
        super().__init__(problem)
        self.problem = problem
        self.remedy = remedy


def lock_timeout() -> float:
    """The busy timeout (seconds); `ITERATIVE_RETRIEVAL_LOCK_TIMEOUT` overrides the default."""
    return _seconds(LOCK_TIMEOUT_ENV, DEFAULT_LOCK_TIMEOUT)


def build_wait() -> float:
    """See DEFAULT_BUILD_WAIT; `ITERATIVE_RETRIEVAL_BUILD_WAIT` overrides it."""
    return _seconds(BUILD_WAIT_ENV, DEFAULT_BUILD_WAIT)


def _seconds(env: str, default: float) -> float:
    try:
        value = float(os.environ.get(env, "") or default)
    except ValueError:
        return default
    return max(0.0, value)


_BY_NAME = {
    "SQLITE_CORRUPT": ("the index is corrupt", REBUILD),
    "SQLITE_NOTADB": ("the index file is not a database", REBUILD),
    "SQLITE_BUSY": ("the index is locked by another process", FALL_BACK),
    "SQLITE_LOCKED": ("the index is locked", FALL_BACK),
    "SQLITE_READONLY": ("the index is read-only", FALL_BACK),
    "SQLITE_CANTOPEN": ("the index file cannot be opened", FALL_BACK),
    "SQLITE_FULL": ("the disk is full", FALL_BACK),
    "SQLITE_IOERR": ("a disk I/O error on the index", FALL_BACK),
    "SQLITE_PERM": ("no permission to write the index", FALL_BACK),
    "SQLITE_PROTOCOL": ("the index is locked by another process", FALL_BACK),
}


def diagnose(exc: BaseException) -> IndexUnavailable | None:
    """The storage fault behind an exception, or None when it is not one."""
    if isinstance(exc, IndexUnavailable):
        return exc
    if isinstance(exc, sqlite3.DatabaseError):
        name = getattr(exc, "sqlite_errorname", "") or ""
        base = name.split("_")[:2]
        found = _BY_NAME.get(name) or _BY_NAME.get("_".join(base))
        if found is None:
            # Raised before SQLite reported a code (older Pythons), judged by the message.
            text = str(exc).lower()
            if "malformed" in text or "not a database" in text:
                found = ("the index is corrupt", REBUILD)
            elif "locked" in text:
                found = ("the index is locked by another process", FALL_BACK)
            elif "readonly" in text or "read-only" in text:
                found = ("the index is read-only", FALL_BACK)
            elif "disk is full" in text or "i/o error" in text or "unable to open" in text:
                found = (text, FALL_BACK)
        if found is not None:
            return IndexUnavailable(f"{found[0]} ({exc})", found[1])
        return None
    if isinstance(exc, OSError):  # the cache folder cannot be created or written
        return IndexUnavailable(f"the index folder cannot be used ({exc})", FALL_BACK)
    return None
