"""The server's wire vocabulary: command names, typed command arguments and settings, and checks.

Pure functions over plain JSON values, with no pygls import, so that every message a client can
get back for bad input is written (and tested) in one place. A bad command argument raises
`ParamsError`, which the command layer answers with InvalidParams; a bad setting is reported and
replaced by its default instead.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlparse

from ..config import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_MAX_CYCLES,
    DEFAULT_MAX_FILES,
    MAX_TASK_CHARS,
)
from ..gitignore import pattern_error
from ..models import FileResult, Region, RetrievalResult

SECTION = "iterativeRetrieval"
"""The configuration section (`workspace/configuration`, `initializationOptions`)."""

CMD_RETRIEVE = "iterativeRetrieval.retrieve"
CMD_STATUS = "iterativeRetrieval.status"
CMD_REINDEX = "iterativeRetrieval.reindex"
CMD_RENDER = "iterativeRetrieval.renderContext"
COMMANDS = (CMD_RETRIEVE, CMD_STATUS, CMD_REINDEX, CMD_RENDER)

MAX_PATTERNS = 200

# (low, high) of the numeric settings, the same bounds as Settings.validated().
CYCLES_RANGE = (1, 10)
BUDGET_RANGE = (200, 1_000_000)
FILES_RANGE = (1, 200)


class ParamsError(ValueError):
    """A command argument that is missing or malformed; the message says which and why."""


class _Bad(ValueError):
    """One value failed its check; the caller adds where it was."""


# -- value checks ------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _int_in(low: int, high: int, unit: str = "") -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise _Bad(f"must be an integer from {low} to {high}{unit}, got {_describe(value)}")
        if not low <= int(value) <= high:
            raise _Bad(f"must be from {low} to {high}{unit}, got {int(value)}")
        return int(value)

    return check


def _patterns(value: Any) -> tuple[str, ...]:
    """A glob or a list of globs (gitignore syntax)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"must be a glob pattern or an array of glob patterns, got {_describe(value)}")
    if len(value) > MAX_PATTERNS:
        raise _Bad(f"must have at most {MAX_PATTERNS} patterns, got {len(value)}")
    out = tuple(v.strip() for v in value if v.strip())
    for pattern in out:
        why = pattern_error(pattern)
        if why:
            raise _Bad(f"holds {_describe(pattern)}, which is not a valid glob pattern: {why}")
    return out


def _bool_or_null(value: Any) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise _Bad(f"must be true, false or null, got {_describe(value)}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"must be true or false, got {_describe(value)}")
    return value


def _cache_dir(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"must be a folder path, got {_describe(value)}")
    if "\0" in value:
        raise _Bad("must not contain a NUL character")
    path = os.path.expanduser(value.strip())
    if not os.path.isabs(path):
        raise _Bad(f"must be an absolute folder path, got {_describe(value)}")
    return path


# camelCase name on the wire → (Settings field, check, default shown in messages)
_SETTINGS: dict[str, tuple[str, Callable[[Any], Any], Any]] = {
    "maxCycles": ("max_cycles", _int_in(*CYCLES_RANGE), DEFAULT_MAX_CYCLES),
    "budget": ("budget", _int_in(*BUDGET_RANGE, " tokens"), DEFAULT_BUDGET_TOKENS),
    "maxFiles": ("max_files", _int_in(*FILES_RANGE), DEFAULT_MAX_FILES),
    "include": ("include", _patterns, []),
    "exclude": ("exclude", _patterns, []),
    "includeTests": ("include_tests", _bool_or_null, None),
    "cacheDir": ("cache_dir", _cache_dir, None),
    "redactSecrets": ("redact_secrets", _bool, True),
}
SETTING_NAMES = tuple(_SETTINGS)
INDEX_SETTINGS = ("include", "exclude", "cache_dir")
"""Settings that change which files are indexed, or where: a change rebuilds the engine."""


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
                               f"{_describe(raw)}; using the defaults")
        return {}, report
    out: dict[str, Any] = {}
    for key, value in raw.items():
        spec = _SETTINGS.get(key)
        if spec is None:
            report.ignored.append(f"{source}: setting {SECTION}.{key} is not the server's; ignored "
                                  f"(the server reads {', '.join(SETTING_NAMES)})")
            continue
        if value is None:
            continue
        field, check, default = spec
        try:
            out[field] = check(value)
        except _Bad as exc:
            report.warnings.append(
                f"{source}: {SECTION}.{key} {exc}; using the default ({_json(default)})"
            )
    return out, report


def _json(value: Any) -> str:
    return json.dumps(value)


def settings_to_wire(values: Mapping[str, Any]) -> dict[str, Any]:
    """Settings fields back to their camelCase names, for `status`."""
    out: dict[str, Any] = {}
    for key, (field, _check, _default) in _SETTINGS.items():
        if field in values:
            v = values[field]
            out[key] = list(v) if isinstance(v, tuple) else v
    return out


# -- command arguments -------------------------------------------------------------------------


@dataclass(frozen=True)
class RetrieveArgs:
    """The argument of `iterativeRetrieval.retrieve` (and of `renderContext` with a task)."""

    task: str
    """The task in plain words (an issue, a stack trace, a request)."""
    max_cycles: int | None = None
    budget: int | None = None
    """Token budget of the returned regions."""
    max_files: int | None = None
    include: tuple[str, ...] | None = None
    """Only files matching one of these globs are candidates (replaces the configured include)."""
    exclude: tuple[str, ...] = ()
    """Globs never returned, on top of the configured excludes."""
    include_tests: bool | None = None
    root: str | None = None
    """A workspace folder, or a folder inside one, to search alone (absolute path or file URI)."""


@dataclass(frozen=True)
class RenderArgs:
    """The argument of `iterativeRetrieval.renderContext`: a task to run, or a result to render."""

    format: str
    retrieve: RetrieveArgs | None = None
    result: RetrievalResult | None = None


_RETRIEVE_KEYS = ("task", "maxCycles", "budget", "maxFiles", "include", "exclude",
                  "includeTests", "root")


def _one_object(command: str, args: tuple[Any, ...], optional: bool = False) -> dict[str, Any]:
    if not args:
        if optional:
            return {}
        raise ParamsError(f"{command} takes one object argument, e.g. "
                          f"arguments: [{{\"task\": \"...\"}}]; got no arguments")
    if len(args) > 1:
        raise ParamsError(f"{command} takes one object argument, got {len(args)} arguments")
    obj = args[0]
    if obj is None and optional:
        return {}
    if not isinstance(obj, dict):
        raise ParamsError(f"{command} takes one object argument, got {_describe(obj)}")
    return obj


def _unknown(command: str, obj: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    bad = sorted(k for k in obj if k not in allowed)
    if bad:
        raise ParamsError(f"{command}: unknown parameter(s) {', '.join(bad)} "
                          f"(allowed: {', '.join(allowed) if allowed else 'none'})")


def _retrieve_fields(command: str, obj: Mapping[str, Any]) -> RetrieveArgs:
    task = obj.get("task")
    if task is None:
        raise ParamsError(f"{command}: 'task' is required: a non-empty string saying what to do")
    if not isinstance(task, str):
        raise ParamsError(f"{command}: 'task' must be a string, got {_describe(task)}")
    if not task.strip():
        raise ParamsError(f"{command}: 'task' is empty: say what you want to do")
    if len(task) > MAX_TASK_CHARS:
        raise ParamsError(f"{command}: 'task' is too long ({len(task)} characters; "
                          f"at most {MAX_TASK_CHARS})")
    values: dict[str, Any] = {}
    for key in ("maxCycles", "budget", "maxFiles", "include", "exclude", "includeTests"):
        if obj.get(key) is None:
            continue
        field, check, _default = _SETTINGS[key]
        try:
            values[field] = check(obj[key])
        except _Bad as exc:
            raise ParamsError(f"{command}: '{key}' {exc}") from None
    root = obj.get("root")
    if root is not None and (not isinstance(root, str) or not root.strip()):
        raise ParamsError(f"{command}: 'root' must be a folder path or a file:// URI, "
                          f"got {_describe(root)}")
    if root is not None:
        path_from_root_param(root.strip(), command)  # refused now, naming the field
    return RetrieveArgs(
        task=task, root=root.strip() if root else None,
        exclude=values.pop("exclude", ()), **values,
    )


def parse_retrieve(args: tuple[Any, ...], command: str = CMD_RETRIEVE) -> RetrieveArgs:
    """Check the arguments of `retrieve`; ParamsError says what is wrong."""
    obj = _one_object(command, args)
    _unknown(command, obj, _RETRIEVE_KEYS)
    return _retrieve_fields(command, obj)


def parse_no_args(args: tuple[Any, ...], command: str) -> None:
    """`status` and `reindex` take nothing, or one empty object."""
    obj = _one_object(command, args, optional=True)
    _unknown(command, obj, ())


def parse_render(args: tuple[Any, ...]) -> RenderArgs:
    """Check the arguments of `renderContext`: `{task, ...retrieve options} | {result}`, format."""
    command = CMD_RENDER
    obj = _one_object(command, args)
    fmt = obj.get("format", "markdown")
    if fmt != "markdown":
        raise ParamsError(f"{command}: 'format' must be \"markdown\", got {_describe(fmt)}")
    has_task, has_result = obj.get("task") is not None, obj.get("result") is not None
    if has_task and has_result:
        raise ParamsError(f"{command}: give either 'task' or 'result', not both")
    if not has_task and not has_result:
        raise ParamsError(f"{command}: 'task' (a string) or 'result' (the object "
                          f"{CMD_RETRIEVE} returned) is required")
    if has_result:
        _unknown(command, obj, ("result", "format"))
        return RenderArgs(fmt, result=result_from_dict(obj["result"], "result"))
    _unknown(command, obj, _RETRIEVE_KEYS + ("format",))
    rest = {k: v for k, v in obj.items() if k != "format"}
    return RenderArgs(fmt, retrieve=_retrieve_fields(command, rest))


def result_from_dict(d: Any, where: str) -> RetrievalResult:
    """A RetrievalResult from the JSON object `retrieve` returns (only what rendering needs)."""

    def need(obj: Any, key: str, kinds: tuple[type, ...], at: str, what: str) -> Any:
        v = obj.get(key)
        if not isinstance(v, kinds) or isinstance(v, bool) and bool not in kinds:
            raise ParamsError(f"{CMD_RENDER}: '{at}.{key}' must be {what}, got {_describe(v)}")
        return v

    if not isinstance(d, dict):
        raise ParamsError(f"{CMD_RENDER}: '{where}' must be the object {CMD_RETRIEVE} returned, "
                          f"got {_describe(d)}")
    task = need(d, "task", (str,), where, "a string")
    files_raw = need(d, "files", (list,), where, "an array")
    files: list[FileResult] = []
    for i, f in enumerate(files_raw):
        at = f"{where}.files[{i}]"
        if not isinstance(f, dict):
            raise ParamsError(f"{CMD_RENDER}: '{at}' must be an object, got {_describe(f)}")
        regions = []
        regions_raw = f.get("regions") or []
        if not isinstance(regions_raw, list):
            raise ParamsError(f"{CMD_RENDER}: '{at}.regions' must be an array, "
                              f"got {_describe(regions_raw)}")
        for j, r in enumerate(regions_raw):
            rat = f"{at}.regions[{j}]"
            if not isinstance(r, dict):
                raise ParamsError(f"{CMD_RENDER}: '{rat}' must be an object, got {_describe(r)}")
            regions.append(Region(
                need(r, "start_line", (int,), rat, "a line number"),
                need(r, "end_line", (int,), rat, "a line number"),
                need(r, "text", (str,), rat, "a string"),
            ))
        missing = f.get("missing") or []
        if not isinstance(missing, list) or not all(isinstance(m, str) for m in missing):
            raise ParamsError(f"{CMD_RENDER}: '{at}.missing' must be an array of strings")
        files.append(FileResult(
            path=need(f, "path", (str,), at, "a string"),
            relevance=float(need(f, "relevance", (int, float), at, "a number")),
            reason=f.get("reason") if isinstance(f.get("reason"), str) else "",
            missing=list(missing),
            cycle=f.get("cycle") if isinstance(f.get("cycle"), int) else 1,
            regions=regions,
        ))
    stats = d.get("stats") if isinstance(d.get("stats"), dict) else {}
    roots_raw = d.get("roots") or []
    roots = [r for r in roots_raw if isinstance(r, str)] if isinstance(roots_raw, list) else []
    return RetrievalResult(task, files, [], stats, roots)


def path_from_root_param(value: str, command: str = CMD_RETRIEVE) -> str:
    """An absolute filesystem path from a `root` parameter (path or file URI); ParamsError else."""
    if "://" in value or value.startswith("file:"):
        parsed = urlparse(value)
        if parsed.scheme != "file":
            raise ParamsError(f"{command}: 'root' must be a folder path or a file:// URI, "
                              f"got {_describe(value)}")
        path = unquote(parsed.path)
        if os.name == "nt" and path.startswith("/") and len(path) > 2 and path[2] == ":":
            path = path[1:]
    else:
        path = os.path.expanduser(value)
    if "\0" in path:
        raise ParamsError(f"{command}: 'root' must not contain a NUL character")
    if not os.path.isabs(path):
        raise ParamsError(
            f"{command}: 'root' must be an absolute path, got {_describe(value)}"
        )
    return path


def patterns_under(prefix: str, patterns: tuple[str, ...]) -> tuple[str, ...]:
    """Glob patterns written relative to a subfolder, rewritten relative to its workspace root.

    gitignore rules: a pattern with a slash is anchored (prefix it), one without matches at any
    depth (prefix it with `prefix/**/`); a leading `!` keeps its meaning.
    """
    out = []
    for p in patterns:
        neg, body = (True, p[1:]) if p.startswith("!") else (False, p)
        if "/" in body.rstrip("/"):
            body = f"{prefix}/{body.lstrip('/')}"
        else:
            body = f"{prefix}/**/{body}"
        out.append(("!" if neg else "") + body)
    return tuple(out)
