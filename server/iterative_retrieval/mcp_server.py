"""The MCP server: `iterative-retrieval mcp` hands the engine to any agent that speaks MCP.

Three tools over stdio, built on the official `mcp` SDK (`MCPServer`):

- `retrieve_context {task, max_cycles?, budget?, max_files?, include?, exclude?,
  include_tests?, git_base?, pinned?, excluded?, seen?, format?}`: the ranked, explained
  context of a task — rendered (Markdown by default, or XML documents, or JSON) as text
  content, the JSON result (contract.ResultJson) as structured content; files pinned always
  in it, excluded or seen (already read by the agent) never;
- `explain_file {path, task}`: one file's evaluation for a task (`Engine.explain`);
- `index_status {}`: the root, the index and its file counts.

The arguments' docs and bounds come from the settings table (config.SETTINGS), the file lists'
checks from the wire contract (contract.py, as the language server's), and the output schemas
from the wire contract too. No retrieval logic lives here: one engine per
process in an `EngineService` with one worker, so its calls run one at a time in a worker
thread and the server keeps answering while a retrieval runs.

The root is `--root`; without it, the first `file://` root the client lists (when it declares
the roots capability) and otherwise the current folder. It is settled at the first tool call and
kept for the life of the process. The current folder is refused when it is the filesystem root or
the home folder: indexing a whole disk by accident helps no one.
"""

import contextlib
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
from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ListRootsResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from . import __version__, heap, languages  # noqa: F401 - languages: up front, as in lsp/server.py
from .config import (
    BUDGET,
    EXCLUDE,
    GIT_BASE,
    INCLUDE,
    INCLUDE_TESTS,
    MAX_CYCLES,
    MAX_FILES,
    Settings,
    task_problem,
)
from .contract import EXCLUDED, PINNED, SEEN, ExplanationJson, Format, IndexStatusJson, ResultJson
from .engine import Engine
from .gitignore import pattern_error
from .hintargs import hints_of
from .loop import Cancelled
from .models import RetrievalResult
from .render import explanation_text, render
from .schema import first_error, unknown_parameters
from .service import EngineService
from .workspace import WorkspaceError, check_root

log = logging.getLogger(__name__)

SERVER_NAME = "iterative-retrieval"

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
error messages you learned) and the files you have already read as `seen` (you get what is new), \
or narrow with include/exclude globs; stop when the high-relevance files cover what you need \
(usually 1-3 calls). `pinned` files (ones the user named) are always in the answer, `excluded` \
files never.

Returns the context as text — Markdown (a ranked table, then the code regions), or with \
format "xml" one <document> per file with its regions in <source> elements — and the same \
result as JSON (schema_version, files[path, relevance, band, role, reason, missing, regions], \
trace, stats)."""

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

FORMAT_DOC = ("How the text content renders the context: markdown (default), xml (one "
              "<document> per file, its regions in <source>), or json.")

_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


# -- state -----------------------------------------------------------------------------------


class Workspace:
    """The engine of this process, built once its root is settled."""

    def __init__(self, root: str | None, cache_dir: str | None, cwd: str | None = None,
                 redact: bool = True, git_signals: bool = True, git_base: str | None = None):
        self.settings = Settings(cache_dir=cache_dir, redact_secrets=redact,
                                 git_signals=git_signals, git_base=git_base).validated()
        """The user's settings for every call (`--cache-dir`, `--no-git-signals`, `--git-base`;
        a call's `git_base` overrides the last). Redaction is `--no-redact` alone, not a tool
        argument, so that an agent cannot switch it off."""
        self.cwd = cwd or os.getcwd()
        self.service = EngineService(workers=1)
        """One engine call at a time (retrievals write the index)."""
        self.root_source: RootSource = "--root"
        self._settle = threading.Lock()
        self.closing = threading.Event()
        if root is not None:
            self._build(root, "--root")

    @property
    def engine(self) -> Engine | None:
        return self.service.engine

    def _build(self, root: str, source: RootSource) -> Engine:
        engine = self.service.build([root], self.settings)
        assert engine is not None
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
                log.info("root from the client's roots: %s", root)
                return self._build(root, "client roots")
            cwd = Path(self.cwd).resolve()
            if cwd == Path(cwd.anchor) or cwd == Path.home().resolve():
                raise ToolError(
                    f"no workspace root: the server runs in {cwd}, which is "
                    f"{'the filesystem root' if cwd == Path(cwd.anchor) else 'the home folder'}. "
                    "Start it with --root PATH (or from the project folder)."
                )
            return self._build(str(cwd), "current folder")

    # running engine calls -------------------------------------------------------------------

    async def call(self, fn: Callable[[Engine, Callable[[], bool]], T]) -> T:
        """Run fn(engine, should_stop) on the worker, one call at a time; engine errors become
        tool errors. When the request is cancelled the call is abandoned and told to stop at
        its next check."""
        stop = threading.Event()

        def should_stop() -> bool:
            return stop.is_set() or self.closing.is_set()

        def work(engine: Engine) -> T:
            if should_stop():
                raise Cancelled()
            return fn(engine, should_stop)

        try:
            return await self.service.run(work)
        except ToolError:
            raise
        except ValueError as exc:  # empty task, out-of-range settings, bad root or path
            raise ToolError(str(exc)) from exc
        except (OSError, sqlite3.Error) as exc:
            raise ToolError(f"the index could not be read or written: {exc}") from exc
        finally:
            stop.set()
            self._settle_later()

    def _settle_later(self) -> None:
        """heap.settle once the answer is sent (a full collection only if no call runs)."""

        def settle() -> None:
            heap.settle(idle=not self.service.busy())

        timer = threading.Timer(0.05, settle)
        timer.daemon = True
        timer.start()

    def start_warmup(self) -> None:
        """Index a --root in the background so the first retrieval is fast."""
        if self.engine is not None:
            self.service.submit(lambda e: None if self.closing.is_set()
                                else e.refresh(should_stop=self.closing.is_set))

    def close(self) -> None:
        self.closing.set()
        self.service.shutdown(wait=5)


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
    problem = task_problem(task)
    if problem is None:
        return task
    if task and task.strip():  # too long: its start alone could mislead, as in the server
        problem += ": keep the error, the frames and the words that matter"
    raise ToolError(f"the task {problem}")


# -- the server ------------------------------------------------------------------------------


class _Server(MCPServer):
    """The SDK's server, saying what is wrong with a call's arguments as the language server
    says it: an argument a tool does not take is refused by name (the SDK dropped it without
    a word, so an agent's `maxFiles` or `root` was ignored), and a value of the wrong type is
    one line (`'max_cycles' must be an integer, got 'many'`), not pydantic's report."""

    _taken: dict[str, tuple[str, ...]] | None = None

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Any = None) -> Any:
        if self._taken is None:
            self._taken = {t.name: tuple((t.input_schema or {}).get("properties", {}))
                           for t in await self.list_tools()}
        taken = self._taken.get(name)
        unknown = [k for k in arguments if taken is not None and k not in taken]
        if unknown:
            raise ToolError(f"{name}: {unknown_parameters(unknown, taken or ())}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:  # pydantic's report, with its input echoed and a web link
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"{name}: {first_error(exc.__cause__)}") from exc.__cause__
            raise


def build_server(ws: Workspace) -> MCPServer:
    """The MCPServer with the three tools, over the given workspace state."""
    server = _Server(
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
        max_cycles: Annotated[int | None, MAX_CYCLES.described] = None,
        budget: Annotated[int | None, BUDGET.described] = None,
        max_files: Annotated[int | None, MAX_FILES.described] = None,
        include: Annotated[list[str] | None, INCLUDE.described] = None,
        exclude: Annotated[list[str] | None, EXCLUDE.described] = None,
        include_tests: Annotated[bool | None, INCLUDE_TESTS.described] = None,
        git_base: Annotated[str | None, GIT_BASE.described] = None,
        pinned: Annotated[list[str] | None, PINNED] = None,
        excluded: Annotated[list[str] | None, EXCLUDED] = None,
        seen: Annotated[list[str] | None, SEEN] = None,
        format: Annotated[Format, Field(description=FORMAT_DOC)] = "markdown",
    ) -> Annotated[CallToolResult, ResultJson]:
        task = _task(task)
        engine = ws.settle(client_roots)
        hints, notes = hints_of({"pinned": pinned, "excluded": excluded, "seen": seen},
                                engine.roots, "retrieve_context")
        for note in notes:
            log.info("%s", note)
        try:
            settings = engine.settings.merged(
                max_cycles=max_cycles, budget=budget, max_files=max_files,
                include=_globs("include", include), exclude=_globs("exclude", exclude),
                include_tests=include_tests, git_base=git_base,
            ).validated()
        except ValueError as exc:
            raise ToolError(str(exc)) from exc
        progress = _Progress(ctx, settings.max_cycles)
        result: RetrievalResult = await ws.call(
            lambda e, stop: e.retrieve(task, settings, should_stop=stop, report=progress,
                                       hints=hints)
        )
        await progress.done()
        # a path outside the root is never read: the agent is told, after the context
        said = [TextContent(type="text", text="Note: " + "\n".join(notes))] if notes else []
        return CallToolResult(
            content=[TextContent(type="text", text=render(result, format)), *said],
            structured_content=dict(result.to_dict()),
        )

    @server.tool(name="explain_file", title="Explain one file's relevance to a task",
                 description=EXPLAIN_DESCRIPTION, annotations=_READ_ONLY)
    async def explain_file(
        path: Annotated[str, Field(description=(
            "The file, relative to the workspace root (e.g. 'src/auth/tokens.ts'), or an "
            "absolute path inside it."))],
        task: Annotated[str, Field(description="The coding task in plain words.")],
        client_roots: ClientRoots,
    ) -> Annotated[CallToolResult, ExplanationJson]:
        task = _task(task)
        ws.settle(client_roots)
        out: ExplanationJson = await ws.call(
            lambda e, stop: e.explain(path, task, should_stop=stop))
        return CallToolResult(
            content=[TextContent(type="text", text=explanation_text(out))],
            structured_content=dict(out),
        )

    @server.tool(name="index_status", title="Index status",
                 description=STATUS_DESCRIPTION, annotations=_READ_ONLY)
    async def index_status(
        client_roots: ClientRoots,
    ) -> Annotated[CallToolResult, IndexStatusJson]:
        ws.settle(client_roots)
        # Not on the worker: status reads counts and must answer while a retrieval runs.
        try:
            roots = (await ws.service.peek(lambda e: e.status()))["roots"]
        except (OSError, sqlite3.Error) as exc:
            raise ToolError(f"the index could not be read: {exc}") from exc
        status: IndexStatusJson = {"roots": roots, "root_source": ws.root_source,
                                   "version": __version__}
        return CallToolResult(
            content=[TextContent(type="text", text=_status_text(status))],
            structured_content=dict(status),
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
        # the request may be gone, or the client not listen: progress is a courtesy
        with contextlib.suppress(Exception):
            anyio.from_thread.run(self.ctx.report_progress, self.n, self.total, message)

    async def done(self) -> None:
        with contextlib.suppress(Exception):
            await self.ctx.report_progress(self.total, self.total, "done")


def _status_text(status: IndexStatusJson) -> str:
    lines = []
    for r in status["roots"]:
        skipped = ", ".join(f"{k} {v}" for k, v in sorted(r["skipped"].items())) or "none"
        lines.append(f"{r['root']} ({status['root_source']}): {r['files']} files indexed; "
                     f"skipped: {skipped}; index: {r['index']}")
        if r.get("last_refresh") is None:
            lines.append("  not refreshed by this server yet: retrieve_context indexes it first")
    return "\n".join(lines)


def run(root: str | None, cache_dir: str | None, redact: bool = True,
        git_signals: bool = True, git_base: str | None = None) -> int:
    """`iterative-retrieval mcp`: serve over stdio until the client closes the pipe."""
    try:
        if root is not None:
            check_root(root)
        ws = Workspace(root, cache_dir, redact=redact, git_signals=git_signals,
                       git_base=git_base)
    except (WorkspaceError, ValueError) as exc:
        print(f"iterative-retrieval: error: {exc}", file=sys.stderr)
        return 2
    server = build_server(ws)
    ws.start_warmup()
    with warnings.catch_warnings():
        # roots/list is deprecated from protocol 2026-07-28 on; older clients still use it.
        warnings.filterwarnings("ignore", message=".*roots capability is deprecated.*")
        try:
            with contextlib.suppress(KeyboardInterrupt):
                server.run("stdio")
        finally:
            ws.close()
    return 0
