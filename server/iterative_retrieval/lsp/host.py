"""The engine the server owns, and the worker threads its blocking calls run on.

The engine is built from the workspace folders and the index settings; when those settings change
a new engine replaces it, and the old one is closed only once the last call still using it has
returned. Engine calls never run on the event loop: retrievals and refreshes use a small pool of
their own (pygls's pool also reads stdin, so filling it would stop the server hearing a
`$/cancelRequest`), and buffer and file updates go through one ordered thread so that the last
edit always wins and a retrieve can wait for every edit sent before it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from ..config import Settings
from ..engine import Engine

log = logging.getLogger(__name__)

T = TypeVar("T")
ENGINE_WORKERS = 4


class NoWorkspace(RuntimeError):
    """No usable workspace folder is open, so there is nothing to search."""


class EngineHost:
    """Holds the current engine; counts its users so a replaced engine is closed safely."""

    def __init__(self) -> None:
        self._engine: Engine | None = None
        self._users: dict[int, int] = {}
        self._lock = threading.Lock()
        self.pool = ThreadPoolExecutor(ENGINE_WORKERS, thread_name_prefix="ir-engine")
        self.sync_pool = ThreadPoolExecutor(1, thread_name_prefix="ir-sync")

    @property
    def engine(self) -> Engine | None:
        return self._engine

    def roots(self) -> list[Path]:
        e = self._engine
        return list(e.roots) if e else []

    def replace(self, engine: Engine | None) -> None:
        """Make `engine` current; the old one is closed now if idle, else by its last user."""
        with self._lock:
            old, self._engine = self._engine, engine
            idle = old is not None and self._users.get(id(old), 0) == 0
        if idle:
            assert old is not None
            old.close()

    @contextmanager
    def use(self) -> Iterator[Engine]:
        """The current engine, kept open for the duration of the block."""
        with self._lock:
            e = self._engine
            if e is None:
                raise NoWorkspace("no workspace folder is open: open a folder first")
            self._users[id(e)] = self._users.get(id(e), 0) + 1
        try:
            yield e
        finally:
            with self._lock:
                n = self._users[id(e)] - 1
                if n:
                    self._users[id(e)] = n
                else:
                    del self._users[id(e)]
                retired = n == 0 and e is not self._engine
            if retired:
                e.close()

    async def run(self, fn: Callable[[Engine], T]) -> T:
        """Run fn(engine) on an engine worker thread."""
        loop = asyncio.get_running_loop()

        def call() -> T:
            with self.use() as e:
                return fn(e)

        return await loop.run_in_executor(self.pool, call)

    def submit_update(self, fn: Callable[[Engine], Any]) -> None:
        """Queue an index update (buffer, saved or watched file) on the ordered thread."""

        def call() -> None:
            try:
                with self.use() as e:
                    fn(e)
            except NoWorkspace:
                pass  # buffers are applied again when a folder opens
            except Exception:  # one bad update must not stop the ones after it
                log.exception("index update failed")

        self.sync_pool.submit(call)

    async def flush_updates(self) -> None:
        """Wait until every update queued before now has been applied."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.sync_pool, lambda: None)

    def build(self, roots: list[Path], settings: Settings) -> None:
        """Replace the engine with one over these roots (None when there is no root)."""
        self.replace(Engine(roots, settings) if roots else None)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.sync_pool.shutdown(wait=False, cancel_futures=True)
        self.replace(None)
