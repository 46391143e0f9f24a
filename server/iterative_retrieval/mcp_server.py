"""The MCP server: `iterative-retrieval mcp` hands the engine to any agent that speaks MCP.

Three tools over stdio, built on the official `mcp` SDK (`MCPServer`):

- `retrieve_context {task, max_cycles?, budget?, include?, exclude?}`: the ranked, explained
  context of a task — Markdown as text content, the JSON result (`RetrievalResult.to_dict`) as
  structured content;
- `explain_file {path, task}`: one file's evaluation for a task (relevance, band, reason,
  missing context);
- `index_status {}`: the root, the index and its file counts.

No retrieval logic lives here: one `Engine` per process, its blocking calls run in a worker
thread (one at a time, behind a lock) so the server keeps answering while a retrieval runs.

The root is `--root`; without it, the first `file://` root the client lists (when it declares
the roots capability) and otherwise the current folder. It is settled at the first tool call and
kept for the life of the process. The current folder is refused when it is the filesystem root or
the home folder: indexing a whole disk by accident helps no one.
"""

import logging
import os
import sqlite3
import sys
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlparse
from urllib.request import url2pathname

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ListRootsResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from . import __version__, heap, languages  # noqa: F401 - languages: up front, as in lsp/server.py
from .config import MAX_TASK_CHARS, Settings
from .engine import Engine
from .gitignore import pattern_error
from .loop import Cancelled
from .models import RetrievalResult, band_of
from .render import to_markdown
from .workspace import WorkspaceError, check_root, is_inside

log = logging.getLogger(__name__)

SERVER_NAME = "iterative-retrieval"
EXPLAIN_MAX_FILES = 200
"""explain_file runs the loop with this many result files, then looks the file up among them."""

T = TypeVar("T")
RootSource = Literal["--root", "client roots", "current folder"]

INSTRUCTIONS = """\
Finds the files and code regions a coding task needs in this workspace, offline.
Before starting work on a task in an unfamiliar codebase, call retrieve_context with the task in \
plain words; read the high-relevance files first. If something is missing, call it again with a \
refined task (add the identifiers, paths or error messages you learned) or with include/exclude \
globs; stop when the high-relevance files cover what you need. Use explain_file to check one file \
against the task, and index_status to see which folder is searched.
"""

RETRIEVE_DESCRIPTION = """\
Find the files and code regions a coding task needs in this workspace: files ranked by relevance \
(0-1; bands high >= 0.8, medium >= 0.5, low >= 0.2), each with the reason it matters and the \
symbols it uses that are defined elsewhere, plus the relevant code regions within a token budget.

Call this BEFORE starting work on a task in an unfamiliar codebase, or whenever you do not know \
which files matter. Pass the task in plain words; an issue text, a bug report or a stack trace \
work as they are.

Pattern: start broad with the task as given; read the high files and the "missing" symbols; if \
something is still missing, call again with a refined task (add the identifiers, file names or \
error messages you learned) or narrow with include/exclude globs; stop when the high-relevance \
files cover what you need (usually 1-3 calls).

Returns Markdown (a ranked table, then the code regions) and the same result as JSON \
(schema_version, files[path, relevance, band, role, reason, missing, regions], trace, stats)."""

EXPLAIN_DESCRIPTION = """\
Explain how relevant ONE file is to a task: relevance (0-1), band (high/medium/low/irrelevant), \
the reason, and the symbols it uses that are defined elsewhere (missing context).

Call this to check a particular file against the task: one the user mentioned, one you are about \
to read or edit, or one retrieve_context did not list. A file that is not among the candidates \
for the task is reported as irrelevant (below 0.2). The path is relative to the workspace root \
(or absolute inside it); paths outside the root are refused."""

STATUS_DESCRIPTION = """\
Show which workspace root this server searches, where its index lives, how many files are \
indexed and how many were skipped (and why). Call it when results look empty or stale, or to \
confirm which folder is searched. It does not re-index; retrieve_context does that on every call \
(only changed files are re-read)."""

_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


# -- output schemas (published as each tool's outputSchema; extra keys are allowed) ----------


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class RegionOut(_Open):
    start_line: int
    end_line: int
    why: str = ""
    text: str


class FileOut(_Open):
    path: str
    relevance: float
    band: Literal["high", "medium", "low", "irrelevant"]
    role: Literal["implements", "related", "indirect", "irrelevant"]
    pinned: bool = False
    reason: str
    missing: list[str]
    cycle: int
    regions: list[RegionOut]


class RetrievalOut(_Open):
    """`RetrievalResult.to_dict()`: the same object as `iterative-retrieval retrieve --json`."""

    schema_version: str
    task: str
    roots: list[str]
    files: list[FileOut]
    trace: list[dict[str, Any]]
    stats: dict[str, Any]


class LineRange(BaseModel):
    start_line: int
    end_line: int


class ExplanationOut(BaseModel):
    task: str
    path: str
    """Relative to the root, forward slashes."""
    root: str
    relevance: float
    """0-1; 0 when the file is not among the candidates for the task."""
    band: Literal["high", "medium", "low", "irrelevant"]
    reason: str
    missing: list[str]
    """Symbols the file uses that are defined in files not in the result."""
    rank: int | None
    """1-based rank among the files retrieved for the task; None when it is not among them."""
    of: int
    """How many files were retrieved for the task (up to 200)."""
    cycle: int | None
    """The loop cycle that found it."""
    regions: list[LineRange]


class RootStatusOut(_Open):
    root: str
    index: str
    files: int
    skipped: dict[str, int]
    open_buffers: int
    last_refresh: dict[str, Any] | None


class StatusOut(_Open):
    roots: list[RootStatusOut]
    root_source: RootSource
    version: str


# -- state -----------------------------------------------------------------------------------


class Workspace:
    """The engine of this process, built once its root is settled."""

    def __init__(self, root: str | None, cache_dir: str | None, cwd: str | None = None,
                 redact: bool = True):
        self.cache_dir = cache_dir
        self.redact = redact
        """Mask credential-looking strings in regions (the user's choice, `--no-redact`; not a
        tool argument, so that an agent cannot switch it off)."""
        self.cwd = cwd or os.getcwd()
        self.engine: Engine | None = None
        self.root_source: RootSource = "--root"
        self._settle = threading.Lock()
        self.work_lock = threading.Lock()
        """One engine call at a time (retrievals write the index)."""
        self.closing = threading.Event()
        self._warmup: threading.Thread | None = None
        if root is not None:
            self.engine = self._build(root, "--root")

    def _build(self, root: str, source: RootSource) -> Engine:
        engine = Engine([root], Settings(cache_dir=self.cache_dir, redact_secrets=self.redact))
        self.root_source = source
        return engine

    # roots ----------------------------------------------------------------------------------

    async def roots_question(self, ctx: Context) -> ListRoots | None:
        """Resolver: ask the client for its roots while the root is unsettled and it can answer."""
        if self.engine is not None:
            return None
        try:
            caps = ctx.client_capabilities
        except Exception:  # no request context (direct calls in tests)
            return None
        if caps is None or caps.roots is None:
            return None
        return ListRoots()

    def settle(self, client_roots: ListRootsResult | None) -> Engine:
        """The engine, built on the first call from the client's first file:// root or the cwd."""
        with self._settle:
            if self.engine is not None:
                return self.engine
            root = _first_file_root(client_roots)
            if root is not None:
                self.engine = self._build(root, "client roots")
                log.info("root from the client's roots: %s", root)
                return self.engine
            cwd = Path(self.cwd).resolve()
            if cwd == Path(cwd.anchor) or cwd == Path.home().resolve():
                raise ToolError(
                    f"no workspace root: the server runs in {cwd}, which is "
                    f"{'the filesystem root' if cwd == Path(cwd.anchor) else 'the home folder'}. "
                    "Start it with --root PATH (or from the project folder)."
                )
            self.engine = self._build(str(cwd), "current folder")
            return self.engine

    # running engine calls -------------------------------------------------------------------

    async def call(self, fn: Callable[[Callable[[], bool]], T]) -> T:
        """Run fn(should_stop) in a worker thread, one at a time; engine errors become tool errors.

        When the request is cancelled the call is abandoned and told to stop at its next check.
        """
        stop = threading.Event()

        def should_stop() -> bool:
            return stop.is_set() or self.closing.is_set()

        def work() -> T:
            with self.work_lock:
                if should_stop():
                    raise Cancelled()
                return fn(should_stop)

        try:
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except ToolError:
            raise
        except ValueError as exc:  # empty task, out-of-range settings, bad root
            raise ToolError(str(exc)) from exc
        except (OSError, sqlite3.Error) as exc:
            raise ToolError(f"the index could not be read or written: {exc}") from exc
        finally:
            stop.set()
            self._settle_later()

    def _settle_later(self) -> None:
        """heap.settle once the answer is sent (a full collection only if no call has begun)."""

        def settle() -> None:
            idle = self.work_lock.acquire(blocking=False)
            try:
                heap.settle(idle)
            finally:
                if idle:
                    self.work_lock.release()

        timer = threading.Timer(0.05, settle)
        timer.daemon = True
        timer.start()

    def start_warmup(self) -> None:
        """Index a --root in the background so the first retrieval is fast."""
        engine = self.engine
        if engine is None:
            return

        def warm() -> None:
            try:
                with self.work_lock:
                    if not self.closing.is_set():
                        engine.refresh(should_stop=self.closing.is_set)
            except Exception as exc:  # the first tool call reports the problem
                log.warning("indexing %s failed: %s", engine.roots[0], exc)

        self._warmup = threading.Thread(target=warm, name="index-warmup", daemon=True)
        self._warmup.start()

    def close(self) -> None:
        self.closing.set()
        if self._warmup is not None:
            self._warmup.join(timeout=5)
        if self.engine is not None and self.work_lock.acquire(timeout=5):
            try:
                self.engine.close()
            finally:
                self.work_lock.release()


def _first_file_root(result: ListRootsResult | None) -> str | None:
    """The local path of the first file:// root that is an existing folder."""
    if result is None:
        return None
    for root in result.roots:
        uri = str(root.uri)
        parsed = urlparse(uri)
        if parsed.scheme != "file":
            continue
        path = url2pathname(parsed.path)  # decodes %xx itself
        if parsed.netloc and parsed.netloc != "localhost":
            path = f"//{parsed.netloc}{path}"  # UNC share
        if os.path.isdir(path):
            return path
        log.info("client root %s is not a local folder; skipped", uri)
    return None


# -- helpers ---------------------------------------------------------------------------------


def _globs(name: str, patterns: list[str] | None) -> tuple[str, ...] | None:
    if not patterns:
        return None
    out = []
    for p in patterns:
        p = p.strip()
        if not p:
            raise ToolError(f"{name}: empty glob pattern")
        why = pattern_error(p)
        if why:
            raise ToolError(f"{name}: {p!r} is not a valid glob pattern: {why}")
        out.append(p)
    return tuple(out)


def _task(task: str) -> str:
    if not task or not task.strip():
        raise ToolError("the task is empty: say what you want to do")
    if len(task) > MAX_TASK_CHARS:  # as the language server: its start alone could mislead
        raise ToolError(f"the task is too long ({len(task)} characters; at most "
                        f"{MAX_TASK_CHARS}): keep the error, the frames and the words that matter")
    return task


def _relative_path(engine: Engine, path: str) -> tuple[Path, str]:
    """(root, path relative to it) of a file inside the root, or a ToolError saying why not."""
    raw = (path or "").strip()
    if not raw:
        raise ToolError("path is empty: give a file path relative to the workspace root")
    if raw.startswith("file://"):
        raw = url2pathname(urlparse(raw).path)
    root = engine.roots[0]
    ab = os.path.abspath(raw if os.path.isabs(raw) else os.path.join(root, raw))
    hit = engine.root_of(ab)
    if hit is None or not is_inside(hit[0], ab):
        raise ToolError(f"path is outside the workspace root {root}: {path}")
    root, rel = hit
    if not os.path.exists(ab):
        raise ToolError(f"no such file in the workspace: {rel}")
    if os.path.isdir(ab):
        raise ToolError(f"{rel} is a folder: give one file")
    return root, rel


# -- the server ------------------------------------------------------------------------------


def build_server(ws: Workspace) -> MCPServer:
    """The MCPServer with the three tools, over the given workspace state."""
    server = MCPServer(
        SERVER_NAME,
        title="Iterative retrieval",
        description="Finds the files and code regions a coding task needs, offline.",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )

    ClientRoots = Annotated[ListRootsResult | None, Resolve(ws.roots_question)]

    @server.tool(name="retrieve_context", title="Retrieve context for a task",
                 description=RETRIEVE_DESCRIPTION, annotations=_READ_ONLY)
    async def retrieve_context(
        task: Annotated[str, Field(description=(
            "The coding task in plain words: what to fix, add or change. Issue texts, bug "
            "reports and stack traces work as they are."))],
        ctx: Context,
        client_roots: ClientRoots,
        max_cycles: Annotated[int | None, Field(
            description="Most retrieval cycles (search, evaluate, refine), 1-10; default 3.",
            json_schema_extra={"minimum": 1, "maximum": 10})] = None,
        budget: Annotated[int | None, Field(
            description="Token budget of the code regions, 200-1000000; default 8000.",
            json_schema_extra={"minimum": 200, "maximum": 1_000_000})] = None,
        include: Annotated[list[str] | None, Field(
            description="Glob patterns (gitignore style, e.g. 'src/**/*.ts'): when given, only "
                        "matching files are returned.")] = None,
        exclude: Annotated[list[str] | None, Field(
            description="Glob patterns of files never to return (e.g. 'legacy/**').")] = None,
    ) -> Annotated[CallToolResult, RetrievalOut]:
        task = _task(task)
        engine = ws.settle(client_roots)
        try:
            settings = engine.settings.merged(
                max_cycles=max_cycles, budget=budget,
                include=_globs("include", include), exclude=_globs("exclude", exclude),
            ).validated()
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
        progress = _Progress(ctx, settings.max_cycles)
        result: RetrievalResult = await ws.call(
            lambda stop: engine.retrieve(task, settings, should_stop=stop, report=progress)
        )
        await progress.done()
        return CallToolResult(
            content=[TextContent(type="text", text=to_markdown(result))],
            structured_content=result.to_dict(),
        )

    @server.tool(name="explain_file", title="Explain one file's relevance to a task",
                 description=EXPLAIN_DESCRIPTION, annotations=_READ_ONLY)
    async def explain_file(
        path: Annotated[str, Field(description=(
            "The file, relative to the workspace root (e.g. 'src/auth/tokens.ts'), or an "
            "absolute path inside it."))],
        task: Annotated[str, Field(description="The coding task in plain words.")],
        client_roots: ClientRoots,
    ) -> Annotated[CallToolResult, ExplanationOut]:
        task = _task(task)
        engine = ws.settle(client_roots)
        root, rel = _relative_path(engine, path)
        settings = engine.settings.merged(max_files=EXPLAIN_MAX_FILES).validated()
        result: RetrievalResult = await ws.call(
            lambda stop: engine.retrieve(task, settings, should_stop=stop, roots=[root])
        )
        out = _explain(result, root, rel, engine)
        return CallToolResult(
            content=[TextContent(type="text", text=_explanation_text(out))],
            structured_content=out.model_dump(mode="json"),
        )

    @server.tool(name="index_status", title="Index status",
                 description=STATUS_DESCRIPTION, annotations=_READ_ONLY)
    async def index_status(client_roots: ClientRoots) -> Annotated[CallToolResult, StatusOut]:
        engine = ws.settle(client_roots)
        # No work lock: status reads counts and must answer while a retrieval runs.
        try:
            status = await anyio.to_thread.run_sync(engine.status)
        except (OSError, sqlite3.Error) as exc:
            raise ToolError(f"the index could not be read: {exc}") from exc
        status = {**status, "root_source": ws.root_source, "version": __version__}
        return CallToolResult(
            content=[TextContent(type="text", text=_status_text(status))],
            structured_content=status,
        )

    return server


class _Progress:
    """The engine's report(message, cycle, total) as progress notifications, from the worker.

    A no-op unless the client asked for progress (sent a progress token).
    """

    def __init__(self, ctx: Context, max_cycles: int):
        self.ctx = ctx
        self.n = 0
        self.total = max_cycles * 3  # dispatch, evaluate, refine in each cycle

    def __call__(self, message: str, cycle: int, _total: int) -> None:
        n = min(self.n + 1, self.total - 1)
        if n == self.n:
            return  # progress must increase; "done" sends the total
        self.n = n
        try:
            anyio.from_thread.run(self.ctx.report_progress, self.n, self.total, message)
        except Exception:  # the request is gone or the client does not listen
            pass

    async def done(self) -> None:
        try:
            await self.ctx.report_progress(self.total, self.total, "done")
        except Exception:
            pass


def _explain(result: RetrievalResult, root: Path, rel: str, engine: Engine) -> ExplanationOut:
    for rank, f in enumerate(result.files, 1):
        if f.path == rel and (not f.root or Path(f.root) == root):
            return ExplanationOut(
                task=result.task, path=rel, root=str(root), relevance=round(f.relevance, 3),
                band=f.band, reason=f.reason, missing=list(f.missing), rank=rank,
                of=len(result.files), cycle=f.cycle,
                regions=[LineRange(start_line=r.start_line, end_line=r.end_line)
                         for r in f.regions],
            )
    if engine.is_secret(root, rel):
        reason = ("never read: it is a secret file (keys, .env, credentials: by name, folder, "
                  "link target or content)")
    elif not engine.scope(root).admits(rel):
        reason = ("not indexed: excluded by the default excludes (dependencies, build output, "
                  "binaries, lock files) or an ignore file")
    else:
        dropped = next((t.cycle for t in result.trace if rel in t.excluded), None)
        reason = (
            f"evaluated in cycle {dropped} and set aside: relevance below 0.2 for this task"
            if dropped is not None
            else "not among the candidates for this task (relevance below 0.2)"
        )
    return ExplanationOut(
        task=result.task, path=rel, root=str(root), relevance=0.0, band=band_of(0.0),
        reason=reason, missing=[], rank=None, of=len(result.files), cycle=None, regions=[],
    )


def _explanation_text(e: ExplanationOut) -> str:
    if e.rank is None:
        return f"`{e.path}` — {e.band}: {e.reason}."
    lines = [f"`{e.path}` — {e.relevance:.2f} ({e.band}), rank {e.rank} of {e.of} for this task.",
             f"Why: {e.reason}"]
    if e.missing:
        lines.append("Uses, defined elsewhere: " + ", ".join(f"`{m}`" for m in e.missing))
    if e.regions:
        lines.append("Relevant lines: " + ", ".join(
            f"{r.start_line}-{r.end_line}" for r in e.regions))
    return "\n".join(lines)


def _status_text(status: dict[str, Any]) -> str:
    lines = []
    for r in status["roots"]:
        skipped = ", ".join(f"{k} {v}" for k, v in sorted(r["skipped"].items())) or "none"
        lines.append(f"{r['root']} ({status['root_source']}): {r['files']} files indexed; "
                     f"skipped: {skipped}; index: {r['index']}")
        if r.get("last_refresh") is None:
            lines.append("  not refreshed by this server yet: retrieve_context indexes it first")
    return "\n".join(lines)


def run(root: str | None, cache_dir: str | None, redact: bool = True) -> int:
    """`iterative-retrieval mcp`: serve over stdio until the client closes the pipe."""
    try:
        if root is not None:
            check_root(root)
        ws = Workspace(root, cache_dir, redact=redact)
    except (WorkspaceError, ValueError) as exc:
        print(f"iterative-retrieval: error: {exc}", file=sys.stderr)
        return 2
    server = build_server(ws)
    ws.start_warmup()
    with warnings.catch_warnings():
        # roots/list is deprecated from protocol 2026-07-28 on; older clients still use it.
        warnings.filterwarnings("ignore", message=".*roots capability is deprecated.*")
        try:
            server.run("stdio")
        except KeyboardInterrupt:
            pass
        finally:
            ws.close()
    return 0
