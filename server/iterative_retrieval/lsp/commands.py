"""The four `workspace/executeCommand` commands, as thin adapters over the engine.

Each command takes one object argument (checked in `protocol`), runs the engine on a worker
thread, and converts the answer: `retrieve` returns the command line's JSON object, `status` the
index state, `reindex` the refresh counts, `renderContext` Markdown for a chat. Errors become
JSON-RPC errors: bad arguments InvalidParams, a cancelled run RequestCancelled, no open folder
RequestFailed, anything else InternalError (also logged with `window/logMessage`).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcRequestCancelled,
)

from .. import __version__
from ..loop import Cancelled
from ..models import SCHEMA_VERSION, RetrievalResult
from ..redact import redact_result
from ..render import to_markdown
from ..workspace import is_inside
from .host import NoWorkspace
from .progress import WORK_DONE_TOKEN, WorkProgress
from .protocol import (
    CMD_REINDEX,
    CMD_RENDER,
    CMD_RETRIEVE,
    CMD_STATUS,
    ParamsError,
    RetrieveArgs,
    parse_no_args,
    parse_render,
    parse_retrieve,
    path_from_root_param,
    patterns_under,
    settings_to_wire,
)

if TYPE_CHECKING:
    import threading

    from .server import RetrievalServer

log = logging.getLogger("iterative_retrieval.lsp")

REQUEST_FAILED = int(types.LSPErrorCodes.RequestFailed)
SLOW_STEP = float(os.environ.get("ITERATIVE_RETRIEVAL_LSP_SLOW", "0") or 0)
"""Debugging aid: seconds to pause after each progress step of a retrieve or an index, to watch
(or cancel) a retrieve, or talk to the server while it indexes. A cancelled retrieve stops
pausing at once."""
HOLD_TASKS_WITH = os.environ.get("ITERATIVE_RETRIEVAL_LSP_HOLD", "")
"""Debugging aid: a retrieve whose task contains this text holds at its first progress step
until it is cancelled, so that a client (a test) can cancel a request certainly in flight
whatever the machine's speed."""


def register(server: RetrievalServer) -> None:
    # `ls` by name (not annotated): pygls passes the server, and `*args` gets the raw arguments.
    @server.command(CMD_RETRIEVE)
    async def retrieve(ls, *args: Any) -> dict[str, Any]:
        return await _answer(ls, CMD_RETRIEVE, lambda flag: _retrieve(ls, args, flag))

    @server.command(CMD_STATUS)
    async def status(ls, *args: Any) -> dict[str, Any]:
        return await _answer(ls, CMD_STATUS, lambda flag: _status(ls, args))

    @server.command(CMD_REINDEX)
    async def reindex(ls, *args: Any) -> dict[str, Any]:
        return await _answer(ls, CMD_REINDEX, lambda flag: _reindex(ls, args))

    @server.command(CMD_RENDER)
    async def render_context(ls, *args: Any) -> dict[str, Any]:
        return await _answer(ls, CMD_RENDER, lambda flag: _render(ls, args, flag))


async def _answer(
    ls: RetrievalServer,
    command: str,
    run: Callable[[threading.Event], Awaitable[dict[str, Any]]],
) -> dict[str, Any]:
    """Run one command with its cancellation flag; turn failures into JSON-RPC errors."""
    msg_id = ls.protocol.msg_id
    flag = ls.begin_request(msg_id)
    try:
        return await run(flag)
    except ParamsError as exc:
        log.info("%s", exc)
        raise JsonRpcInvalidParams(str(exc)) from None
    except Cancelled:
        log.info("%s: cancelled", command)
        raise JsonRpcRequestCancelled(f"{command} was cancelled") from None
    except NoWorkspace as exc:
        raise JsonRpcException(f"{command}: {exc}", code=REQUEST_FAILED) from None
    except JsonRpcException:
        raise
    except Exception as exc:
        log.exception("%s failed", command)
        message = f"{command} failed: {type(exc).__name__}: {exc}"
        ls.log_client(message, types.MessageType.Error)
        raise JsonRpcInternalError(message) from None
    finally:
        ls.end_request(msg_id)
        if command != CMD_STATUS:  # polled while indexing; it allocates next to nothing
            ls.settle_soon()


# -- retrieve ----------------------------------------------------------------------------------


async def _retrieve(ls: RetrievalServer, args: tuple[Any, ...], flag) -> dict[str, Any]:
    req = parse_retrieve(args)
    result, searched = await run_retrieve(ls, req, flag, CMD_RETRIEVE)
    return result_to_wire(result, searched)


async def run_retrieve(
    ls: RetrievalServer, req: RetrieveArgs, flag, command: str
) -> tuple[RetrievalResult, list[Path]]:
    """Run the engine's loop with progress and cancellation; the result and the roots searched."""
    roots = ls.host.roots()
    if not roots:
        raise NoWorkspace("no workspace folder is open: open a folder first")
    root, prefix = (None, "") if req.root is None else resolve_root(req.root, roots, command)
    settings = _request_settings(ls, req, prefix, command)
    progress = await WorkProgress.start(
        ls, "Retrieving context", _one_line(req.task),
        token=WORK_DONE_TOKEN.get(), cancellable=True,
    )

    def should_stop() -> bool:
        return flag.is_set() or progress.cancelled() or ls.stopping.is_set()

    hold = bool(HOLD_TASKS_WITH) and HOLD_TASKS_WITH in req.task

    def report(message: str, cycle: int, total: int) -> None:
        progress.report(message, 10 + 85 * (cycle - 1) // max(total, 1))
        if SLOW_STEP:
            flag.wait(SLOW_STEP)
        while hold and not should_stop():
            flag.wait(0.05)  # the progress's own cancel (window/workDoneProgress/cancel) too

    t0 = time.perf_counter()
    try:
        await ls.host.flush_updates()  # every edit sent before this request counts
        if ls.index_busy():
            progress.report("waiting for the index", 2)
            await ls.wait_index_idle(should_stop)
        # Watched files keep a ready index current; otherwise scan the disk (cheap) first.
        refresh = not (ls.watching_files and ls.index_state == "ready")
        progress.report("refreshing the index" if refresh else "searching", 5)
        result = await ls.host.run(lambda e: e.retrieve(
            req.task, settings, should_stop=should_stop, report=report,
            roots=[root] if root else None, refresh=refresh,
        ))
    except Cancelled:
        progress.end("cancelled")
        raise
    except BaseException:
        progress.end("failed")
        raise
    progress.end(f"{len(result.files)} files, {result.stats.get('tokens', 0)} tokens, "
                 f"{len(result.trace)} cycle(s) in {time.perf_counter() - t0:.2f}s")
    return result, [root] if root else roots


def resolve_root(value: str, roots: list[Path], command: str) -> tuple[Path, str]:
    """The workspace folder to search and the subfolder inside it ("" for the whole folder).

    Anything that is not a workspace folder or inside one is refused before any file is read.
    """
    path = path_from_root_param(value, command)
    real = Path(os.path.realpath(path))
    for r in sorted(roots, key=lambda p: len(str(p)), reverse=True):
        if real == r:
            return r, ""
        if r in real.parents:
            if not real.is_dir():
                raise ParamsError(f"{command}: 'root' {path} is not a folder")
            return r, real.relative_to(r).as_posix()
    raise ParamsError(f"{command}: 'root' {path} is outside the workspace folders "
                      f"({', '.join(map(str, roots))})")


def _request_settings(ls: RetrievalServer, req: RetrieveArgs, prefix: str, command: str):
    base = ls.settings
    include = req.include if req.include is not None else base.include
    exclude = req.exclude
    if prefix:
        include = patterns_under(prefix, include) if req.include else (f"{prefix}/**",)
        exclude = patterns_under(prefix, exclude)
    try:
        return base.merged(
            max_cycles=req.max_cycles, budget=req.budget, max_files=req.max_files,
            include_tests=req.include_tests, include=tuple(include),
            exclude=tuple(base.exclude) + tuple(exclude),
        ).validated()
    except ValueError as exc:
        raise ParamsError(f"{command}: {exc}") from None


def result_to_wire(result: RetrievalResult, searched: list[Path]) -> dict[str, Any]:
    """The command line's JSON object, plus `root` and `uri` per file for editors.

    A file whose real path is not inside a searched root is dropped (and logged): whatever the
    engine does, the server never hands out a path outside the workspace.
    """
    d = result.to_dict()
    files = []
    for fd, fr in zip(d["files"], result.files, strict=True):
        root = Path(fr.root) if fr.root else None
        ab = os.path.join(fr.root, fr.path) if root else ""
        if root is None or root not in searched or not is_inside(root, ab):
            log.error("dropped a result outside the workspace: %s", fr.path)
            continue
        fd.setdefault("root", fr.root)
        fd["uri"] = Path(ab).as_uri()
        files.append(fd)
    d["files"] = files
    d["roots"] = [str(r) for r in searched]
    return d


def _one_line(s: str, n: int = 80) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


# -- status, reindex, renderContext ------------------------------------------------------------


async def _status(ls: RetrievalServer, args: tuple[Any, ...]) -> dict[str, Any]:
    parse_no_args(args, CMD_STATUS)
    out: dict[str, Any] = {
        "state": ls.index_state,
        "error": ls.index_error,
        "version": __version__,
        "schema_version": SCHEMA_VERSION,
        "files": 0,
        "open_buffers": 0,
        "roots": [],
        "watching_files": ls.watching_files,
        "settings": settings_to_wire(asdict(ls.settings)),
    }
    if ls.host.engine is not None:
        await ls.host.flush_updates()  # counts include every edit and file event sent before
        try:
            st = await ls.host.run(lambda e: e.status())
        except NoWorkspace:
            return out
        out["roots"] = st["roots"]
        out["files"] = sum(r["files"] for r in st["roots"])
        out["open_buffers"] = sum(r["open_buffers"] for r in st["roots"])
    return out


async def _reindex(ls: RetrievalServer, args: tuple[Any, ...]) -> dict[str, Any]:
    parse_no_args(args, CMD_REINDEX)
    if ls.host.engine is None:
        raise NoWorkspace("no workspace folder is open: open a folder first")
    await ls.host.flush_updates()
    stats = await ls.refresh_index()
    if ls.index_state == "error":
        raise JsonRpcInternalError(f"{CMD_REINDEX} failed: {ls.index_error}")
    return {
        "state": ls.index_state,
        "files": sum(s["files"] for s in stats),
        "reindexed": sum(s["indexed"] for s in stats),
        "roots": [{"root": str(r), **s} for r, s in zip(ls.host.roots(), stats, strict=False)],
    }


async def _render(ls: RetrievalServer, args: tuple[Any, ...], flag) -> dict[str, Any]:
    req = parse_render(args)
    if req.result is not None:
        # A result sent back by the client is masked again: it may come from anywhere.
        result = redact_result(req.result) if ls.settings.redact_secrets else req.result
    else:
        assert req.retrieve is not None
        result, _ = await run_retrieve(ls, req.retrieve, flag, CMD_RENDER)
    return {"format": req.format, "text": to_markdown(result)}
