"""The language server: workspace folders, configuration, the background index, and start-up.

`RetrievalServer` keeps the server's state as typed attributes (the engine host, the settings,
the index state, per-request cancellation flags); the features live in their own modules
(`commands`, `sync`) and are registered by `create_server`. Nothing here retrieves: every
search goes through the one `Engine`, the same as the command line's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

# languages: the index imports it on first parse; a server parses soon (a save, an open
# buffer), and that first save should not wait for the import
from .. import __version__, heap, languages  # noqa: F401
from ..config import Settings
from ..loop import Cancelled
from .commands import SLOW_STEP
from .host import EngineHost, NoWorkspace
from .progress import WORK_DONE_TOKEN, WorkProgress
from .protocol import INDEX_SETTINGS, SECTION, SETTING_NAMES, parse_config
from .sync import Buffers, LineWorkspace

log = logging.getLogger("iterative_retrieval.lsp")

SERVER_NAME = "iterative-retrieval"


_ANSWERED = object()
"""Stands in for a request already answered with an error while it was being read."""


class RecordingStdin:
    """The server's stdin, keeping the body of the message being read until it is decoded:
    pygls reports a body json cannot decode with the exception alone, and a request nested
    deeper than the decoder's recursion limit then went unanswered."""

    def __init__(self, raw: BinaryIO | None):
        self._raw = raw
        self._body: bytes | None = None

    def readline(self) -> bytes:
        assert self._raw is not None
        return self._raw.readline()

    def read(self, n: int) -> bytes:
        assert self._raw is not None
        self._body = self._raw.read(n)
        return self._body

    def decoded(self) -> None:
        self._body = None

    def undecoded(self) -> bytes | None:
        body, self._body = self._body, None
        return body


_JSON_TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+"|[{}\[\]]')
_JSON_SCALAR = re.compile(rb'\s*:\s*(-?\d+|"(?:[^"\\]++|\\.)*+")')


def top_level_id_and_method(body: bytes) -> tuple[int | str | None, str | None]:
    """The "id" and "method" of a JSON object, read by a flat scan (no recursion, linear)."""
    found: dict[bytes, Any] = {}
    depth = 0
    for m in _JSON_TOKEN.finditer(body):
        tok = m.group()
        if tok in (b"{", b"["):
            depth += 1
        elif tok in (b"}", b"]"):
            depth -= 1
        elif depth == 1 and tok in (b'"id"', b'"method"'):
            value = _JSON_SCALAR.match(body, m.end())
            if value is not None:
                try:
                    found[tok] = json.loads(value.group(1))
                except ValueError:
                    continue
            if len(found) == 2:
                break
    msg_id, method = found.get(b'"id"'), found.get(b'"method"')
    return (msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None,
            method if isinstance(method, str) else None)


class RetrievalProtocol(LanguageServerProtocol):
    """pygls's protocol, plus the hooks long commands need.

    They need their progress token and a cancellation flag that `$/cancelRequest` sets (pygls
    only cancels the outer future); over TCP, `exit` must end the session without SystemExit.
    """

    _server: RetrievalServer

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        WORK_DONE_TOKEN.set(params.work_done_token)
        return (yield from super().lsp_workspace__execute_command(params))

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        result = yield from super().lsp_initialize(params)
        # pygls builds its Workspace itself: ours differs only in how it cuts lines (sync.py)
        self._workspace.__class__ = LineWorkspace
        return result

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args):
        # pygls exits with 1 without a shutdown first, but by SystemExit, which its own loop
        # swallows: `run` returns this code instead.
        self._server.exit_code = 0 if self._shutdown else 1
        if not self._server.over_tcp:
            return (yield from super().lsp_exit(*args))
        # Over TCP pygls's exit raises SystemExit inside the connection callback, where asyncio
        # only logs it. Closing the connection ends the session and then the listener instead.
        self._server.stop_everything()
        if self.writer is not None:
            self.writer.close()
        return None

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        """pygls's, but the futures of a generator handler's steps are forgotten when done.

        pygls 2.1 files each step of a built-in generator handler (`executeCommand` runs ours
        as one) under a random id in `_request_futures` and never removes it: every command's
        answer stayed in memory for the life of the server (90 → 226 MB over 2,000 retrieves).
        Requests of the client are removed by pygls itself when answered, as before.
        """
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda done: self._forget(msg_id, done))

    def _forget(self, msg_id, future) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    def structure_message(self, data):
        """pygls's, but a request that cannot be read is answered with an error.

        pygls logs such a request and drops it, so the client would wait for an answer forever.
        """
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            msg_id = data.get("id") if isinstance(data, dict) else None
            if not isinstance(msg_id, (int, str)) or "method" not in data:
                raise
            method = data.get("method")
            error = JsonRpcInvalidParams(
                f"{method if isinstance(method, str) else 'request'}: malformed parameters"
                f" ({type(exc.__cause__ or exc).__name__})"
            )
            self._send_response(msg_id, error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message):
        """pygls's, but a request after `shutdown` is answered InvalidRequest (pygls dropped
        it, and the client waited for ever)."""
        self._server.stdin.decoded()
        if message is _ANSWERED:
            return None
        method, msg_id = getattr(message, "method", None), getattr(message, "id", None)
        if self._shutdown and method not in (None, types.EXIT) and msg_id is not None:
            log.info("%s after shutdown: refused", method)
            self._send_response(msg_id, error=JsonRpcInvalidRequest(
                f"{method}: the server is shutting down and takes no more requests"
            ).to_response_error())
            return None
        return super().handle_message(message)

    def answer_undecodable(self, body: bytes, exc: BaseException) -> None:
        """Answer a request whose body json could not decode because it nests too deeply
        (pygls logged it and dropped it: the client waited for ever). Its id and method are
        read without recursion; a body without a usable id gets no answer (there is no one to
        answer), as pygls does for any other undecodable notification."""
        msg_id, method = top_level_id_and_method(body)
        if msg_id is None:
            return
        what = method if method is not None else "request"
        error = (JsonRpcInvalidParams if method is not None else JsonRpcInvalidRequest)(
            f"{what}: the message nests too deeply to be read ({type(exc).__name__}); "
            "send at most a few hundred levels")
        self._send_response(msg_id, error=error.to_response_error())

    def _handle_cancel_notification(self, msg_id):
        if msg_id in self._request_futures:
            self._server.cancel_request(msg_id)
        super()._handle_cancel_notification(msg_id)


SETTLE_DELAY = 0.05
"""Seconds after an answer before the heap is settled (the answer is written first)."""


class RetrievalServer(LanguageServer):
    """The server's state; handlers are registered on it by `create_server`."""

    def __init__(self) -> None:
        super().__init__(SERVER_NAME, __version__, protocol_cls=RetrievalProtocol)
        self.host = EngineHost()
        self.buffers = Buffers()
        """Unsaved text waiting to be indexed (see `sync`)."""
        self.init_config: dict[str, Any] = {}
        """Settings from `initializationOptions`."""
        self.client_config: dict[str, Any] = {}
        """Settings from `workspace/configuration` or `didChangeConfiguration` (they win)."""
        self.config_version = 0
        """Bumped by every push or pull, so that a slow pull never undoes a newer push."""
        self.settings = Settings()
        self.index_state = "starting"
        """starting, indexing, ready, error or no-workspace."""
        self.index_error: str | None = None
        self.last_refresh: list[dict[str, Any]] = []
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
        try:
            self.window_log_message(types.LogMessageParams(type=level, message=message))
        except OSError:  # the client is gone: stderr has it
            pass

    def warn_user(self, message: str) -> None:
        """A problem the user should fix (bad setting, missing folder): `window/showMessage`."""
        log.warning("%s", message)
        try:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=message)
            )
        except OSError:
            pass

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

    def apply_settings(self) -> None:
        """Use the current configuration; rebuild the engine when the index settings changed."""
        new = self.effective_settings()
        old, self.settings = self.settings, new
        engine = self.host.engine
        if engine is not None and any(
            getattr(old, f) != getattr(new, f) for f in INDEX_SETTINGS
        ):
            self.log_client("index settings changed: rebuilding the engine")
            self.set_roots(list(engine.roots))

    def set_roots(self, roots: list[Path]) -> None:
        """A new engine over these roots with the current settings; buffers are replayed."""
        self.host.build(roots, self.settings)
        if roots:
            from .sync import replay_documents

            replay_documents(self)
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
        return Path(os.path.realpath(path))

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

    async def refresh_index(self) -> list[dict[str, Any]]:
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


def create_server() -> RetrievalServer:
    """A server with every feature registered."""
    from . import commands, sync

    server = RetrievalServer()
    _register_lifecycle(server)
    sync.register(server)
    commands.register(server)
    return server


def _register_lifecycle(server: RetrievalServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: RetrievalServer, params: types.InitializeParams) -> None:
        ls.init_config = ls.take_config(params.initialization_options, "initializationOptions") \
            if params.initialization_options is not None else {}
        try:
            ls.settings = ls.effective_settings()
        except ValueError as exc:  # cannot happen with checked values; never fail start-up
            ls.pending_or_warn(f"settings refused ({exc}); using the defaults")
            ls.init_config, ls.settings = {}, Settings()
        uris: list[str] = []
        if params.workspace_folders:
            uris = [f.uri for f in params.workspace_folders]
        elif params.root_uri:
            uris = [params.root_uri]
        elif params.root_path:
            uris = [Path(params.root_path).absolute().as_uri()]
        roots: list[Path] = []
        for uri in uris:
            p = ls.folder_path(uri)
            if p is not None and p not in roots:
                roots.append(p)
        ls.host.build(roots, ls.settings)
        if not roots:
            ls.pending_messages.append((types.MessageType.Info,
                                        "no workspace folder: open a folder to search it"))

    @server.feature(types.INITIALIZED)
    async def initialized(ls: RetrievalServer, params: types.InitializedParams) -> None:
        ls.index_state = "indexing" if ls.host.engine else "no-workspace"
        for level, message in ls.pending_messages:
            if level == types.MessageType.Warning:
                ls.warn_user(message)
            else:
                ls.log_client(message, level)
        ls.pending_messages.clear()
        ls.log_client(f"iterative-retrieval {__version__}: roots "
                      f"{', '.join(map(str, ls.host.roots())) or '(none)'}")
        await pull_configuration(ls)
        ls.schedule_refresh()
        await _register_dynamic(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: RetrievalServer, params: types.DidChangeConfigurationParams
    ) -> None:
        settings = params.settings
        pushed = isinstance(settings, dict) and (
            SECTION in settings or (settings and set(settings) <= set(SETTING_NAMES))
        )
        if pushed:
            ls.config_version += 1
            ls.client_config = ls.take_config(settings, "didChangeConfiguration")
            ls.apply_settings()
        else:  # the pull model: the notification only says "ask again"
            await pull_configuration(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_folders(
        ls: RetrievalServer, params: types.DidChangeWorkspaceFoldersParams
    ) -> None:
        roots = ls.host.roots()
        for f in params.event.removed or []:
            p = to_fs_path(f.uri)
            if p is not None:
                real = Path(os.path.realpath(p))
                roots = [r for r in roots if r != real]
        for f in params.event.added or []:
            p = ls.folder_path(f.uri)
            if p is not None and p not in roots:
                roots.append(p)
        ls.log_client(f"workspace folders: {', '.join(map(str, roots)) or '(none)'}")
        ls.set_roots(roots)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: RetrievalServer, params: None) -> None:
        ls.stop_everything()


async def pull_configuration(ls: RetrievalServer) -> None:
    """Ask the client for the `iterativeRetrieval` section when it supports it."""
    caps = ls.client_capabilities.workspace
    if not (caps and caps.configuration):
        return
    version = ls.config_version = ls.config_version + 1
    try:
        items = await ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section=SECTION)]
        ))
    except Exception as exc:  # noqa: BLE001 - any client error: keep the settings we have
        ls.log_client(f"workspace/configuration failed: {exc}", types.MessageType.Warning)
        return
    if version != ls.config_version:
        return  # newer settings arrived while we waited: they win
    raw = items[0] if items else None
    ls.client_config = ls.take_config(raw, "workspace/configuration") if raw is not None else {}
    ls.apply_settings()


async def _register_dynamic(ls: RetrievalServer) -> None:
    """Watch files (and configuration) through the client when it allows dynamic registration."""
    caps = ls.client_capabilities.workspace
    regs: list[types.Registration] = []
    watched = caps and caps.did_change_watched_files
    if watched and watched.dynamic_registration:
        regs.append(types.Registration(
            id="iterative-retrieval-watch",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                types.FileSystemWatcher(glob_pattern="**/*"),
            ]),
        ))
    config = caps and caps.did_change_configuration
    if config and config.dynamic_registration:
        regs.append(types.Registration(
            id="iterative-retrieval-config",
            method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION),
        ))
    if not regs:
        ls.log_client("the client cannot watch files for us: the disk is scanned before "
                      "each retrieve instead")
        return
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=regs))
    except Exception as exc:  # noqa: BLE001 - any client error: scan on demand instead
        ls.log_client(f"client/registerCapability failed: {exc}", types.MessageType.Warning)
        return
    ls.watching_files = any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in regs)


def _parse_tcp(spec: str) -> tuple[str, int]:
    host, sep, port = spec.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--tcp expects HOST:PORT (e.g. 127.0.0.1:2087), got {spec!r}")
    return host or "127.0.0.1", int(port)


def run(tcp: str | None = None) -> int:
    """`iterative-retrieval serve`: stdio by default, TCP for debugging. Logs go to stderr."""
    level = os.environ.get("ITERATIVE_RETRIEVAL_LOG", "INFO").upper()
    logging.getLogger("iterative_retrieval").setLevel(getattr(logging, level, logging.INFO))
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=sys.stderr,
                            format="iterative-retrieval: %(levelname)s: %(message)s")
    try:
        address = _parse_tcp(tcp) if tcp else None
    except ValueError as exc:
        print(f"iterative-retrieval: error: {exc}", file=sys.stderr)
        return 2
    server = create_server()
    try:
        if address:
            log.info("listening on %s:%d", *address)
            server.over_tcp = True
            server.start_tcp(*address)
        else:
            server.start_io()
    finally:
        server.stop_everything()
        server.host.shutdown()
    return server.exit_code
