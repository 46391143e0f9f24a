"""One writer of an index's files at a time, across processes and threads: a lock file beside it.

Several editors, an MCP server and a terminal on one repository is the normal case. Without this,
two cold runs both created the schema ("table meta already exists"), and each took the other's
half-built file for a damaged one and deleted it. Now only the holder of the lock creates,
deletes or fills the database; the others wait, then find the work done (a refresh that finds
nothing to do takes no lock, so warm runs never wait for one another).

The holder touches the lock file as it works (`beat`). A waiter waits as long as the holder
shows signs of life, and gives up (IndexUnavailable, so an in-memory index for the session)
only after `faults.build_wait()` seconds without one: behind a stopped (SIGSTOP) process, say.
The system releases the lock when its holder dies, so a killed builder blocks no one.

Linux and macOS: `fcntl.flock` (a lock per open file, so threads of one process exclude each
other too). Windows: `msvcrt.locking` on the file's first byte. Elsewhere there is no lock, as
before: concurrent cold runs may then index twice.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from .faults import FALL_BACK, IndexUnavailable, build_wait, diagnose

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
try:
    import msvcrt
except ImportError:  # POSIX
    msvcrt = None  # type: ignore[assignment]

POLL = 0.05
"""Seconds between two tries of a waiter."""
HEARTBEAT = 0.5
"""Seconds between two touches of the lock file by its holder, at most."""


class WaitStopped(Exception):
    """The waiter was asked to stop (should_stop) before it got the lock."""


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        elif msvcrt is not None:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        return True
    except OSError:  # held by another open file: BlockingIOError, or EACCES/EDEADLK on Windows
        return False


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    elif msvcrt is not None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


_THREAD_LOCKS: dict[str, threading.Lock] = {}
_REGISTRY = threading.Lock()


def _thread_lock(path: Path) -> threading.Lock:
    """One per lock file and process, shared by every Index of that file."""
    with _REGISTRY:
        return _THREAD_LOCKS.setdefault(str(path), threading.Lock())


class BuildLock:
    """The lock file of one index database (`<database>.lock`)."""

    def __init__(self, db_path: Path):
        self.path = Path(str(db_path) + ".lock")
        self._fd: int | None = None
        self._threads = _thread_lock(self.path)
        """Held with the file: one thread of this process at a time even where the system
        lock is per process (flock emulated over NFS)."""
        self._owner: int | None = None
        self._depth = 0
        self._beaten = 0.0

    @contextlib.contextmanager
    def held(self, should_stop: Callable[[], bool] | None = None,
             on_wait: Callable[[], None] | None = None) -> Iterator[None]:
        """Hold the lock for the block (re-entrant in one thread). `on_wait` is called once
        if someone else holds it; WaitStopped when should_stop() turns true meanwhile;
        IndexUnavailable when the holder shows no sign of life for build_wait() seconds (or
        the file cannot be opened)."""
        if self._owner != threading.get_ident():
            self._acquire(should_stop, on_wait)
            self._owner = threading.get_ident()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self._owner = None
                self._release()

    @contextlib.contextmanager
    def attempt(self) -> Iterator[bool]:
        """Hold the lock for the block if no one else holds it (True), without waiting."""
        if self._owner == threading.get_ident():
            yield True
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield False
            return
        if not self._threads.acquire(blocking=False):
            os.close(fd)
            yield False
            return
        if not _try_lock(fd):
            self._threads.release()
            os.close(fd)
            yield False
            return
        self._fd, self._owner, self._depth = fd, threading.get_ident(), 1
        try:
            yield True
        finally:
            self._depth, self._owner = 0, None
            self._release()

    def beat(self) -> None:
        """A sign of life for waiters (the file's modification time), at most every HEARTBEAT
        seconds; cheap enough for SQLite's progress handler."""
        now = time.monotonic()
        if self._fd is None or now - self._beaten < HEARTBEAT:
            return
        self._beaten = now
        # on failure a waiter may give up after build_wait(): never worse than no lock
        with contextlib.suppress(OSError):
            os.utime(self._fd if os.utime in os.supports_fd else self.path)

    def _acquire(self, should_stop: Callable[[], bool] | None,
                 on_wait: Callable[[], None] | None) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise (diagnose(exc) or exc) from exc
        told = False
        last_sign, last_mtime = time.monotonic(), None
        patience = build_wait()
        while True:
            if self._threads.acquire(timeout=POLL):
                if _try_lock(fd):
                    self._fd, self._beaten = fd, 0.0
                    self.beat()
                    return
                self._threads.release()
                time.sleep(POLL)
            if not told:
                told = True
                if on_wait is not None:
                    on_wait()
            if should_stop is not None and should_stop():
                os.close(fd)
                raise WaitStopped()
            try:
                mtime = os.fstat(fd).st_mtime_ns
            except OSError:
                mtime = None
            now = time.monotonic()
            if mtime != last_mtime:
                last_sign, last_mtime = now, mtime
            elif now - last_sign > patience:
                os.close(fd)
                raise IndexUnavailable(
                    f"another process has held the index's lock ({self.path}) for "
                    f"{patience:.0f}s without progress", FALL_BACK)

    def _release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            _unlock(fd)
        finally:
            os.close(fd)
            self._threads.release()
