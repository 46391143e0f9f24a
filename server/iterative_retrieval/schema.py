"""The wire contract (contract.py) made into JSON Schemas, validation and TypeScript types.

pydantic reads the typed dicts of contract.py and the settings table of config.py: it checks
the language server's command arguments (lsp/protocol.py turns its errors into InvalidParams
messages that name the field), gives the MCP tools their output schemas, and writes the JSON
Schemas under docs/schema/. `python -m iterative_retrieval.schema --write` regenerates every
derived file (the schemas, client-vscode/src/contract.ts and the server settings of
client-vscode/package.json); tests/test_contract.py fails when one of them is stale.

Imported by the servers and the tests only: the command line never needs pydantic.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, get_type_hints

from pydantic import TypeAdapter, ValidationError
from pydantic.json_schema import GenerateJsonSchema

from .config import SETTINGS, describe
from .contract import MAX_HINT_PATHS, SCHEMA_VERSION, WIRE_TYPES
from .render import FENCE_LANGUAGES

SCHEMA_DIR = Path("docs") / "schema"
TS_CONTRACT = Path("client-vscode") / "src" / "contract.ts"
PACKAGE_JSON = Path("client-vscode") / "package.json"
SCHEMA_URL = "https://github.com/iterative-retrieval/iterative-retrieval/schema/{}.schema.json"


class _Schema(GenerateJsonSchema):
    """pydantic's JSON Schema without the titles it makes up for every field ("Maxcycles")."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


@functools.cache
def adapter(typ: Any) -> TypeAdapter[Any]:
    """The validator of one wire type (built once: building costs milliseconds)."""
    return TypeAdapter(typ)


def json_schema(typ: Any, name: str | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a wire type; with a `name`, as a checked-in file."""
    schema = adapter(typ).json_schema(schema_generator=_Schema)
    if name is None:
        return schema
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": SCHEMA_URL.format(name), **schema}


# -- validation with messages that name the field ----------------------------------------------


class WireError(ValueError):
    """A JSON value that is not what the contract says: where it is wrong (None: the value as a
    whole) and why, e.g. 'maxCycles' must be from 1 to 10, got 0."""

    def __init__(self, where: str | None, why: str):
        self.where, self.why = where, why
        super().__init__(why if where is None else f"'{where}' {why}")


_TYPE_WORDS = {
    "string_type": "must be a string", "int_type": "must be an integer",
    "int_from_float": "must be an integer", "float_type": "must be a number",
    "bool_type": "must be true or false", "list_type": "must be an array",
    "tuple_type": "must be an array", "dict_type": "must be an object",
    "typed_dict_type": "must be an object", "none_required": "must be null",
    # lax validation (MCP's argument models) parses strings: "many" is no integer
    "int_parsing": "must be an integer", "float_parsing": "must be a number",
    "bool_parsing": "must be true or false",
}
_REQUIRED_HINTS = {"task": "a non-empty string saying what to do"}


def validate(typ: Any, value: Any) -> Any:
    """The value checked (and normalised: globs become tuples) against a wire type;
    WireError says the first thing wrong."""
    try:
        return adapter(typ).validate_python(value)
    except ValidationError as exc:
        raise _wire_error(typ, exc) from None


def unknown_parameters(unknown: Iterable[str], allowed: Iterable[str]) -> str:
    """What every surface says of parameters a request does not take (a misspelt `maxFile`
    is refused by name, never dropped without a word)."""
    return (f"unknown parameter(s) {', '.join(unknown)} "
            f"(allowed: {', '.join(allowed) or 'none'})")


def _wire_error(typ: Any, exc: ValidationError) -> WireError:
    errors = exc.errors(include_url=False)
    unknown = [str(e["loc"][0]) for e in errors
               if e["type"] == "extra_forbidden" and len(e["loc"]) == 1]
    if unknown:
        return WireError(None, unknown_parameters(unknown, keys(typ)))
    return first_error(exc)


def first_error(exc: ValidationError) -> WireError:
    """The most telling thing wrong with a value, said as every surface says it."""
    errors = exc.errors(include_url=False)
    # the most telling error first: a wrong value before a missing one, the outermost first
    e = min(errors, key=lambda x: (x["type"] == "missing", len(x["loc"])))
    loc, kind, given = e["loc"], e["type"], e.get("input")
    if not loc:
        if kind in ("dict_type", "typed_dict_type"):
            return WireError(None, f"takes one object argument, got {describe(given)}")
        return WireError(None, e["msg"])
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    if kind == "missing":
        if len(loc) > 1:
            return WireError(where, "must be given")
        hint = _REQUIRED_HINTS.get(str(loc[0]))
        return WireError(where, f"is required: {hint}" if hint else "is required")
    if kind == "value_error":
        return WireError(where, str(e["ctx"]["error"]))
    if kind == "literal_error":
        expected = e["ctx"]["expected"].replace("'", '"')
        return WireError(where, f"must be {expected}, got {describe(given)}")
    words = _TYPE_WORDS.get(kind)
    if words:
        return WireError(where, f"{words}, got {describe(given)}")
    return WireError(where, e["msg"][:1].lower() + e["msg"][1:])


def keys(typ: Any) -> list[str]:
    """A typed dict's keys, required ones first (as messages list what is allowed)."""
    required: frozenset[str] = getattr(typ, "__required_keys__", frozenset())
    names = list(get_type_hints(typ))
    return [n for n in names if n in required] + [n for n in names if n not in required]


# -- TypeScript --------------------------------------------------------------------------------


def typescript() -> str:
    """client-vscode/src/contract.ts: an interface per wire type, and the settings' defaults
    and bounds, from the JSON Schemas (so the client reads what the server writes)."""
    defs: dict[str, Any] = {}
    roots: dict[str, str] = {}
    for name, typ in WIRE_TYPES.items():
        schema = json_schema(typ)
        defs.update(schema.pop("$defs", {}))
        title = typ.__name__
        defs[title] = schema
        roots[name] = title
    out = [
        "/**",
        " * The wire contract, generated from server/iterative_retrieval/contract.py and the",
        " * settings table of config.py by `python -m iterative_retrieval.schema --write`.",
        " * Do not edit: tests/test_contract.py fails when this file is stale.",
        " */",
        "",
        "/* eslint-disable */",
        "",
        f"export const SCHEMA_VERSION = {json.dumps(SCHEMA_VERSION)};",
        "",
        "/** The most paths (or terms) one hint list of `retrieve` may hold. */",
        f"export const MAX_HINT_PATHS = {MAX_HINT_PATHS};",
        "",
    ]
    for title in sorted(defs):
        out.extend(_ts_interface(title, defs[title]))
        out.append("")
    out.append("/** Each setting the server reads: its default and bounds (config.SETTINGS). */")
    out.append("export const SERVER_SETTINGS = {")
    for s in SETTINGS:
        fields = {"default": list(s.default) if isinstance(s.default, tuple) else s.default}
        if s.kind == "int":
            fields.update(minimum=s.low, maximum=s.high)
        body = ", ".join(f"{k}: {json.dumps(v)}" for k, v in fields.items())
        out.append(f"  {s.wire}: {{ {body} }},")
    out.append("} as const;")
    out.append("")
    out.append("/** The code fence's language by file extension (render.py FENCE_LANGUAGES). */")
    out.append("export const FENCE_LANGUAGES: Record<string, string> = {")
    out.extend(f"  {json.dumps(ext)}: {json.dumps(lang)}," for ext, lang in
               sorted(FENCE_LANGUAGES.items()))
    out.append("};")
    out.append("")
    return "\n".join(out)


def _ts_interface(title: str, schema: dict[str, Any]) -> list[str]:
    lines = _ts_doc(schema.get("description"), "")
    if schema.get("type") != "object" or "properties" not in schema:
        lines.append(f"export type {title} = {_ts_type(schema)};")
        return lines
    lines.append(f"export interface {title} {{")
    required = set(schema.get("required", ()))
    for key, prop in schema["properties"].items():
        lines.extend(_ts_doc(prop.get("description"), "  "))
        optional = "" if key in required else "?"
        lines.append(f"  {key}{optional}: {_ts_type(prop)};")
    lines.append("}")
    return lines


def _ts_doc(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    text = " ".join(text.split()).replace("*/", "*\\/")
    return [f"{indent}/** {text} */"]


def _ts_type(schema: dict[str, Any]) -> str:  # noqa: C901 - one case per JSON Schema keyword
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(dict.fromkeys(_ts_type(s) for s in schema["anyOf"]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_ts_type({**schema, "type": k}) for k in kind)
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "null":
        return "null"
    if kind == "array":
        item = _ts_type(schema.get("items", {}))
        return f"({item})[]" if " " in item else f"{item}[]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return f"Record<string, {_ts_type(extra)}>"
        return "Record<string, unknown>"
    return "unknown"


# -- package.json ------------------------------------------------------------------------------


def package_settings(package: dict[str, Any]) -> dict[str, Any]:
    """package.json with the server settings' contributed properties made from the table:
    type, default, bounds and description (the client-only settings are left as they are).
    VS Code shows `includeTests` as auto/always/never and `cacheDir` as a string (empty: the
    default); the client turns them into the server's values (serverConfig.ts)."""
    props = package["contributes"]["configuration"]["properties"]
    for s in SETTINGS:
        key = f"iterativeRetrieval.{s.wire}"
        old = props.get(key, {})
        new: dict[str, Any] = {}
        if s.kind == "int":
            new = {"type": "integer", "default": s.default, "minimum": s.low, "maximum": s.high}
        elif s.kind == "globs":
            new = {"type": "array", "items": {"type": "string"}, "default": list(s.default)}
        elif s.kind == "bool":
            new = {"type": "boolean", "default": s.default}
        elif s.kind == "tests":
            new = {"type": "string", "enum": ["auto", "always", "never"],
                   "enumDescriptions": old.get("enumDescriptions"), "default": "auto"}
        else:
            new = {"type": "string", "default": ""}
        new["markdownDescription"] = s.doc
        if s.folder:
            new["scope"] = "resource"  # the server asks each workspace folder for its value
        for extra in ("scope", "order"):
            if extra in old and extra not in new:
                new[extra] = old[extra]
        props[key] = {k: v for k, v in new.items() if v is not None}
    return package


# -- the command -------------------------------------------------------------------------------


def derived_files(repo: Path) -> dict[Path, str]:
    """Every file made from the contract, by path: what it must hold."""
    out: dict[Path, str] = {}
    for name, typ in WIRE_TYPES.items():
        text = json.dumps(json_schema(typ, name), indent=2, ensure_ascii=False) + "\n"
        out[repo / SCHEMA_DIR / f"{name}.schema.json"] = text
    out[repo / TS_CONTRACT] = typescript()
    package = json.loads((repo / PACKAGE_JSON).read_text("utf-8"))
    out[repo / PACKAGE_JSON] = json.dumps(package_settings(package), indent=2,
                                          ensure_ascii=False) + "\n"
    return out


def stale(repo: Path) -> list[Path]:
    """Derived files that differ from what the contract makes of them."""
    return [p for p, text in derived_files(repo).items()
            if not p.exists() or p.read_text("utf-8") != text]


def main(argv: Iterable[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m iterative_retrieval.schema",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the derived files")
    ap.add_argument("--repo", default=".", help="the repository's top folder")
    args = ap.parse_args(list(argv) if argv is not None else None)
    repo = Path(args.repo)
    if args.write:
        for path, text in derived_files(repo).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text("utf-8") != text:
                path.write_text(text, "utf-8")
                print(f"wrote {path}")
        return 0
    bad = stale(repo)
    for path in bad:
        print(f"stale: {path} (run python -m iterative_retrieval.schema --write)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
