"""A language-server client for timing the real server: pygls's own client, driven from
synchronous benchmark code.

pygls's `LanguageClient` speaks the protocol (framing, ids, answers, the server's own
requests); it runs on an event loop in a thread of its own, and each call here waits for its
answer. It answers the server's requests the way an editor would (configuration: nothing set;
registrations and progress tokens: accepted) and times each request from send to answer.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

T = TypeVar("T")

CLIENT_CAPABILITIES = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        configuration=True,
        workspace_folders=True,
        # an editor watches files for the server, so a ready index is not re-scanned per request
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
            dynamic_registration=True),
        did_change_configuration=types.DidChangeConfigurationClientCapabilities(
            dynamic_registration=True),
    ),
    window=types.WindowClientCapabilities(work_done_progress=True),
)


class _Process:
    """The server process's id (for PeakRss) and whether it still runs."""

    def __init__(self, proc: asyncio.subprocess.Process):
        self._proc = proc
        self.pid = proc.pid

    def poll(self) -> int | None:
        return self._proc.returncode


class LspClient:
    """request / notify / command over pygls's client, each a blocking call."""

    def __init__(self, cmd: list[str], env: dict[str, str] | None = None):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="lsp-client")
        self._thread.start()
        self.client = LanguageClient("iterative-retrieval-bench", "1")
        self._answer_server_requests()
        self._call(self.client.start_io(*cmd, env=env))
        server = self.client._server  # noqa: SLF001 - pygls keeps the process here
        assert server is not None and server.stderr is not None
        self.proc = _Process(server)
        self._call(self._start_draining(server.stderr))

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    async def _start_draining(self, stderr: asyncio.StreamReader) -> None:
        """The server's log goes to a pipe pygls opens: read it, or a full pipe stops the
        server."""
        async def drain() -> None:
            while await stderr.read(65536):
                pass

        self._drain = asyncio.ensure_future(drain())

    def _answer_server_requests(self) -> None:
        @self.client.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [None for _ in params.items]

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

        @self.client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create(params: types.WorkDoneProgressCreateParams) -> None:
            return None

        for method in (types.WINDOW_LOG_MESSAGE, types.WINDOW_SHOW_MESSAGE, types.PROGRESS):
            self.client.feature(method)(lambda params: None)  # read, and not timed

    def _typed(self, method: str, params: Any) -> Any:
        """JSON params as the method's lsprotocol type (pygls writes typed messages)."""
        if not isinstance(params, dict):
            return params
        params_type = types.METHOD_TO_TYPES[method][2]
        return self.client.protocol._converter.structure(params, params_type)  # noqa: SLF001

    # -- API -----------------------------------------------------------------------------------

    def request(self, method: str, params: Any = None, timeout: float = 600) -> tuple[Any, float]:
        """(result, seconds from send to answer); a JSON-RPC error raises RuntimeError."""
        typed = self._typed(method, params)

        async def send() -> Any:
            return await self.client.protocol.send_request_async(method, typed)

        t0 = time.perf_counter()
        try:
            result = self._call(send(), timeout)
        except Exception as exc:
            raise RuntimeError(f"{method}: {exc}") from exc
        return result, time.perf_counter() - t0

    def notify(self, method: str, params: Any = None) -> None:
        self._loop.call_soon_threadsafe(self.client.protocol.notify, method,
                                        self._typed(method, params))

    def command(self, name: str, *args: Any) -> tuple[Any, float]:
        return self.request(types.WORKSPACE_EXECUTE_COMMAND, types.ExecuteCommandParams(
            command=name, arguments=list(args)))

    def initialize(self, root: Path) -> None:
        self.request(types.INITIALIZE, types.InitializeParams(
            capabilities=CLIENT_CAPABILITIES, root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        ))
        self.notify(types.INITIALIZED, types.InitializedParams())

    def close(self) -> None:
        try:
            self.request(types.SHUTDOWN, timeout=30)
            self.notify(types.EXIT)
            self._call(self._wait_exit(), timeout=30)
        except Exception:  # noqa: BLE001 - a stuck server is stopped below
            pass
        try:
            self._call(self.client.stop(), timeout=30)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)

    async def _wait_exit(self) -> None:
        server = self.client._server  # noqa: SLF001
        if server is not None:
            await server.wait()
