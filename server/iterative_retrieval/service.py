"""The engine a server hosts, and the worker threads its blocking calls run on.

Both servers (lsp/ and mcp_server.py) keep their engine in an `EngineService`. The engine is
built from the workspace roots and the settings; when the index settings change a new engine
replaces it, and the old one is closed only once the last call still using it has returned.
Engine calls never run on the event loop: retrievals and refreshes use a small pool of their
own (pygls's pool also reads stdin, so filling it would stop the language server hearing a
`$/cancelRequest`; the MCP server runs one call at a time, `workers=1`), cheap reads that must
answer while a long call runs (`peek`) a thread of their own, and buffer and file updates one
ordered thread, so that the last edit always wins and a retrieve can wait for every edit sent
before it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from .config import Settings
from .engine import Engine

log = logging.getLogger(__name__)

T = TypeVar("T")
ENGINE_WORKERS = 4


class NoWorkspace(RuntimeError):
    """No usable workspace folder is open, so there is nothing to search."""


class EngineService:
    """Holds the current engine; counts its users so a replaced engine is closed safely."""

    def __init__(self, workers: int = ENGINE_WORKERS) -> None:
        self._engine: Engine | None = None
        self._users: dict[int, int] = {}
        self._lock = threading.Lock()
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="ir-engine")
        self.sync_pool = ThreadPoolExecutor(1, thread_name_prefix="ir-sync")
        self._calls = 0
        """Engine calls queued or running on the workers."""

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

    def build(self, roots: list[Path] | list[str], settings: Settings,
              folders: Mapping[Path, Settings] | None = None) -> Engine | None:
        """Replace the engine with one over these roots (None when there is no root);
        `folders`: a root's own settings (Engine)."""
        engine = Engine(list(roots), settings, folders) if roots else None
        self.replace(engine)
        return engine

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
        """Run fn(engine) on an engine worker thread. A cancelled caller stops waiting; the
        call itself runs on until `fn` checks its own stop flag."""
        loop = asyncio.get_running_loop()

        def call() -> T:
            try:
                with self.use() as e:
                    return fn(e)
            finally:
                with self._lock:
                    self._calls -= 1

        with self._lock:
            self._calls += 1
        return await loop.run_in_executor(self.pool, call)

    def busy(self) -> bool:
        """Whether an engine call is queued or running on the workers."""
        return self._calls > 0

    async def peek(self, fn: Callable[[Engine], T]) -> T:
        """Run a cheap read, fn(engine), on a thread of its own: it answers while the
        workers are busy (index counts during a first index)."""
        def call() -> T:
            with self.use() as e:
                return fn(e)

        return await asyncio.to_thread(call)

    def submit(self, fn: Callable[[Engine], Any]) -> None:
        """Queue fn(engine) on the workers without waiting (an index warm-up); a failure is
        logged, and the next call reports it."""
        def call() -> None:
            try:
                with self.use() as e:
                    fn(e)
            except NoWorkspace:
                pass
            except Exception as exc:  # the first call that needs the index reports it
                log.warning("background engine call failed: %s", exc)

        self.pool.submit(call)

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

    def shutdown(self, wait: float = 0.0) -> None:
        """Stop taking work and close the engine: at once, or after the calls under way
        have returned (at most `wait` seconds each)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.sync_pool.shutdown(wait=False, cancel_futures=True)
        if wait:
            for t in list(getattr(self.pool, "_threads", ())):
                t.join(timeout=wait)
        self.replace(None)
