"""The wire contract: every JSON object a surface sends or receives, as typed dicts.

These are the one definition of the result (`ResultJson`, docs/json-schema.md), the language
server's command arguments and answers, and the MCP tools' structured content. They cost
nothing at run time (a TypedDict is a dict), so the command line builds its `--json` output
with them; the type checker holds every place that builds one to its fields.

schema.py turns them into JSON Schemas (checked in under docs/schema/), the MCP tools' output
schemas, the language server's argument validation, and the VS Code client's TypeScript types
(client-vscode/src/contract.ts). tests/test_contract.py fails when any of those disagree with
these definitions: change a field here, run `python -m iterative_retrieval.schema --write`.

Keys are the wire's names: snake_case in results, camelCase in the language server's command
arguments (as LSP clients write them).
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal, NotRequired, Required
from urllib.parse import unquote, urlparse

# pydantic reads typing.TypedDict only from Python 3.12 on
from typing_extensions import TypedDict

from .config import (
    BUDGET,
    CACHE_DIR,
    EDITOR_SIGNALS,
    EXCLUDE,
    GIT_BASE,
    GIT_SIGNALS,
    INCLUDE,
    INCLUDE_TESTS,
    MAX_CYCLES,
    MAX_FILES,
    MAX_TASK_CHARS,
    REDACT_SECRETS,
    BadValue,
    describe,
    task_problem,
)

SCHEMA_VERSION = "1.5"
"""The result's version: a minor version adds fields, a major one removes or changes one."""

FORMATS = ("markdown", "json", "xml")
"""The formats a result renders to on every surface (render.py)."""


class Doc:
    """`Annotated` metadata: the field's description in the JSON Schema (and TypeScript)."""

    def __init__(self, text: str):
        self.text = text

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "description": self.text}


class TaskCheck:
    """`Annotated` metadata of a task argument: a non-empty string of at most MAX_TASK_CHARS
    characters (config.task_problem), checked the same on every surface that refuses one."""

    doc = ("The task in plain words: a request, an issue, a stack trace "
           f"(at most {MAX_TASK_CHARS} characters).")

    @staticmethod
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise BadValue(f"must be a string, got {describe(value)}")
        problem = task_problem(value)
        if problem:
            raise BadValue(problem)
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            self.check, json_schema_input_schema=core_schema.str_schema())

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {"type": "string", "minLength": 1, "maxLength": MAX_TASK_CHARS,
                "description": self.doc}


TASK = TaskCheck()


def root_path(value: Any) -> str:
    """The absolute path a `root` argument names (a path or a `file://` URI); BadValue else."""
    if not isinstance(value, str) or not value.strip():
        raise BadValue(f"must be a folder path or a file:// URI, got {describe(value)}")
    value = value.strip()
    if "://" in value or value.startswith("file:"):
        parsed = urlparse(value)
        if parsed.scheme != "file":
            raise BadValue(f"must be a folder path or a file:// URI, got {describe(value)}")
        path = unquote(parsed.path)
        if os.name == "nt" and path.startswith("/") and len(path) > 2 and path[2] == ":":
            path = path[1:]
    else:
        path = os.path.expanduser(value)
    if "\0" in path:
        raise BadValue("must not contain a NUL character")
    if not os.path.isabs(path):
        raise BadValue(f"must be an absolute path, got {describe(value)}")
    return path


class RootCheck:
    """`Annotated` metadata of a `root` argument: refused at once, naming the field, when it
    names no absolute folder path; the argument keeps its text (stripped)."""

    doc = ("Search only this workspace folder, or a folder inside one: an absolute path or a "
           "`file://` URI; `include`/`exclude` globs are then relative to it.")

    @staticmethod
    def check(value: Any) -> str | None:
        if value is None:
            return None
        root_path(value)
        return str(value).strip()

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            self.check, json_schema_input_schema=core_schema.any_schema())

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {"anyOf": [{"type": "string"}, {"type": "null"}], "description": self.doc}


ROOT = RootCheck()

MAX_HINT_PATHS = 200
"""Paths one `pinned`, `excluded`, `seen` or `openFiles` list may hold (and terms one
`followUp`): an editor's open tabs fit; a whole tree sent by mistake does not."""
MAX_PATH_CHARS = 4096
MAX_TERM_CHARS = 100


def hint_path(value: Any) -> str:
    """A hint's path as the caller wrote it (stripped): relative to a root, absolute, or a
    `file://` URI. BadValue for what is no path at all; where it points is settled later
    (hintargs.py), as a path outside the workspace is ignored, not refused."""
    if not isinstance(value, str) or not value.strip():
        raise BadValue(f"must be a non-empty path or file:// URI, got {describe(value)}")
    if "\0" in value:
        raise BadValue("must not contain a NUL character")
    if len(value) > MAX_PATH_CHARS:
        raise BadValue(f"is too long ({len(value)} characters; at most {MAX_PATH_CHARS})")
    return value.strip()


def hint_term(value: Any) -> str:
    """A follow-up term: a word or identifier the previous run learned."""
    if not isinstance(value, str) or not value.strip():
        raise BadValue(f"must be a non-empty string, got {describe(value)}")
    if len(value) > MAX_TERM_CHARS:
        raise BadValue(f"is too long ({len(value)} characters; at most {MAX_TERM_CHARS})")
    return value.strip()


class ItemsCheck:
    """`Annotated` metadata of a list argument of strings (paths or terms): an array of at most
    MAX_HINT_PATHS items, each checked by `item`; the value becomes a tuple (null: none)."""

    def __init__(self, item: Any, doc: str, items_schema: dict[str, Any]):
        self.item, self.doc, self.items_schema = item, doc, items_schema

    def check(self, value: Any) -> tuple[str, ...] | None:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)):
            raise BadValue(f"must be an array, got {describe(value)}")
        if len(value) > MAX_HINT_PATHS:
            raise BadValue(f"must have at most {MAX_HINT_PATHS} items, got {len(value)}")
        out: list[str] = []
        for i, v in enumerate(value):
            try:
                out.append(self.item(v))
            except BadValue as exc:
                raise BadValue(f"item {i} {exc}") from None
        return tuple(dict.fromkeys(out))

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            self.check, json_schema_input_schema=core_schema.any_schema())

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {"anyOf": [{"type": "array", "items": self.items_schema,
                           "maxItems": MAX_HINT_PATHS}, {"type": "null"}],
                "description": self.doc}


_PATH_ITEM = {"type": "string", "minLength": 1, "maxLength": MAX_PATH_CHARS}
_WHERE = ("relative to a workspace folder, absolute inside one, or a `file://` URI; a path "
          "outside every folder is ignored (with a note), never read")
PINNED = ItemsCheck(hint_path, "Files always handed out, marked `pinned`, with their own "
                    f"relevance: {_WHERE}.", _PATH_ITEM)
EXCLUDED = ItemsCheck(hint_path, f"Files never searched nor handed out: {_WHERE}.", _PATH_ITEM)
SEEN = ItemsCheck(hint_path, "Files the caller has read already: not handed out again, but "
                  f"still evidence for the others (hand out what is new): {_WHERE}.", _PATH_ITEM)
OPEN_FILES = ItemsCheck(hint_path, "The files open in the editor (visible editors, open tabs): "
                        f"evidence with their own reason, never a guaranteed place: {_WHERE}.",
                        _PATH_ITEM)
FOLLOW_UP = ItemsCheck(hint_term, "This task follows up a previous run: its learned terms "
                       "(the union of its `trace[].learned`), searched from the first cycle.",
                       {"type": "string", "minLength": 1, "maxLength": MAX_TERM_CHARS})


class PathCheck:
    """`Annotated` metadata of a single path argument (`activeFile`), as hint_path checks it."""

    def __init__(self, doc: str):
        self.doc = doc

    def check(self, value: Any) -> str | None:
        return None if value is None else hint_path(value)

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            self.check, json_schema_input_schema=core_schema.any_schema())

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {"anyOf": [_PATH_ITEM, {"type": "null"}], "description": self.doc}


ACTIVE_FILE = PathCheck("The file in the editor's focus: evidence with its own reason, never a "
                        f"guaranteed place: {_WHERE}.")


class LineCheck:
    """`Annotated` metadata of a 1-based line number: an integer of at least 1."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        def check(value: int) -> int:
            if value < 1:
                raise BadValue(f"must be a line number from 1, got {value}")
            return value

        return core_schema.no_info_after_validator_function(check, handler(source))

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "minimum": 1}


LINE = LineCheck()


class SelectionCheck:
    """`Annotated` metadata of a selection: its last line is not before its first."""

    doc = ("The lines selected in `activeFile` (1-based, inclusive): stronger evidence than "
           "the file alone. Ignored without `activeFile`.")

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        def check(value: Any) -> Any:
            if value is not None and value["end_line"] < value["start_line"]:
                raise BadValue(f"end_line {value['end_line']} is before start_line "
                               f"{value['start_line']}")
            return value

        return core_schema.no_info_after_validator_function(check, handler(source))

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "description": self.doc}


SELECTION = SelectionCheck()

Band = Literal["high", "medium", "low"]
"""high (relevance >= 0.8), medium (>= 0.5), low (>= 0.2); files below 0.2 are never returned."""
Role = Literal["implements", "related", "indirect"]
Format = Literal["markdown", "json", "xml"]


# -- the result (docs/json-schema.md) ----------------------------------------------------------


class RegionJson(TypedDict):
    """Code worth reading: a short relevant file whole, else the definitions the task names and
    the passages where its words meet."""

    start_line: Annotated[int, Doc("1-based first line.")]
    end_line: Annotated[int, Doc("1-based last line, inclusive.")]
    why: Annotated[str, Doc("What the span is: `whole file`, `function foo`, `defines X`, "
                            "`matched lines`, joined by `; ` when merged (1.1).")]
    text: Annotated[str, Doc("The lines, joined by `\\n`; credentials masked unless "
                             "redaction is off.")]


class FileJson(TypedDict):
    """One file of the context, best first."""

    path: Annotated[str, Doc("Relative to its root, forward slashes.")]
    root: Annotated[str, Doc("The absolute root the path is relative to.")]
    relevance: Annotated[float, Doc(
        "The file's role for the task, 0–1, rounded to 3 decimals: 0.8–1 it implements what "
        "the task names; 0.5–0.75 related; 0.2–0.45 indirect (docs/design.md).")]
    band: Annotated[Band, Doc("high (>= 0.8), medium (>= 0.5), low (>= 0.2).")]
    role: Annotated[Role, Doc("What put the file in its band (1.2).")]
    pinned: Annotated[bool, Doc(
        "The caller pinned it: handed out whatever its relevance, which is still its own "
        "(1.3).")]
    reason: Annotated[str, Doc("The role, then the links and signals that put it there.")]
    missing: Annotated[list[str], Doc(
        "Names it uses whose definitions are in files not in the result.")]
    cycle: Annotated[int, Doc("The cycle that first found the file (1-based).")]
    regions: list[RegionJson]
    uri: NotRequired[Annotated[str, Doc(
        "The file's `file://` URI (the language server adds it for editors).")]]


class TraceQueryJson(TypedDict):
    """What one cycle searched."""

    patterns: Annotated[list[str], Doc("Folder globs of good files, boosted.")]
    keywords: Annotated[list[str], Doc(
        "The task's concepts, then the words a follow-up kept or the branch lent, then learned "
        "terms.")]
    excludes: Annotated[list[str], Doc("Globs and paths never to return.")]
    focus_areas: Annotated[list[str], Doc("Symbols whose definitions this cycle looked up.")]
    follow_up: Annotated[list[str], Doc(
        "Keywords a follow-up kept: the previous answer's learned terms (1.4).")]
    from_branch: Annotated[list[str], Doc(
        "Keywords borrowed from the branch's commit messages, when the task says it is about "
        "the work in progress (1.4).")]


class CycleTraceJson(TypedDict):
    """One cycle of the loop."""

    cycle: Annotated[int, Doc("1-based cycle number.")]
    query: TraceQueryJson
    candidates: Annotated[int, Doc("How many files DISPATCH proposed.")]
    kept: Annotated[int, Doc("How many files are >= 0.7 after merging this cycle.")]
    excluded: Annotated[list[str], Doc("Files under 0.2 that REFINE excluded for later cycles.")]
    learned: Annotated[list[str], Doc("Terms REFINE learned from the codebase.")]
    gaps: Annotated[list[str], Doc("Task concepts no good file covers yet.")]
    ranking: Annotated[list[str], Doc("The merged top 20 paths after this cycle.")]
    stop_reason: Annotated[str, Doc(
        "Why the loop stopped after this cycle (empty when it went on).")]


class StatsJson(TypedDict):
    """Counts and times of one retrieval."""

    files_indexed: Annotated[int, Doc("Files in the index.")]
    files_reindexed: Annotated[int, Doc("Files read in this run.")]
    skipped: Annotated[dict[str, int], Doc(
        "Files left out by reason: binary, too_large, unreadable, undecodable, secret, "
        "generated (a bundle, a file whose header says a tool wrote it, or an API reference's "
        "HTML page), undecodable_name.")]
    cycles: int
    candidates: Annotated[int, Doc("Summed over cycles.")]
    tokens: Annotated[int, Doc("Estimated tokens of all regions.")]
    budget: int
    index_seconds: float
    seconds: float


class ResultJson(TypedDict):
    """The result of one retrieval: `retrieve --json`, the language server's `retrieve`, the
    MCP tool's structured content."""

    schema_version: Annotated[str, Doc("Check it before reading: 1.x adds fields only.")]
    task: Annotated[str, Doc("The task as the loop read it.")]
    roots: Annotated[list[str], Doc("The roots searched.")]
    files: list[FileJson]
    trace: list[CycleTraceJson]
    stats: StatsJson
    warnings: Annotated[list[str], Doc(
        "What the run could not do as configured, and what it did instead: a workspace "
        "folder's own gitBase setting that names no commit there (that folder's branch is "
        "measured from the default branch). Empty when all went as set (1.5).")]


# -- the language server's commands (docs/lsp.md) ---------------------------------------------


class SelectionJson(TypedDict):
    """Lines selected in the editor, 1-based and inclusive."""

    start_line: Annotated[int, LINE, Doc("1-based first line.")]
    end_line: Annotated[int, LINE, Doc("1-based last line, inclusive.")]


class RetrieveOptions(TypedDict, total=False):
    """The per-request settings of `retrieve` (and `renderContext` with a task), and what the
    caller knows besides the task: pins, excludes, files seen, the editor, a follow-up."""

    maxCycles: Annotated[int | None, MAX_CYCLES.arg]
    budget: Annotated[int | None, BUDGET.arg]
    maxFiles: Annotated[int | None, MAX_FILES.arg]
    include: Annotated[list[str] | str | None, INCLUDE.arg]
    exclude: Annotated[list[str] | str | None, EXCLUDE.arg]
    includeTests: Annotated[bool | None, INCLUDE_TESTS.arg]
    gitBase: Annotated[str | None, GIT_BASE.arg]
    root: Annotated[str | None, ROOT]
    pinned: Annotated[list[str] | None, PINNED]
    excluded: Annotated[list[str] | None, EXCLUDED]
    seen: Annotated[list[str] | None, SEEN]
    activeFile: Annotated[str | None, ACTIVE_FILE]
    selection: Annotated[SelectionJson | None, SELECTION]
    openFiles: Annotated[list[str] | None, OPEN_FILES]
    followUp: Annotated[list[str] | None, FOLLOW_UP]


class RetrieveParams(RetrieveOptions, total=False):
    """The one argument of `iterativeRetrieval.retrieve`."""

    task: Required[Annotated[str, TASK]]


class RegionInJson(TypedDict):
    """A region of a result sent back to be rendered."""

    start_line: int
    end_line: int
    text: str
    why: NotRequired[str]


class FileInJson(TypedDict, total=False):
    """A file of a result sent back to be rendered: what rendering needs is required, the
    rest of FileJson may be there."""

    path: Required[str]
    relevance: Required[float]
    reason: str
    missing: list[str]
    cycle: int
    regions: list[RegionInJson]
    role: str
    band: str
    root: str
    uri: str


class ResultInJson(TypedDict, total=False):
    """A result that `retrieve` returned earlier, sent back to `renderContext`."""

    task: Required[str]
    files: Required[list[FileInJson]]
    schema_version: str
    roots: Any
    """Read when it is a list of strings, else taken as none."""
    trace: list[Any]
    stats: Any
    """Read when it is an object."""


class RenderParams(RetrieveOptions, total=False):
    """The one argument of `iterativeRetrieval.renderContext`: a task to retrieve (with the
    retrieve options) or a result to render, exactly one of them."""

    task: Annotated[str, TASK]
    result: Annotated[ResultInJson, Doc(
        "A result that `iterativeRetrieval.retrieve` returned earlier (nothing is searched).")]
    format: Annotated[Format, Doc("markdown (default), json or xml (docs/lsp.md).")]


class RenderAnswer(TypedDict):
    """What `renderContext` answers."""

    format: Format
    text: str


class ExplainParams(TypedDict, total=False):
    """The one argument of `iterativeRetrieval.explain`."""

    path: Required[Annotated[str, Doc(
        "The file: relative to a workspace folder, absolute inside one, or a `file://` URI.")]]
    task: Required[Annotated[str, TASK]]


class NoParams(TypedDict):
    """A command that takes nothing (or an empty object)."""


class StatusParams(NoParams):
    """`iterativeRetrieval.status` takes nothing (or an empty object)."""


class ReindexParams(NoParams):
    """`iterativeRetrieval.reindex` takes nothing (or an empty object)."""


class RefreshJson(TypedDict):
    """Counts of one index refresh of a root."""

    files: Annotated[int, Doc("Files in the index after it, skipped ones included.")]
    indexed: Annotated[int, Doc("Files read in this refresh.")]
    unchanged: int
    removed: int
    skipped: dict[str, int]
    seconds: float


class RootStatusJson(TypedDict):
    """One root's index."""

    root: str
    index: Annotated[str, Doc("The index database's path.")]
    index_problem: Annotated[str | None, Doc(
        "Why the index is a temporary in-memory one (null when it is not).")]
    files: Annotated[int, Doc("Text files indexed.")]
    skipped: dict[str, int]
    open_buffers: int
    last_refresh: RefreshJson | None


class SettingsJson(TypedDict):
    """The settings in force, by their configuration keys (config.SETTINGS)."""

    maxCycles: Annotated[int, MAX_CYCLES]
    budget: Annotated[int, BUDGET]
    maxFiles: Annotated[int, MAX_FILES]
    include: Annotated[list[str], INCLUDE]
    exclude: Annotated[list[str], EXCLUDE]
    includeTests: Annotated[bool | None, INCLUDE_TESTS]
    cacheDir: Annotated[str | None, CACHE_DIR]
    redactSecrets: Annotated[bool, REDACT_SECRETS]
    gitSignals: Annotated[bool, GIT_SIGNALS]
    gitBase: Annotated[str | None, GIT_BASE]
    editorSignals: Annotated[bool, EDITOR_SIGNALS]


IndexState = Literal["starting", "indexing", "ready", "error", "no-workspace"]


class StatusJson(TypedDict):
    """What `iterativeRetrieval.status` answers."""

    state: IndexState
    error: Annotated[str | None, Doc("Why the state is `error`.")]
    version: Annotated[str, Doc("The server's version.")]
    schema_version: Annotated[str, Doc("The result's schema version.")]
    files: Annotated[int, Doc("Text files indexed, over all roots.")]
    open_buffers: int
    roots: list[RootStatusJson]
    watching_files: Annotated[bool, Doc("Whether the client watches files for the server.")]
    settings: SettingsJson


class ReindexRootJson(RefreshJson):
    """One root's refresh, with the root."""

    root: str


class ReindexJson(TypedDict):
    """What `iterativeRetrieval.reindex` answers."""

    state: IndexState
    files: int
    reindexed: Annotated[int, Doc("Files read again.")]
    roots: list[ReindexRootJson]


# -- explain, on every surface -----------------------------------------------------------------


class LineRangeJson(TypedDict):
    """A region's lines, without its text."""

    start_line: int
    end_line: int


class ExplanationJson(TypedDict):
    """One file's evaluation for a task (`Engine.explain`)."""

    task: str
    path: Annotated[str, Doc("Relative to its root, forward slashes.")]
    root: str
    relevance: Annotated[float, Doc("0–1; 0 when the file is not among the candidates.")]
    band: Annotated[Literal["high", "medium", "low", "irrelevant"], Doc(
        "irrelevant when the file is not among the files retrieved.")]
    reason: str
    missing: Annotated[list[str], Doc(
        "Symbols the file uses that are defined in files not in the result.")]
    rank: Annotated[int | None, Doc(
        "1-based rank among the files retrieved for the task; null when not among them.")]
    of: Annotated[int, Doc("How many files were retrieved for the task (up to 200).")]
    cycle: Annotated[int | None, Doc("The loop cycle that found it.")]
    regions: list[LineRangeJson]


# -- the MCP server's index_status -------------------------------------------------------------


class IndexStatusJson(TypedDict):
    """The MCP tool `index_status`'s structured content."""

    roots: list[RootStatusJson]
    root_source: Annotated[Literal["--root", "client roots", "current folder"], Doc(
        "How the root was chosen.")]
    version: str


WIRE_TYPES: dict[str, Any] = {
    "result": ResultJson,
    "retrieve-params": RetrieveParams,
    "render-params": RenderParams,
    "render-answer": RenderAnswer,
    "explain-params": ExplainParams,
    "explanation": ExplanationJson,
    "status": StatusJson,
    "reindex": ReindexJson,
    "index-status": IndexStatusJson,
}
"""Each wire object by the name of its schema file (docs/schema/<name>.schema.json)."""


def _configure() -> None:
    """How pydantic validates them (schema.py): strictly, and no key that is not declared,
    except in a result sent back to be rendered, which may carry any field of the result.
    Set here, not in the class bodies: a TypedDict's body holds only its keys."""
    lenient = (ResultInJson, FileInJson, RegionInJson)
    for value in list(globals().values()):
        if isinstance(value, type) and issubclass(value, dict) and value is not dict:
            config = {"strict": True, "extra": "ignore" if value in lenient else "forbid"}
            setattr(value, "__pydantic_config__", config)  # noqa: B010 - see the docstring


_configure()
