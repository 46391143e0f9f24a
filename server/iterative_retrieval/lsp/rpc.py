"""pygls's JSON-RPC protocol, with the hooks the server needs, and its argument conversion.

Commands take typed arguments: pygls structures each command's one argument into its typed
dict (contract.py) with the converter made here, which validates it with schema.validate, so a
bad argument is answered InvalidParams naming the command and the field. The protocol class
also hands long commands their progress token and a cancellation flag that `$/cancelRequest`
sets (pygls only cancels the outer future), answers requests pygls would drop (a body nested
too deeply to decode, a request after `shutdown`, parameters of the wrong shape), and ends a
TCP session on `exit` without SystemExit.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, BinaryIO, Protocol

import attrs
import cattrs
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
)
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.language_server import lsp_method

from .documents import LineWorkspace
from .progress import WORK_DONE_TOKEN
from .protocol import ARGUMENT_TYPES, ParamsError, checked, one_argument

log = logging.getLogger("iterative_retrieval.lsp")


class QuietAnswers(logging.Filter):
    """pygls logs every error answer as an ERROR with a traceback, and a request its handler
    failed on with the request's parameters (the task, which may hold a pasted credential).
    An answer the server chose (invalid parameters, a request that failed for the reason its
    message states, a cancellation, an internal error whose fault `commands._answer` logged
    with its traceback) is said in one line. A fault pygls met itself keeps its traceback;
    parameters are never logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == "Failed to handle request %s %s %s" and isinstance(record.args, tuple):
            record.msg, record.args = "Failed to handle request %s %s", record.args[:2]
        exc = record.exc_info[1] if record.exc_info else None
        undecoded = isinstance(exc, ValueError | RecursionError)
        if record.msg == "Unable to handle message" and undecoded:
            # a body json cannot decode (invalid, or nested too deeply: answered all the same)
            record.msg, record.args = "a message that cannot be decoded: %s: %s", (
                type(exc).__name__, exc)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        elif isinstance(exc, JsonRpcException):
            internal = exc.code == JsonRpcInternalError.CODE
            record.msg, record.args = "answered with an error (%s): %s", (exc.code, exc.message)
            record.exc_info, record.exc_text = None, None
            record.levelno = logging.ERROR if internal else logging.INFO
            record.levelname = logging.getLevelName(record.levelno)
        return True


QUIET_ANSWERS = QuietAnswers()
"""Installed on pygls's JSON-RPC and I/O loggers by `server.create_server`."""
QUIET_LOGGERS = ("pygls.protocol.json_rpc", "pygls.io_", "pygls.server")

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


def converter() -> cattrs.Converter:
    """pygls's converter, plus the commands' argument types (each checked by schema.validate:
    the ParamsError it raises names the command, and pygls answers it with InvalidParams)."""
    conv = default_converter()
    by_type = {typ: command for command, typ in ARGUMENT_TYPES.items()}

    def structure(value: Any, typ: Any) -> Any:
        return checked(by_type[typ], value)

    conv.register_structure_hook_func(lambda t: t in by_type, structure)
    return conv


class ServerHooks(Protocol):
    """What the protocol needs of its server (state.RetrievalServer)."""

    exit_code: int
    over_tcp: bool
    stdin: RecordingStdin

    def stop_everything(self) -> None: ...

    def cancel_request(self, msg_id: Any) -> None: ...


class RetrievalProtocol(LanguageServerProtocol):
    """pygls's protocol, plus the hooks long commands need (see the module's docstring)."""

    _server: Any  # a state.RetrievalServer (ServerHooks): pygls types it as its own base

    @property
    def hooks(self) -> ServerHooks:
        return self._server

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        WORK_DONE_TOKEN.set(params.work_done_token)
        if params.command in ARGUMENT_TYPES:
            # one object, or none for a command that takes none: pygls converts it (converter)
            try:
                arg = one_argument(params.command, params.arguments)
            except ParamsError as exc:
                raise JsonRpcInvalidParams(str(exc)) from None
            params = attrs.evolve(params, arguments=[arg])
        try:
            return (yield from super().lsp_workspace__execute_command(params))
        except JsonRpcInvalidParams as exc:
            # pygls wraps the converter's ParamsError as "Invalid Params: <message>"
            if isinstance(exc.__context__, ParamsError):
                raise JsonRpcInvalidParams(str(exc.__context__)) from None
            raise

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        result = yield from super().lsp_initialize(params)
        # pygls builds its Workspace itself: ours differs only in how it cuts lines
        self._workspace.__class__ = LineWorkspace
        return result

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args):
        # pygls exits with 1 without a shutdown first, but by SystemExit, which its own loop
        # swallows: `run` returns this code instead.
        self.hooks.exit_code = 0 if self._shutdown else 1
        if not self.hooks.over_tcp:
            return (yield from super().lsp_exit(*args))
        # Over TCP pygls's exit raises SystemExit inside the connection callback, where asyncio
        # only logs it. Closing the connection ends the session and then the listener instead.
        self.hooks.stop_everything()
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
        self.hooks.stdin.decoded()
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
            self.hooks.cancel_request(msg_id)
        super()._handle_cancel_notification(msg_id)
