"""The server's wire vocabulary: command names, the configuration section, and the checks of
what clients send, as pure functions with no pygls import.

The shapes are the wire contract's (contract.py) and the settings' checks the table's
(config.SETTINGS): pygls converts each command's argument into its typed dict through
schema.validate (rpc.py registers the hooks), so a bad argument is answered InvalidParams with
a message that names the command and the field. The functions here give the same answers to
callers that hold raw arguments (tests, tools).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ..config import BY_WIRE, SETTINGS, BadValue, describe
from ..contract import (
    ExplainParams,
    ReindexParams,
    RenderParams,
    ResultInJson,
    RetrieveParams,
    StatusParams,
    root_path,
)
from ..hintargs import HINT_KEYS
from ..models import FileResult, Region, RetrievalResult
from ..schema import WireError, validate

SECTION = "iterativeRetrieval"
"""The configuration section (`workspace/configuration`, `initializationOptions`)."""

CMD_RETRIEVE = "iterativeRetrieval.retrieve"
CMD_STATUS = "iterativeRetrieval.status"
CMD_REINDEX = "iterativeRetrieval.reindex"
CMD_RENDER = "iterativeRetrieval.renderContext"
CMD_EXPLAIN = "iterativeRetrieval.explain"
COMMANDS = (CMD_RETRIEVE, CMD_STATUS, CMD_REINDEX, CMD_RENDER, CMD_EXPLAIN)

ARGUMENT_TYPES: dict[str, Any] = {
    CMD_RETRIEVE: RetrieveParams,
    CMD_RENDER: RenderParams,
    CMD_EXPLAIN: ExplainParams,
    CMD_STATUS: StatusParams,
    CMD_REINDEX: ReindexParams,
}
"""Each command's one argument (contract.py), one type per command (the converter knows the
command by it); a NoParams command may also take none."""

TAKE_NOTHING = frozenset((CMD_STATUS, CMD_REINDEX))
"""Commands whose argument may be left out."""

SETTING_NAMES = tuple(s.wire for s in SETTINGS)
INDEX_SETTINGS = tuple(s.name for s in SETTINGS if s.index)
"""Settings that change which files are indexed, or where: a change rebuilds the engine."""


class ParamsError(ValueError):
    """A command argument that is missing or malformed; the message says which and why."""


def params_error(command: str, error: WireError) -> ParamsError:
    """The InvalidParams message: the command, then the field and what is wrong with it."""
    if error.where is None:
        return ParamsError(f"{command} {error.why}" if error.why.startswith("takes")
                           else f"{command}: {error.why}")
    return ParamsError(f"{command}: {error}")


# -- configuration -----------------------------------------------------------------------------


def config_section(raw: Any) -> Any:
    """The `iterativeRetrieval` object inside a settings object, or the object itself when flat.

    Clients send `{"iterativeRetrieval": {...}}` (VS Code style) or the section directly.
    """
    if isinstance(raw, Mapping) and isinstance(raw.get(SECTION), Mapping):
        return raw[SECTION]
    return raw


@dataclass
class ConfigReport:
    """What reading a configuration found wrong."""

    warnings: list[str]
    """Bad values, replaced by their defaults: worth showing the user."""
    ignored: list[str]
    """Keys the server does not know (an editor's own settings share the section): logged only."""


def parse_config(raw: Any, source: str) -> tuple[dict[str, Any], ConfigReport]:
    """Settings overrides (Settings field names) from a client's configuration, and problems.

    Never raises: a bad value is left out (so its default applies) with a warning naming it.
    """
    report = ConfigReport([], [])
    raw = config_section(raw)
    if raw is None:
        return {}, report
    if not isinstance(raw, Mapping):
        report.warnings.append(f"{source}: expected an object of {SECTION} settings, got "
                               f"{describe(raw)}; using the defaults")
        return {}, report
    out: dict[str, Any] = {}
    for key, value in raw.items():
        spec = BY_WIRE.get(key)
        if spec is None:
            report.ignored.append(f"{source}: setting {SECTION}.{key} is not the server's; ignored "
                                  f"(the server reads {', '.join(SETTING_NAMES)})")
            continue
        if value is None:
            continue
        try:
            out[spec.name] = spec.check(value)
        except BadValue as exc:
            default = list(spec.default) if isinstance(spec.default, tuple) else spec.default
            report.warnings.append(f"{source}: {SECTION}.{key} {exc}; using the default "
                                   f"({_json(default)})")
    return out, report


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


def settings_to_wire(values: Mapping[str, Any]) -> dict[str, Any]:
    """Settings fields back to their camelCase names (only those given)."""
    return {s.wire: list(v) if isinstance(v := values[s.name], tuple) else v
            for s in SETTINGS if s.name in values}


# -- command arguments -------------------------------------------------------------------------


@dataclass(frozen=True)
class RetrieveArgs:
    """A checked `retrieve` argument, by the engine's names."""

    task: str
    max_cycles: int | None = None
    budget: int | None = None
    max_files: int | None = None
    include: tuple[str, ...] | None = None
    """Replaces the configured include globs for this request (None: keep them)."""
    exclude: tuple[str, ...] = ()
    """Added to the configured excludes."""
    include_tests: bool | None = None
    git_base: str | None = None
    root: str | None = None
    """A workspace folder, or a folder inside one, to search alone (absolute path or file URI)."""
    hints: Mapping[str, Any] = field(default_factory=dict)
    """The hint arguments as sent (hintargs.HINT_KEYS; checked, not yet placed in a root)."""

    @classmethod
    def of(cls, params: RetrieveParams | RenderParams) -> RetrieveArgs:
        """From a validated argument (its globs already tuples)."""
        p = cast(dict[str, Any], params)
        return cls(task=p["task"], max_cycles=p.get("maxCycles"), budget=p.get("budget"),
                   max_files=p.get("maxFiles"), include=p.get("include"),
                   exclude=p.get("exclude") or (), include_tests=p.get("includeTests"),
                   git_base=p.get("gitBase"), root=p.get("root"),
                   hints={k: p[k] for k in HINT_KEYS if p.get(k) is not None})


@dataclass(frozen=True)
class RenderArgs:
    """A checked `renderContext` argument: a task to run, or a result to render."""

    format: str
    retrieve: RetrieveArgs | None = None
    result: RetrievalResult | None = None


def checked(command: str, value: Any) -> Any:
    """A command's one argument, validated against its type (ARGUMENT_TYPES); ParamsError
    names the field. renderContext also needs exactly one of `task` and `result`."""
    if command == CMD_RENDER and isinstance(value, dict):
        _one_of_task_and_result(command, value)
    try:
        return validate(ARGUMENT_TYPES[command], value)
    except WireError as exc:
        raise params_error(command, exc) from None


def _one_of_task_and_result(command: str, value: dict[str, Any]) -> None:
    has_task, has_result = value.get("task") is not None, value.get("result") is not None
    if has_task and has_result:
        raise ParamsError(f"{command}: give either 'task' or 'result', not both")
    if not has_task and not has_result:
        raise ParamsError(f"{command}: 'task' (a string) or 'result' (the object "
                          f"{CMD_RETRIEVE} returned) is required")
    extra = sorted(k for k in value if k not in ("result", "format")) if has_result else []
    if extra:
        raise ParamsError(f"{command}: {', '.join(extra)} cannot go with 'result' "
                          "(it is rendered as it is)")


def one_argument(command: str, arguments: Sequence[Any] | None) -> Any:
    """The one object of `arguments`; ParamsError for another count. A command that takes no
    argument (NoParams) may get none, or null."""
    optional = command in TAKE_NOTHING
    if not arguments:
        if optional:
            return {}
        raise ParamsError(f"{command} takes one object argument, e.g. "
                          f"arguments: [{{\"task\": \"...\"}}]; got no arguments")
    if len(arguments) > 1:
        raise ParamsError(f"{command} takes one object argument, got {len(arguments)} arguments")
    if arguments[0] is None and optional:
        return {}
    return arguments[0]


def parse_retrieve(args: tuple[Any, ...], command: str = CMD_RETRIEVE) -> RetrieveArgs:
    """Check the arguments of `retrieve`; ParamsError says what is wrong."""
    return RetrieveArgs.of(checked(command, one_argument(command, list(args))))


def parse_no_args(args: tuple[Any, ...], command: str) -> None:
    """`status` and `reindex` take nothing, or one empty object."""
    checked(command, one_argument(command, list(args)))


def parse_render(args: tuple[Any, ...]) -> RenderArgs:
    """Check the arguments of `renderContext`: `{task, ...retrieve options} | {result}`, format."""
    return render_args(checked(CMD_RENDER, one_argument(CMD_RENDER, list(args))))


def render_args(params: RenderParams) -> RenderArgs:
    fmt = params.get("format", "markdown")
    if "result" in params:
        return RenderArgs(fmt, result=result_from_wire(params["result"]))
    return RenderArgs(fmt, retrieve=RetrieveArgs.of(params))


def result_from_wire(d: ResultInJson) -> RetrievalResult:
    """A RetrievalResult from a checked result object (only what rendering needs)."""
    files = [
        FileResult(
            path=f["path"], relevance=float(f["relevance"]), reason=f.get("reason", ""),
            missing=list(f.get("missing", ())), cycle=f.get("cycle", 1),
            regions=[Region(r["start_line"], r["end_line"], r["text"], r.get("why", ""))
                     for r in f.get("regions", ())],
            root=f.get("root", ""), role=f.get("role", ""),
        )
        for f in d["files"]
    ]
    stats = d.get("stats")
    roots = d.get("roots")
    roots = [r for r in roots if isinstance(r, str)] if isinstance(roots, list) else []
    return RetrievalResult(d["task"], files, [], stats if isinstance(stats, dict) else {}, roots)


def path_from_root_param(value: str, command: str = CMD_RETRIEVE) -> str:
    """An absolute filesystem path from a `root` parameter (path or file URI); ParamsError else."""
    try:
        return root_path(value)
    except BadValue as exc:
        raise ParamsError(f"{command}: 'root' {exc}") from None


def patterns_under(prefix: str, patterns: tuple[str, ...]) -> tuple[str, ...]:
    """Glob patterns written relative to a subfolder, rewritten relative to its workspace root.

    gitignore rules: a pattern with a slash is anchored (prefix it), one without matches at any
    depth (prefix it with `prefix/**/`); a leading `!` keeps its meaning.
    """
    out = []
    for p in patterns:
        neg, body = (True, p[1:]) if p.startswith("!") else (False, p)
        body = (f"{prefix}/{body.lstrip('/')}" if "/" in body.rstrip("/")
                else f"{prefix}/**/{body}")
        out.append(("!" if neg else "") + body)
    return tuple(out)
