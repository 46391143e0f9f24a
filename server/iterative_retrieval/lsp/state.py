"""The language server's state: the engine service, settings, index state, buffers, requests.

`RetrievalServer` keeps the server's state as typed attributes and the operations on it (apply
a configuration, set the roots, refresh the index, queue a buffer or file update, cancel a
request); the handlers that call them live in `server` (lifecycle), `commands` and `sync`,
which import this module and nothing imports back. Nothing here retrieves: every search goes
through the one `Engine`, the same as the command line's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__, heap
from ..config import FOLDER_SETTINGS, Settings
from ..contract import IndexState, RefreshJson
from ..engine import Engine
from ..loop import Cancelled
from ..service import EngineService, NoWorkspace
from .progress import SLOW_STEP, WorkProgress
from .protocol import INDEX_SETTINGS, parse_config
from .rpc import RecordingStdin, RetrievalProtocol, converter

log = logging.getLogger("iterative_retrieval.lsp")

SERVER_NAME = "iterative-retrieval"
SETTLE_DELAY = 0.05
"""Seconds after an answer before the heap is settled (the answer is written first)."""
BULK_CHANGES = 300
"""More changes than this at once (a branch switch) re-scan the disk instead."""


class Buffers:
    """The latest unsaved text per path, waiting for the ordered thread to index it."""

    def __init__(self) -> None:
        self._latest: dict[str, str] = {}
        self._lock = threading.Lock()

    def put(self, path: str, text: str) -> bool:
        """Store the text; True when no update for this path is queued yet."""
        with self._lock:
            first = path not in self._latest
            self._latest[path] = text
        return first

    def take(self, path: str) -> str | None:
        with self._lock:
            return self._latest.pop(path, None)

    def drop(self, path: str) -> None:
        with self._lock:
            self._latest.pop(path, None)


def _scopes(settings: Settings, folders: Mapping[Path, Settings],
            roots: list[Path]) -> dict[Path, tuple[Any, ...]]:
    """What decides each root's index of its settings, its folder's own or the workspace's (a
    change of another setting, the workspace's or a folder's git base, does not rebuild the
    engine)."""
    return {root: tuple(getattr(settings.for_folder(folders.get(root), settings), k)
                        for k in FOLDER_SETTINGS if k in INDEX_SETTINGS) for root in roots}


def _shown(value: Any) -> str:
    return str(list(value)) if isinstance(value, tuple) else repr(value)


class RetrievalServer(LanguageServer):
    """The server's state; handlers are registered on it by `server.create_server`."""

    protocol: RetrievalProtocol

    def __init__(self) -> None:
        # pygls's own thread pool only reads stdin, one message at a time (the engine has its
        # pools, service.py): one thread, not one more each time a read starts before the last
        # thread is idle again (the pool grows under load otherwise).
        super().__init__(SERVER_NAME, __version__, protocol_cls=RetrievalProtocol,
                         converter_factory=converter, max_workers=1)
        self.host = EngineService()
        self.buffers = Buffers()
        """Unsaved text waiting to be indexed (see `sync`)."""
        self.init_config: dict[str, Any] = {}
        """Settings from `initializationOptions`."""
        self.client_config: dict[str, Any] = {}
        """Settings from `workspace/configuration` or `didChangeConfiguration` (they win)."""
        self.folder_config: dict[Path, dict[str, Any]] = {}
        """Each workspace folder's own settings (`workspace/configuration` with its scopeUri);
        only the folder settings (config.FOLDER_SETTINGS) of them count."""
        self.folder_uris: dict[Path, str] = {}
        """The URI the client named each root by: what its scopeUri is."""
        self.config_version = 0
        """Bumped by every push or pull, so that a slow pull never undoes a newer push."""
        self.settings = Settings()
        self.index_state: IndexState = "starting"
        self.index_error: str | None = None
        self.last_refresh: list[RefreshJson] = []
        self.watching_files = False
        """True once `workspace/didChangeWatchedFiles` is registered with the client."""
        self.stopping = threading.Event()
        self.over_tcp = False
        self._cancel_flags: dict[Any, threading.Event] = {}
        self._index_lock = asyncio.Lock()
        self._queued_refresh: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()
        self._settle: asyncio.TimerHandle | None = None
        self._running = 0
        """Commands begun and not ended."""
        self.pending_messages: list[tuple[types.MessageType, str]] = []
        """Warnings found before the client can be told (during initialize)."""
        self.exit_code = 0
        """What `run` returns: 1 after an `exit` that no `shutdown` came before."""
        self.stdin = RecordingStdin(None)
        """The input over stdio (see RecordingStdin); set by `start_io`."""

    def start_io(self, stdin=None, stdout=None) -> None:
        self.stdin = RecordingStdin(stdin or sys.stdin.buffer)
        super().start_io(self.stdin, stdout)  # type: ignore[arg-type]

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls's logging, and an answer to a request it could not decode (too deep)."""
        body = self.stdin.undecoded()
        if isinstance(error, RecursionError) and body is not None:
            self.protocol.answer_undecodable(body, error)
        super().report_server_error(error, source)

    # -- messages ----------------------------------------------------------------------------

    def log_client(self, message: str, level: types.MessageType = types.MessageType.Info) -> None:
        """To stderr and to the client's log (`window/logMessage`). Call on the event loop."""
        log.log(_PY_LEVEL[level], "%s", message)
        with contextlib.suppress(OSError):  # the client is gone: stderr has it
            self.window_log_message(types.LogMessageParams(type=level, message=message))

    def warn_user(self, message: str) -> None:
        """A problem the user should fix (bad setting, missing folder): `window/showMessage`."""
        log.warning("%s", message)
        with contextlib.suppress(OSError):
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=message)
            )

    def pending_or_log(self, message: str) -> None:
        if self.index_state == "starting":
            self.pending_messages.append((types.MessageType.Log, message))
        else:
            self.log_client(message, types.MessageType.Log)

    def pending_or_warn(self, message: str) -> None:
        if self.index_state == "starting":
            self.pending_messages.append((types.MessageType.Warning, message))
        else:
            self.warn_user(message)

    # -- cancellation ------------------------------------------------------------------------

    def begin_request(self, msg_id: Any) -> threading.Event:
        """The cancellation flag of a request (already set when it was cancelled before it ran)."""
        flag = self._cancel_flags.setdefault(msg_id, threading.Event())
        self._running += 1
        if self.stopping.is_set():
            flag.set()
        return flag

    def end_request(self, msg_id: Any) -> None:
        self._cancel_flags.pop(msg_id, None)
        self._running -= 1

    def cancel_request(self, msg_id: Any) -> None:
        self._cancel_flags.setdefault(msg_id, threading.Event()).set()

    def settle_soon(self, delay: float = SETTLE_DELAY) -> None:
        """Collect and freeze the heap (see heap.settle) once an answer is on its way: a
        moment later, and a full collection only when no request is running. Call on the
        event loop."""
        if self._settle is None:
            self._settle = asyncio.get_running_loop().call_later(delay, self._settle_now)

    def _settle_now(self) -> None:
        self._settle = None
        heap.settle(idle=not (self._running or self.index_busy()))

    def stop_everything(self) -> None:
        self.stopping.set()
        for flag in list(self._cancel_flags.values()):
            flag.set()

    # -- settings and roots ------------------------------------------------------------------

    def take_config(self, raw: Any, source: str) -> dict[str, Any]:
        values, report = parse_config(raw, source)
        for w in report.warnings:
            self.pending_or_warn(w)
        for note in report.ignored:
            self.pending_or_log(note)
        return values

    def effective_settings(self) -> Settings:
        return Settings().merged(**{**self.init_config, **self.client_config}).validated()

    def effective_folders(self) -> dict[Path, Settings]:
        """The roots whose own settings differ from the workspace's, with their settings; a
        folder whose values are refused keeps the workspace's (the refusal is reported)."""
        out = {}
        for root, raw in self.folder_config.items():
            values = {k: v for k, v in raw.items() if k in FOLDER_SETTINGS}
            try:
                mine = self.settings.merged(**values).validated()
            except ValueError as exc:
                self.pending_or_warn(f"settings of folder {root} refused ({exc})")
                continue
            if any(getattr(mine, k) != getattr(self.settings, k) for k in FOLDER_SETTINGS):
                out[root] = mine
        return out

    def apply_settings(self) -> None:
        """Use the current configuration; rebuild the engine when the index settings changed,
        the workspace's or a folder's."""
        new = self.effective_settings()
        old, self.settings = self.settings, new
        engine = self.host.engine
        if engine is None:
            return
        folders = {r: f for r, f in self.effective_folders().items() if r in engine.roots}
        if (any(getattr(old, f) != getattr(new, f) for f in INDEX_SETTINGS)
                or _scopes(engine.settings, engine.folders, engine.roots)
                != _scopes(new, folders, engine.roots)):
            self.log_client("index settings changed: rebuilding the engine")
            self.set_roots(list(engine.roots))
        else:  # the rest apply from the next retrieve on, the index as it is
            engine.configure(new, folders)

    def set_roots(self, roots: list[Path]) -> None:
        """A new engine over these roots with the current settings; buffers are replayed."""
        folders = self.effective_folders()
        for root, mine in folders.items():
            if root in roots:
                own = ", ".join(f"{k} {_shown(getattr(mine, k))}" for k in FOLDER_SETTINGS)
                self.log_client(f"folder {root}: its own settings: {own}")
        self.host.build(roots, self.settings, {r: f for r, f in folders.items() if r in roots})
        if roots:
            self.replay_documents()
        self.schedule_refresh()

    def folder_path(self, uri: str) -> Path | None:
        """A usable folder from a workspace folder URI, or None with a message saying why."""
        path = to_fs_path(uri)
        if path is None:
            self.pending_or_warn(f"workspace folder {uri} is not a local folder; ignored")
            return None
        if not os.path.isdir(path):
            self.pending_or_warn(f"workspace folder {path} does not exist; ignored")
            return None
        root = Path(os.path.realpath(path))
        self.folder_uris.setdefault(root, uri)
        return root

    # -- the live index: buffers and file events -----------------------------------------------

    def set_buffer(self, path: str, text: str) -> None:
        """Index an open buffer's text (coalesced: a burst of edits costs one re-index)."""
        buffers = self.buffers
        if buffers.put(path, text):

            def apply(e: Engine) -> None:
                latest = buffers.take(path)
                if latest is not None:
                    e.set_document(path, latest)

            self.host.submit_update(apply)

    def close_buffer(self, path: str) -> None:
        """Back to the file on disk."""
        self.buffers.drop(path)
        self.host.submit_update(lambda e: e.close_document(path))

    def replay_documents(self) -> None:
        """Index every open buffer again (a new engine, or a folder was added)."""
        try:
            docs = list(self.workspace.text_documents.values())
        except RuntimeError:  # before initialize
            return
        for doc in docs:
            path = to_fs_path(doc.uri)
            if path is not None:
                self.set_buffer(path, doc.source)

    def files_changed(self, paths: list[str], deleted: frozenset[str] = frozenset()) -> None:
        """Re-read these files; a folder among them, or too many, re-scans the disk instead."""
        if not paths:
            return
        if len(paths) > BULK_CHANGES:
            self.schedule_refresh()
            return
        loop = asyncio.get_running_loop()

        def apply(e: Engine) -> None:
            folders = [p for p in paths if os.path.isdir(p)
                       or p in deleted and not os.path.splitext(p)[1]]
            e.files_changed([p for p in paths if p not in folders])
            if folders:
                loop.call_soon_threadsafe(self.schedule_refresh)

        self.host.submit_update(apply)

    # -- the index ---------------------------------------------------------------------------

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def schedule_refresh(self) -> asyncio.Task:
        """Refresh the index in the background (one queued refresh at most)."""
        if self._queued_refresh is not None and not self._queued_refresh.done():
            return self._queued_refresh
        task = self._queued_refresh = self.spawn(self.refresh_index())
        return task

    async def refresh_index(self) -> list[RefreshJson]:
        """Bring the index up to date with work-done progress; the state says how it went."""
        async with self._index_lock:
            self._queued_refresh = None
            if self.host.engine is None:
                self.index_state = "no-workspace"
                return []
            self.index_state = "indexing"
            progress = await WorkProgress.start(self, "Indexing workspace", "scanning files")

            def on_progress(done: int, total: int) -> None:
                progress.report(f"{done}/{total} files indexed",
                                100 * done // total if total else 100)
                if SLOW_STEP:  # debugging aid: watch the server answer while it indexes
                    time.sleep(SLOW_STEP)

            try:
                stats = await self.host.run(
                    lambda e: e.refresh(progress=on_progress, should_stop=self.stopping.is_set)
                )
            except NoWorkspace:
                self.index_state = "no-workspace"
                progress.end("no workspace folder")
                return []
            except Exception as exc:
                self.index_state, self.index_error = "error", f"indexing failed: {exc}"
                log.exception("indexing failed")
                self.log_client(self.index_error, types.MessageType.Error)
                progress.end(self.index_error)
                return []
            self.last_refresh = [s.to_dict() for s in stats]
            self.index_state, self.index_error = "ready", None
            self.settle_soon()
            files = sum(s.files for s in stats)
            read = sum(s.indexed for s in stats)
            progress.end(f"{files} files indexed ({read} read)")
            self.log_client(f"index ready: {files} files ({read} read) in "
                            f"{sum(s.seconds for s in stats):.2f}s")
            return self.last_refresh

    def index_busy(self) -> bool:
        """True while a refresh runs or is queued."""
        return self._index_lock.locked() or (
            self._queued_refresh is not None and not self._queued_refresh.done()
        )

    async def wait_index_idle(self, should_stop) -> None:
        """Let a running refresh finish first, so a retrieve does not index the same files twice."""
        while self.index_busy():
            if should_stop():
                raise Cancelled()
            await asyncio.sleep(0.05)


_PY_LEVEL = {
    types.MessageType.Error: logging.ERROR,
    types.MessageType.Warning: logging.WARNING,
    types.MessageType.Info: logging.INFO,
    types.MessageType.Log: logging.DEBUG,
    types.MessageType.Debug: logging.DEBUG,
}
