"""Settings shared by every surface: one table with each setting's default, bounds and doc.

`SETTINGS` is the one place a setting is defined. The command line's options (cli.py), the
language server's configuration and command arguments (lsp/protocol.py), the MCP tool's input
schema (mcp_server.py), the JSON Schemas and the VS Code extension's generated constants
(schema.py) are all made from it; tests/test_contract.py fails when `client-vscode/package.json`
or a generated file disagrees with it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Annotated, Any

from .gitignore import pattern_error

MAX_TASK_CHARS = 200_000
"""A task read whole: a pasted issue with a long stack trace fits; a whole file or log pasted
by mistake does not (the server and the MCP tool refuse it, the command line reads its start)."""
PROJECT_IGNORE_FILE = ".iterative-retrieval-ignore"
SNIFF_BYTES = 8192
"""Bytes looked at for a NUL, which marks binary data (a file, or a task given by mistake)."""
MAX_PATTERNS = 200
"""Globs one `include` or `exclude` may hold."""
DEFAULT_MAX_FILE_BYTES = 1_000_000


class BadValue(ValueError):
    """A setting's value failed its check; the message says why, without the setting's name
    (each surface names the setting in its own way)."""


def describe(value: Any) -> str:
    """A value as a message shows it: short, and JSON's words for JSON's values."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass(frozen=True)
class Setting:
    """One setting: its names on every surface, its type, default, bounds and doc.

    Instances also serve as `Annotated` metadata: pydantic asks them for the validator and the
    JSON Schema of the field they annotate (the language server's command arguments, schema.py),
    so the check below is the one every surface runs.
    """

    name: str
    """The field of `Settings`, and the MCP argument's name (snake_case)."""
    wire: str
    """The key in the language server's `iterativeRetrieval` section and command arguments, and
    the VS Code setting (camelCase)."""
    kind: str
    """int (bounded), globs (a glob or a list of gitignore-style globs), tests (true, false or
    null), folder (an absolute path or null), ref (a git ref name or null), bool."""
    default: Any
    doc: str
    """What it does, in one or two sentences (Markdown): every surface shows this text."""
    low: int = 0
    high: int = 0
    unit: str = ""
    """Said after the bounds in messages (" tokens")."""
    per_request: bool = False
    """A retrieve call may override it (LSP `retrieve` arguments, the MCP tool's arguments)."""
    index: bool = False
    """It changes which files are indexed, or where: a change rebuilds the server's engine."""
    folder: bool = False
    """A workspace folder may set its own value (VS Code's `resource` scope): the language
    server asks each folder, and the engine applies each folder's value to that root."""

    # -- checks ------------------------------------------------------------------------------

    def check(self, value: Any) -> Any:
        """The value as `Settings` holds it, from a JSON value; BadValue says what is wrong."""
        return _CHECKS[self.kind](self, value)

    def range_error(self, value: int) -> str | None:
        """For an int setting out of its bounds: the message `Settings.validated` raises."""
        if self.kind == "int" and not self.low <= value <= self.high:
            return f"{self.name} must be between {self.low} and {self.high}{self.unit}"
        return None

    # -- JSON Schema and validation, as `Annotated` metadata for pydantic (schema.py) --------

    def json_schema(self, argument: bool = False) -> dict[str, Any]:
        """The schema of the setting's JSON value, with its doc and default; as a request
        argument (`argument`) it may also be null (the configured value), and a glob setting
        a single string."""
        item: dict[str, Any]
        if self.kind == "int":
            item = {"type": "integer", "minimum": self.low, "maximum": self.high}
        elif self.kind == "globs":
            item = {"type": "array", "items": {"type": "string"}, "maxItems": MAX_PATTERNS}
            if argument:
                item = {"anyOf": [{"type": "string"}, item]}
        elif self.kind == "bool":
            item = {"type": "boolean"}
        elif self.kind == "tests":
            item = {"anyOf": [{"type": "boolean"}, {"type": "null"}]}
        else:
            item = {"anyOf": [{"type": "string"}, {"type": "null"}]}
        if argument and "anyOf" not in item:
            item = {"anyOf": [item, {"type": "null"}]}
        elif argument and item["anyOf"][-1] != {"type": "null"}:
            item = {"anyOf": [*item["anyOf"], {"type": "null"}]}
        default = list(self.default) if isinstance(self.default, tuple) else self.default
        return {**item, "description": self.doc, "default": None if argument else default}

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return _validator(lambda v: v if v is None and self.default is None else self.check(v))

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return self.json_schema()

    @property
    def arg(self) -> SettingArgument:
        """Metadata for the setting as a request argument: null means the configured value."""
        return SettingArgument(self)

    @property
    def described(self) -> SettingDoc:
        """Metadata that only describes the setting (doc, bounds): for the MCP tool, whose
        values `Settings.validated` checks."""
        return SettingDoc(self)


@dataclass(frozen=True)
class SettingArgument:
    """A setting as a request's argument (see Setting.arg)."""

    setting: Setting

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return _validator(lambda v: None if v is None else self.setting.check(v))

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return self.setting.json_schema(argument=True)


@dataclass(frozen=True)
class SettingDoc:
    """A setting's doc and bounds, added to the schema pydantic makes of the annotated type."""

    setting: Setting

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        out = {**handler(schema), "description": self.setting.doc}
        if self.setting.kind == "int":
            out.update(minimum=self.setting.low, maximum=self.setting.high)
        return out


def _validator(check: Callable[[Any], Any]) -> Any:
    """A pydantic core schema that runs `check` on any JSON value (imported on first use:
    the command line never validates with pydantic)."""
    from pydantic_core import core_schema

    return core_schema.no_info_plain_validator_function(
        check, json_schema_input_schema=core_schema.any_schema())


def _int(s: Setting, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise BadValue(f"must be an integer from {s.low} to {s.high}{s.unit}, "
                       f"got {describe(value)}")
    if not s.low <= int(value) <= s.high:
        raise BadValue(f"must be from {s.low} to {s.high}{s.unit}, got {int(value)}")
    return int(value)


def _globs(s: Setting, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise BadValue(f"must be a glob pattern or an array of glob patterns, "
                       f"got {describe(value)}")
    if len(value) > MAX_PATTERNS:
        raise BadValue(f"must have at most {MAX_PATTERNS} patterns, got {len(value)}")
    out = tuple(v.strip() for v in value if v.strip())
    for pattern in out:
        why = pattern_error(pattern)
        if why:
            raise BadValue(f"holds {describe(pattern)}, which is not a valid glob pattern: {why}")
    return out


def _tests(s: Setting, value: Any) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise BadValue(f"must be true, false or null, got {describe(value)}")
    return value


def _bool(s: Setting, value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadValue(f"must be true or false, got {describe(value)}")
    return value


def _folder(s: Setting, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadValue(f"must be a folder path, got {describe(value)}")
    if "\0" in value:
        raise BadValue("must not contain a NUL character")
    path = os.path.expanduser(value.strip())
    if not os.path.isabs(path):
        raise BadValue(f"must be an absolute folder path, got {describe(value)}")
    return path


MAX_REF = 250
"""The longest git ref name taken."""


def _ref(s: Setting, value: Any) -> str:
    """A ref git reads as a revision, never as an option (`--output=…`) nor a range."""
    if not isinstance(value, str) or not value.strip():
        raise BadValue(f"must be a git branch, tag or commit, got {describe(value)}")
    ref = value.strip()
    if len(ref) > MAX_REF or ref.startswith("-") or any(c.isspace() or c in "\0:?*[\\"
                                                          for c in ref) or ".." in ref:
        raise BadValue(f"must be a git branch, tag or commit name (like origin/main), "
                       f"got {describe(value)}")
    return ref


_CHECKS: dict[str, Callable[[Setting, Any], Any]] = {
    "int": _int, "globs": _globs, "tests": _tests, "bool": _bool, "folder": _folder, "ref": _ref,
}

MAX_CYCLES = Setting(
    "max_cycles", "maxCycles", "int", 3, low=1, high=10, per_request=True,
    doc="The most search–evaluate–refine cycles one retrieval runs.")
BUDGET = Setting(
    "budget", "budget", "int", 8000, low=200, high=1_000_000, unit=" tokens", per_request=True,
    doc="Token budget of the code regions handed out (about 4 characters a token).")
MAX_FILES = Setting(
    "max_files", "maxFiles", "int", 15, low=1, high=200, per_request=True,
    doc="The most files in one result: every file rated 0.2 or more, best first.")
INCLUDE = Setting(
    "include", "include", "globs", (), per_request=True, index=True, folder=True,
    doc="Glob patterns (gitignore syntax, e.g. `src/**`): when any is given, only matching "
        "files are indexed and returned.")
EXCLUDE = Setting(
    "exclude", "exclude", "globs", (), per_request=True, index=True, folder=True,
    doc="Extra glob patterns never to index or return, on top of `.gitignore` and "
        "`.iterative-retrieval-ignore` (e.g. `vendor/**`).")
INCLUDE_TESTS = Setting(
    "include_tests", "includeTests", "tests", None, per_request=True,
    doc="Whether tests, docs and fixtures may be part of the context; by default only when "
        "the task is about them.")
CACHE_DIR = Setting(
    "cache_dir", "cacheDir", "folder", None, index=True,
    doc="Where the index lives (one SQLite file per root). Unset: the platform's cache folder "
        "(`~/.cache/iterative-retrieval` on Linux).")
REDACT_SECRETS = Setting(
    "redact_secrets", "redactSecrets", "bool", True,
    doc="Mask strings that look like credentials (private keys, access tokens, high-entropy "
        "values assigned to `password`, `secret`, `token`, `api_key`…) in everything handed "
        "out, as `«redacted: kind»`. Secret files (`.env`, keys, credential files) are never "
        "read either way.")
GIT_SIGNALS = Setting(
    "git_signals", "gitSignals", "bool", True,
    doc="Weigh where the work is in git: the branch's changes against its merge-base with the "
        "default branch, staged, unstaged and untracked files, and recent commits (decaying "
        "over days). Local only; a task about something else is not pulled towards them.")
GIT_BASE = Setting(
    "git_base", "gitBase", "ref", None, per_request=True, folder=True,
    doc="The branch, tag or commit the branch's changes are measured from (e.g. `origin/develop`, "
        "or the feature branch this one is stacked on). Unset: the nearest of the default "
        "branch's copies (`origin/HEAD`, `upstream/HEAD`, `main`, `master`, …).")
EDITOR_SIGNALS = Setting(
    "editor_signals", "editorSignals", "bool", True,
    doc="Weigh the active file, the selection and the open files an editor sends (or "
        "`--focus`): evidence with its own reason, never a guaranteed place.")

SETTINGS: tuple[Setting, ...] = (
    MAX_CYCLES, BUDGET, MAX_FILES, INCLUDE, EXCLUDE, INCLUDE_TESTS, CACHE_DIR, REDACT_SECRETS,
    GIT_SIGNALS, GIT_BASE, EDITOR_SIGNALS,
)
"""Every user setting, in the order surfaces list them."""
BY_NAME = {s.name: s for s in SETTINGS}
FOLDER_SETTINGS = tuple(s.name for s in SETTINGS if s.folder)
BY_WIRE = {s.wire: s for s in SETTINGS}

DEFAULT_MAX_CYCLES: int = MAX_CYCLES.default
DEFAULT_BUDGET_TOKENS: int = BUDGET.default
DEFAULT_MAX_FILES: int = MAX_FILES.default


@dataclass(frozen=True)
class Settings:
    """Options of one retrieval; every surface builds one from its flags or configuration.

    The fields of `SETTINGS` (their docs are there), plus `max_file_bytes`, which no surface
    exposes.
    """

    max_cycles: Annotated[int, MAX_CYCLES] = MAX_CYCLES.default
    budget: Annotated[int, BUDGET] = BUDGET.default
    max_files: Annotated[int, MAX_FILES] = MAX_FILES.default
    include: Annotated[tuple[str, ...], INCLUDE] = INCLUDE.default
    exclude: Annotated[tuple[str, ...], EXCLUDE] = EXCLUDE.default
    include_tests: Annotated[bool | None, INCLUDE_TESTS] = INCLUDE_TESTS.default
    cache_dir: Annotated[str | None, CACHE_DIR] = CACHE_DIR.default
    redact_secrets: Annotated[bool, REDACT_SECRETS] = REDACT_SECRETS.default
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    git_signals: Annotated[bool, GIT_SIGNALS] = GIT_SIGNALS.default
    git_base: Annotated[str | None, GIT_BASE] = GIT_BASE.default
    editor_signals: Annotated[bool, EDITOR_SIGNALS] = EDITOR_SIGNALS.default

    def merged(self, **overrides: Any) -> Settings:
        """A copy with the non-None overrides applied (unknown keys are refused)."""
        known = {f.name for f in fields(self)}
        bad = set(overrides) - known
        if bad:
            raise ValueError(f"unknown setting(s): {', '.join(sorted(bad))}")
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def validated(self) -> Settings:
        """Raise ValueError with a clear message when a value is out of range."""
        for s in SETTINGS:
            value = getattr(self, s.name)
            if s.kind == "int" and (why := s.range_error(value)):
                raise ValueError(why)
            if s.kind == "globs":
                for pattern in value:
                    why = pattern_error(pattern)
                    if why:
                        raise ValueError(
                            f"{s.name}: {pattern!r} is not a valid glob pattern: {why}")
            if s.kind == "ref" and value is not None:
                try:
                    s.check(value)
                except BadValue as e:
                    raise ValueError(f"{s.name} {e}") from None
        return self

    def for_folder(self, folder: Settings | None, base: Settings) -> Settings:
        """These settings for one workspace folder: the folder's own values of the
        FOLDER_SETTINGS in place of `base`'s (the workspace's) where this run kept them; a
        run's own `include` stands (the folder's index holds only the folder's anyway), and
        the patterns a run added after the configured `exclude` add to the folder's."""
        if folder is None:
            return self
        mine: dict[str, Any] = {}
        for name in FOLDER_SETTINGS:
            value, was = getattr(self, name), getattr(base, name)
            if value == was:
                mine[name] = getattr(folder, name)
            elif name == EXCLUDE.name and value[:len(was)] == was:
                mine[name] = getattr(folder, name) + value[len(was):]
        return replace(self, **mine)

    def to_wire(self) -> dict[str, Any]:
        """The settings as the language server's section names them (for `status`)."""
        return {s.wire: _json_value(getattr(self, s.name)) for s in SETTINGS}


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def task_problem(task: str) -> str | None:
    """What is wrong with a task as the server and the MCP tools take it (None: nothing):
    "is empty: …" or "is too long (…)". Each surface says whose task it is; the command
    line cuts a long task instead (cli.py)."""
    if not task or not task.strip():
        return "is empty: say what you want to do"
    if len(task) > MAX_TASK_CHARS:
        return f"is too long ({len(task)} characters; at most {MAX_TASK_CHARS})"
    return None


def default_cache_dir() -> Path:
    """The platform's cache folder for this tool (XDG_CACHE_HOME on Linux)."""
    env = os.environ.get("ITERATIVE_RETRIEVAL_CACHE")
    if env:
        return Path(env)
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    elif os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "iterative-retrieval"


def ablated(signal: str) -> bool:
    """True when the benchmark switched a ranking signal off (IR_ABLATE=graph,feedback,...).

    Only bench/quality sets it, to measure each signal's share; users never need it.
    """
    return signal in ablated_signals()


def ablated_signals() -> frozenset[str]:
    """Every signal IR_ABLATE switches off: read once by a loop over many candidates."""
    value = os.environ.get("IR_ABLATE")
    return frozenset(s.strip() for s in value.split(",")) if value else frozenset()
