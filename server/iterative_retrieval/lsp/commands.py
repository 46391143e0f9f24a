"""The `workspace/executeCommand` commands, as thin adapters over the engine.

Each command takes one typed argument (contract.py; pygls converts and checks it, see rpc.py),
runs the engine on a worker thread, and converts the answer: `retrieve` returns the command
line's JSON object, `renderContext` the result rendered (render.py), `explain` one file's
evaluation, `status` the index state, `reindex` the refresh counts. Errors become JSON-RPC
errors: bad arguments InvalidParams, a cancelled run RequestCancelled, no open folder
RequestFailed, anything else InternalError (also logged with `window/logMessage`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcRequestCancelled,
)

from .. import __version__
from ..changes import UnknownBase
from ..config import Settings
from ..contract import (
    ExplainParams,
    ExplanationJson,
    FileJson,
    ReindexJson,
    ReindexParams,
    RenderAnswer,
    RenderParams,
    ResultJson,
    RetrieveParams,
    StatusJson,
    StatusParams,
)
from ..engine import Engine
from ..explain import ExplainError
from ..hintargs import hints_of
from ..loop import Cancelled
from ..models import SCHEMA_VERSION, RetrievalResult
from ..redact import redact_result
from ..render import one_line, render
from ..service import NoWorkspace
from ..workspace import is_inside
from .progress import HOLD_TASKS_WITH, SLOW_STEP, WORK_DONE_TOKEN, WorkProgress
from .protocol import (
    CMD_EXPLAIN,
    CMD_REINDEX,
    CMD_RENDER,
    CMD_RETRIEVE,
    CMD_STATUS,
    ParamsError,
    RetrieveArgs,
    path_from_root_param,
    patterns_under,
    render_args,
)
from .state import RetrievalServer

log = logging.getLogger("iterative_retrieval.lsp")

REQUEST_FAILED = int(types.LSPErrorCodes.RequestFailed)
T = TypeVar("T")


def register(server: RetrievalServer) -> None:
    """The five commands (their names are advertised in `executeCommandProvider`)."""
    server.command(CMD_RETRIEVE)(retrieve)
    server.command(CMD_RENDER)(render_context)
    server.command(CMD_EXPLAIN)(explain)
    server.command(CMD_STATUS)(status)
    server.command(CMD_REINDEX)(reindex)


async def retrieve(ls: RetrievalServer, params: RetrieveParams) -> ResultJson:
    """Find the files and code regions a task needs."""
    async def run(flag: threading.Event) -> ResultJson:
        result, searched = await run_retrieve(ls, RetrieveArgs.of(params), flag, CMD_RETRIEVE)
        return result_to_wire(result, searched)

    return await _answer(ls, CMD_RETRIEVE, run)


async def render_context(ls: RetrievalServer, params: RenderParams) -> RenderAnswer:
    """A task's context, or a result sent back, rendered in a format of contract.FORMATS."""
    req = render_args(params)

    async def run(flag: threading.Event) -> RenderAnswer:
        if req.result is not None:
            # A result sent back by the client is masked again: it may come from anywhere.
            result = redact_result(req.result) if ls.settings.redact_secrets else req.result
        else:
            assert req.retrieve is not None
            result, _ = await run_retrieve(ls, req.retrieve, flag, CMD_RENDER)
        return {"format": params.get("format", "markdown"), "text": render(result, req.format)}

    return await _answer(ls, CMD_RENDER, run)


async def explain(ls: RetrievalServer, params: ExplainParams) -> ExplanationJson:
    """One file's evaluation for a task (Engine.explain)."""
    async def run(flag: threading.Event) -> ExplanationJson:
        settings = ls.settings

        def call(e: Engine, should_stop: Stop, progress: WorkProgress) -> ExplanationJson:
            try:
                return e.explain(params["path"], params["task"], settings,
                                 should_stop=should_stop)
            except ExplainError as exc:
                raise ParamsError(f"{CMD_EXPLAIN}: 'path' {exc}") from None

        return await _with_progress(ls, "Explaining a file", params["path"], flag, call)

    return await _answer(ls, CMD_EXPLAIN, run)


async def status(ls: RetrievalServer, params: StatusParams) -> StatusJson:
    """The index state, counts, roots, version and the settings in force."""
    async def run(flag: threading.Event) -> StatusJson:
        out: StatusJson = {
            "state": ls.index_state,
            "error": ls.index_error,
            "version": __version__,
            "schema_version": SCHEMA_VERSION,
            "files": 0,
            "open_buffers": 0,
            "roots": [],
            "watching_files": ls.watching_files,
            "settings": ls.settings.to_wire(),  # type: ignore[typeddict-item]
        }
        if ls.host.engine is not None:
            await ls.host.flush_updates()  # counts include every edit and file event sent
            try:
                st = await ls.host.run(lambda e: e.status())
            except NoWorkspace:
                return out
            out["roots"] = st["roots"]
            out["files"] = sum(r["files"] for r in st["roots"])
            out["open_buffers"] = sum(r["open_buffers"] for r in st["roots"])
        return out

    return await _answer(ls, CMD_STATUS, run)


async def reindex(ls: RetrievalServer, params: ReindexParams) -> ReindexJson:
    """Re-scan every workspace folder now and answer when done."""
    async def run(flag: threading.Event) -> ReindexJson:
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
            "roots": [{"root": str(r), **s}
                      for r, s in zip(ls.host.roots(), stats, strict=False)],
        }

    return await _answer(ls, CMD_REINDEX, run)


async def _answer(
    ls: RetrievalServer,
    command: str,
    run: Callable[[threading.Event], Awaitable[T]],
) -> T:
    """Run one command with its cancellation flag; turn failures into JSON-RPC errors."""
    msg_id = ls.protocol.msg_id
    flag = ls.begin_request(msg_id)
    try:
        return await run(flag)
    # the answer is logged in one line as it goes (rpc.QuietAnswers)
    except ParamsError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None
    except Cancelled:
        raise JsonRpcRequestCancelled(f"{command} was cancelled") from None
    except (NoWorkspace, UnknownBase) as exc:  # the workspace or its settings, not a fault
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


# -- a long engine call: progress, cancellation, the index first -----------------------------


Stop = Callable[[], bool]


async def _with_progress(
    ls: RetrievalServer, title: str, message: str, flag: threading.Event,
    call: Callable[[Engine, Stop, WorkProgress], T],
    first_step: str = "searching",
    summary: Callable[[T, float], str] | None = None,
) -> T:
    """Run call(engine, should_stop, progress) with work-done progress that the client can
    cancel, after every edit sent before it, and after a refresh under way (rather than
    reading the same files twice)."""
    if not ls.host.roots():
        raise NoWorkspace("no workspace folder is open: open a folder first")
    progress = await WorkProgress.start(ls, title, one_line(message, 80),
                                        token=WORK_DONE_TOKEN.get(), cancellable=True)

    def should_stop() -> bool:
        return flag.is_set() or progress.cancelled() or ls.stopping.is_set()

    t0 = time.perf_counter()
    try:
        await ls.host.flush_updates()  # every edit sent before this request counts
        if ls.index_busy():
            progress.report("waiting for the index", 2)
            await ls.wait_index_idle(should_stop)
        progress.report(first_step, 5)
        result = await ls.host.run(lambda e: call(e, should_stop, progress))
    except Cancelled:
        progress.end("cancelled")
        raise
    except BaseException:
        progress.end("failed")
        raise
    progress.end(summary(result, time.perf_counter() - t0) if summary else "done")
    return result


async def run_retrieve(
    ls: RetrievalServer, req: RetrieveArgs, flag: threading.Event, command: str
) -> tuple[RetrievalResult, list[Path]]:
    """Run the engine's loop with progress and cancellation; the result and the roots searched."""
    roots = ls.host.roots()
    if not roots:
        raise NoWorkspace("no workspace folder is open: open a folder first")
    root, prefix = (None, "") if req.root is None else resolve_root(req.root, roots, command)
    settings = _request_settings(ls.settings, req, prefix, command)
    searched = [root] if root else roots
    hints, notes = hints_of(req.hints, searched, command)
    for note in notes:  # a path outside the folders is never read: the client's log says so
        ls.log_client(note, types.MessageType.Warning)
    hold = bool(HOLD_TASKS_WITH) and HOLD_TASKS_WITH in req.task
    # Watched files keep a ready index current; otherwise scan the disk (cheap) first.
    refresh = not (ls.watching_files and ls.index_state == "ready")

    def call(e: Engine, should_stop: Stop, progress: WorkProgress) -> RetrievalResult:
        def report(message: str, cycle: int, total: int) -> None:
            progress.report(message, 10 + 85 * (cycle - 1) // max(total, 1))
            if SLOW_STEP:
                flag.wait(SLOW_STEP)
            while hold and not should_stop():
                flag.wait(0.05)  # the progress's own cancel (window/workDoneProgress/cancel) too

        return e.retrieve(req.task, settings, should_stop=should_stop, report=report,
                          roots=[root] if root else None, refresh=refresh, hints=hints)

    def summary(result: RetrievalResult, seconds: float) -> str:
        return (f"{len(result.files)} files, {result.stats.get('tokens', 0)} tokens, "
                f"{len(result.trace)} cycle(s) in {seconds:.2f}s")

    result = await _with_progress(ls, "Retrieving context", req.task, flag, call,
                                  "refreshing the index" if refresh else "searching", summary)
    return result, searched


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


def _request_settings(base: Settings, req: RetrieveArgs, prefix: str, command: str) -> Settings:
    include = req.include if req.include is not None else base.include
    exclude = req.exclude
    if prefix:
        include = patterns_under(prefix, include) if req.include else (f"{prefix}/**",)
        exclude = patterns_under(prefix, exclude)
    try:
        return base.merged(
            max_cycles=req.max_cycles, budget=req.budget, max_files=req.max_files,
            include_tests=req.include_tests, git_base=req.git_base, include=tuple(include),
            exclude=tuple(base.exclude) + tuple(exclude),
        ).validated()
    except ValueError as exc:
        raise ParamsError(f"{command}: {exc}") from None


def result_to_wire(result: RetrievalResult, searched: list[Path]) -> ResultJson:
    """The command line's JSON object, plus `uri` per file for editors.

    A file whose real path is not inside a searched root is dropped (and logged): whatever the
    engine does, the server never hands out a path outside the workspace.
    """
    d = result.to_dict()
    files: list[FileJson] = []
    for fd, fr in zip(d["files"], result.files, strict=True):
        root = Path(fr.root) if fr.root else None
        ab = os.path.join(fr.root, fr.path) if root else ""
        if root is None or root not in searched or not is_inside(root, ab):
            log.error("dropped a result outside the workspace: %s", fr.path)
            continue
        fd["uri"] = Path(ab).as_uri()
        files.append(fd)
    d["files"] = files
    d["roots"] = [str(r) for r in searched]
    return d
