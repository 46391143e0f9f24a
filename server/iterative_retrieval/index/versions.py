"""Indexes of other versions of the tool, beside this one's in the cache folder.

Two versions often share a cache folder: the VS Code extension brings its own copy of the
server, and the command line installed with pipx is another. When an index file was one per
root, each version took the other's file for an outdated one and rebuilt it, so a developer who
used both re-indexed their repository at every switch. Each index format now has a file of its
own (`<root>-<key>.v<format>.sqlite3`); a file of another format is left to its version while
that version uses it, and deleted once nothing has opened it for `KEEP_DAYS` (each open touches
its file), and never while another process holds its lock.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from pathlib import Path

from ..buildlock import BuildLock

log = logging.getLogger("iterative_retrieval.index")

KEEP_DAYS = 14
"""Days an index of another format is kept after its last use."""
SUFFIX = ".sqlite3"
_FORMAT = re.compile(r"\.v(\d+)$")


def file_name(stem: str, version: int) -> str:
    """The index file of one root (`stem`: its name and key) for one index format."""
    return f"{stem}.v{version}{SUFFIX}"


def opened(db: Path, version: int, new: bool) -> None:
    """After an index is opened: mark it used now (its modification time, which the other
    versions' pruning reads), prune the other formats' files unused for KEEP_DAYS, and when
    this one was just created beside another version's, say so once."""
    with contextlib.suppress(OSError):
        os.utime(db)
    prune(db)
    kept = others(db) if new else {}
    if kept:
        other, its = max(kept.items(), key=lambda kv: last_used(kv[0]))
        log.warning("building the index of this version of iterative-retrieval (index format "
                    "%d) at %s; the index of %s at %s is kept for its version until unused for "
                    "%d days", version, db,
                    f"format {its}" if its is not None else "an earlier version", other,
                    KEEP_DAYS)


def others(db: Path) -> dict[Path, int | None]:
    """The index files of the same root and other formats → their format (None: a file of the
    versions that kept one file per root)."""
    stem = _FORMAT.sub("", db.name[: -len(SUFFIX)])
    out: dict[Path, int | None] = {}
    with contextlib.suppress(OSError):
        for p in db.parent.glob(f"{_glob_escape(stem)}*{SUFFIX}"):
            rest = p.name[len(stem): -len(SUFFIX)]
            m = _FORMAT.fullmatch(rest)
            if p != db and (rest == "" or m is not None):
                out[p] = int(m.group(1)) if m else None
    return out


def _glob_escape(s: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", s)


def last_used(db: Path) -> float:
    """The latest modification time of the database, its journal and its lock file."""
    times = []
    for suffix in ("", "-wal", ".lock"):
        with contextlib.suppress(OSError):
            times.append(os.stat(str(db) + suffix).st_mtime)
    return max(times, default=0.0)


def prune(db: Path, now: float | None = None) -> list[Path]:
    """Delete the other formats' files of this root unused for KEEP_DAYS; the deleted ones."""
    now = time.time() if now is None else now
    gone = []
    for other, version in sorted(others(db).items()):
        if now - last_used(other) < KEEP_DAYS * 86400:
            continue
        lock = BuildLock(other)
        with lock.attempt() as free:
            if not free:
                continue  # its version is building it right now
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError, PermissionError):
                    os.unlink(str(other) + suffix)
        with contextlib.suppress(OSError):
            os.unlink(lock.path)
        if not other.exists():
            gone.append(other)
            log.info("deleted the index at %s (%s, unused for %d days)", other,
                     f"index format {version}" if version is not None
                     else "an earlier version's", KEEP_DAYS)
    return gone
