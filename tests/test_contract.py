"""One contract across every surface: the wire types (contract.py) and the settings table
(config.SETTINGS) are defined once, and every surface is held to them here.

- the derived files (docs/schema/*.json, client-vscode/src/contract.ts, package.json's server
  settings) are what schema.py makes of the definitions;
- the command line's `--json` (retrieve and explain), the language server's answers and the MCP
  tools' structured content validate against the checked-in JSON Schemas, and the MCP tools
  publish those schemas;
- each setting's default, bounds and doc are the same in argparse, the language server's
  configuration checks, the MCP tool's input schema and VS Code's contributed settings.

Change a field or a bound in one place, run `python -m iterative_retrieval.schema --write`, and
these pass again; forget a surface, and one of them says which.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval import schema
from iterative_retrieval.cli import build_parser
from iterative_retrieval.config import SETTINGS, Settings
from iterative_retrieval.contract import WIRE_TYPES
from iterative_retrieval.lsp.protocol import parse_config

from .conftest import EXAMPLES
from .test_lsp_server import SERVER, TASK, command, copy_example, start, wait_ready

REPO = Path(__file__).resolve().parents[1]
PACKAGE = json.loads((REPO / "client-vscode" / "package.json").read_text("utf-8"))


def checked_in(name: str) -> dict:
    return json.loads((REPO / "docs" / "schema" / f"{name}.schema.json").read_text("utf-8"))


def conforms(value: object, name: str) -> None:
    """The value is valid by the checked-in schema (as a client in any language would check)."""
    jsonschema.validate(value, checked_in(name), cls=jsonschema.Draft202012Validator)


def test_derived_files_are_up_to_date():
    """The JSON Schemas, contract.ts and package.json's server settings are made from the
    definitions: a change to a field or a setting that was not regenerated fails here."""
    assert schema.stale(REPO) == [], "run: python -m iterative_retrieval.schema --write"


def test_every_checked_in_schema_is_a_valid_schema():
    """Each file is a valid draft 2020-12 schema, and one per wire type."""
    files = {p.name.removesuffix(".schema.json") for p in (REPO / "docs/schema").glob("*.json")}
    assert files == set(WIRE_TYPES)
    for name in files:
        jsonschema.Draft202012Validator.check_schema(checked_in(name))


# -- the command line --------------------------------------------------------------------------


def _cli(*args: str) -> str:
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", *args], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("extra", [
    [],
    ["--tests", "--max-files", "40", "--budget", "300"],
    ["--root", str(EXAMPLES / "rate-limit-api")],  # two roots
])
def test_cli_json_conforms_to_the_result_schema(tmp_path, extra):
    """`retrieve --json` is a valid result, also with tests, a small budget and two roots."""
    out = json.loads(_cli("retrieve", TASK, "--root", str(EXAMPLES / "auth-service"), *extra,
                          "--cache-dir", str(tmp_path), "--json", "-q"))
    conforms(out, "result")
    assert out["files"] and {f["role"] for f in out["files"]} <= {"implements", "related",
                                                                  "indirect"}


def test_cli_explain_json_conforms(tmp_path):
    """`explain --json` is a valid explanation, for a file in the result and one not in it."""
    root = str(EXAMPLES / "auth-service")
    for path, band in (("src/auth/tokens.ts", "high"), ("src/models/product.ts", "irrelevant")):
        out = json.loads(_cli("explain", path, TASK, "--root", root, "--cache-dir",
                              str(tmp_path), "--json", "-q"))
        conforms(out, "explanation")
        assert out["band"] == band


# -- the language server -------------------------------------------------------------------------


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def lsp(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("contract")
    lsp_client.workspace_root = copy_example(tmp, "auth-service")
    await start(lsp_client, tmp, [lsp_client.workspace_root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_language_server_answers_conform(lsp):
    """retrieve, renderContext (every format), explain, status and reindex answer what their
    schemas say."""
    result = await command(lsp, "iterativeRetrieval.retrieve", {"task": TASK})
    conforms(result, "result")
    assert all(f["uri"].startswith("file://") for f in result["files"])
    for fmt in ("markdown", "json", "xml"):
        answer = await command(lsp, "iterativeRetrieval.renderContext",
                               {"result": result, "format": fmt})
        conforms(answer, "render-answer")
        assert answer["format"] == fmt and answer["text"]
    explained = await command(lsp, "iterativeRetrieval.explain",
                              {"path": "src/auth/tokens.ts", "task": TASK})
    conforms(explained, "explanation")
    assert explained["band"] == "high" and explained["rank"] <= 4
    conforms(await command(lsp, "iterativeRetrieval.status"), "status")
    conforms(await command(lsp, "iterativeRetrieval.reindex"), "reindex")


@pytest.mark.asyncio(loop_scope="module")
async def test_language_server_status_shows_every_setting(lsp):
    """status's settings are the table's, by their configuration keys."""
    st = await command(lsp, "iterativeRetrieval.status")
    assert list(st["settings"]) == [s.wire for s in SETTINGS]
    defaults = Settings().to_wire()
    assert {k: v for k, v in st["settings"].items() if k != "cacheDir"} == \
        {k: v for k, v in defaults.items() if k != "cacheDir"}


def test_argument_schemas_name_every_per_request_setting():
    """retrieve's and renderContext's arguments are the per-request settings of the table."""
    for name in ("retrieve-params", "render-params"):
        props = checked_in(name)["properties"]
        for s in SETTINGS:
            assert (s.wire in props) == s.per_request, (name, s.wire)
            if s.per_request:
                assert props[s.wire]["description"] == s.doc


# -- the MCP server ------------------------------------------------------------------------------


def test_mcp_tools_publish_the_contract_schemas():
    """Each tool's outputSchema is the wire type's schema (as checked in)."""
    import anyio
    from mcp import Client

    from iterative_retrieval.mcp_server import Workspace, build_server

    async def tools() -> dict:
        ws = Workspace(str(EXAMPLES / "auth-service"), None)
        try:
            async with Client(build_server(ws)) as c:
                return {t.name: t for t in (await c.list_tools()).tools}
        finally:
            ws.close()

    listed = anyio.run(tools)
    for tool, name in (("retrieve_context", "result"), ("explain_file", "explanation"),
                       ("index_status", "index-status")):
        published = listed[tool].output_schema
        expected = {k: v for k, v in checked_in(name).items() if k not in ("$schema", "$id")}
        assert _without_titles(published) == _without_titles(expected), tool


def _without_titles(schema: object) -> object:
    """The schema without "title" keys (the SDK names its top level after the tool)."""
    if isinstance(schema, dict):
        return {k: _without_titles(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [_without_titles(v) for v in schema]
    return schema


# -- the settings table on every surface -------------------------------------------------------


@pytest.mark.parametrize("s", SETTINGS, ids=lambda s: s.wire)
def test_vscode_contributes_each_server_setting_as_the_table_says(s):
    """package.json's setting has the table's doc, default and bounds (VS Code shows
    includeTests as auto/always/never and an unset cacheDir as "")."""
    prop = PACKAGE["contributes"]["configuration"]["properties"][f"iterativeRetrieval.{s.wire}"]
    assert prop["markdownDescription"] == s.doc
    if s.kind == "int":
        assert (prop["type"], prop["default"], prop["minimum"], prop["maximum"]) == \
            ("integer", s.default, s.low, s.high)
    elif s.kind == "globs":
        assert (prop["type"], prop["default"]) == ("array", list(s.default))
    elif s.kind == "bool":
        assert (prop["type"], prop["default"]) == ("boolean", s.default)
    elif s.kind == "tests":
        assert (prop["enum"], prop["default"], s.default) == (["auto", "always", "never"],
                                                              "auto", None)
    else:
        assert (prop["type"], prop["default"], s.default) == ("string", "", None)


@pytest.mark.parametrize("s", [s for s in SETTINGS if s.kind == "int"], ids=lambda s: s.wire)
def test_bounds_are_the_same_on_the_command_line_the_server_and_the_engine(s, capsys):
    """An int setting's default and bounds: argparse's default, the server's configuration
    check, the engine's Settings check, the request argument's check all take them from the
    table."""
    parser = build_parser()
    args = parser.parse_args(["retrieve", "x"])
    assert getattr(args, s.name) == s.default
    for ok in (s.low, s.high):
        values, report = parse_config({s.wire: ok}, "test")
        assert values == {s.name: ok} and not report.warnings
        Settings(**{s.name: ok}).validated()
    for bad in (s.low - 1, s.high + 1):
        values, report = parse_config({s.wire: bad}, "test")
        assert values == {} and f"must be from {s.low} to {s.high}" in report.warnings[0]
        with pytest.raises(ValueError, match=f"between {s.low} and {s.high}"):
            Settings(**{s.name: bad}).validated()
        with pytest.raises(schema.WireError, match=f"from {s.low} to {s.high}"):
            schema.validate(WIRE_TYPES["retrieve-params"], {"task": "x", s.wire: bad})


# -- the docs' examples ------------------------------------------------------------------------

_KINDS = {  # an example's telling keys → the schema it must conform to (first match)
    ("state", "settings"): "status",
    ("reindexed",): "reindex",
    ("schema_version", "files", "trace"): "result",
}
_PARAMS = {"iterativeRetrieval.retrieve": "retrieve-params",
           "iterativeRetrieval.renderContext": "render-params",
           "iterativeRetrieval.explain": "explain-params"}


def _examples(doc: str):
    import re

    text = (REPO / "docs" / doc).read_text("utf-8")
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        try:
            yield json.loads(block)
        except ValueError:  # several objects in a row (progress notifications)
            continue


@pytest.mark.parametrize("doc", ["lsp.md", "json-schema.md"])
def test_the_docs_examples_conform(doc):
    """Every JSON example of a result, status, reindex answer or command argument in the docs
    is valid by its schema (the docs show what the server sends)."""
    seen = 0
    for example in _examples(doc):
        params = example.get("params", example)
        if isinstance(params, dict) and params.get("command") in _PARAMS:
            conforms(params["arguments"][0], _PARAMS[params["command"]])
            seen += 1
        for keys, name in _KINDS.items():
            if all(k in example for k in keys):
                conforms(example, name)
                seen += 1
                break
    assert seen


def test_the_docs_state_each_settings_bounds_and_default():
    """The configuration tables of docs/lsp.md and the MCP tool's argument table of docs/mcp.md
    give the table's bounds and defaults."""
    lsp = (REPO / "docs" / "lsp.md").read_text("utf-8")
    mcp = (REPO / "docs" / "mcp.md").read_text("utf-8")
    for s in SETTINGS:
        if s.kind == "int":
            assert f"| `{s.wire}` | integer {s.low}–{s.high} | `{s.default}` |" in lsp, s.wire
            assert f"| `{s.name}` | integer {s.low}–{s.high} | " \
                   f"{s.doc} Default {s.default}. |" in mcp, s.name
