"""The MCP server end to end: the SDK's own client starts `iterative-retrieval mcp` over stdio.

One server process serves the module (starting one costs seconds: the SDK's import time); it runs
in a blocking portal so the tests themselves stay plain functions. The roots behaviour is tested
in-process, over both the handshake-era and the 2026-07-28 protocol paths.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import warnings
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp_types import ListRootsResult, Root

from iterative_retrieval.config import SETTINGS
from iterative_retrieval.contract import FORMATS
from iterative_retrieval.mcp_server import Workspace, build_server, run

from .conftest import EXAMPLES
from .test_changes import WORK, stacked_repo

TASK = "Fix the authentication token expiry bug"
AUTH_FILES = {"src/auth/auth.ts", "src/auth/tokens.ts", "src/auth/session-manager.ts",
              "src/auth/jwt-utils.ts"}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A copy of the auth-service example, plus a symlink that leads out of it."""
    root = tmp_path_factory.mktemp("ws") / "auth-service"
    shutil.copytree(EXAMPLES / "auth-service", root)
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.ts").write_text("export const token = 'outside';\n")
    with contextlib.suppress(OSError):  # no symlinks on this platform
        (root / "escape").symlink_to(outside, target_is_directory=True)
    return root.resolve()


@pytest.fixture(scope="module")
def mcp(workspace, tmp_path_factory):
    """call(tool, args) and list_tools() on one stdio server for the whole module."""
    cache = tmp_path_factory.mktemp("mcp-cache")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "iterative_retrieval", "mcp", "--root", str(workspace),
              "--cache-dir", str(cache)],
    )
    with start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(params, read_timeout_seconds=60)) as client:
        yield _Session(portal, client)


class _Session:
    def __init__(self, portal, client: Client):
        self.portal = portal
        self.client = client

    def call(self, name: str, args: dict | None = None, **kw):
        return self.portal.call(lambda: self.client.call_tool(name, args or {}, **kw))

    def list_tools(self):
        return self.portal.call(self.client.list_tools)


def _error(result) -> str:
    assert result.is_error, result
    return result.content[0].text


# -- listing ---------------------------------------------------------------------------------


def test_lists_three_tools_with_their_schemas(mcp):
    """The tools, their arguments (the roots resolver is not one), when-to-call descriptions."""
    tools = {t.name: t for t in mcp.list_tools().tools}
    assert set(tools) == {"retrieve_context", "explain_file", "index_status"}

    rc = tools["retrieve_context"].input_schema
    per_request = {s.name: s for s in SETTINGS if s.per_request}
    assert set(rc["properties"]) == {"task", "format", "pinned", "excluded", "seen",
                                     *per_request}
    assert rc["properties"]["pinned"]["anyOf"][0]["maxItems"] == 200
    assert "always handed out" in rc["properties"]["pinned"]["description"]
    assert rc["required"] == ["task"]
    for name, s in per_request.items():  # the settings table's bounds and docs
        assert rc["properties"][name]["description"] == s.doc
        if s.kind == "int":
            assert (rc["properties"][name]["minimum"], rc["properties"][name]["maximum"]) == \
                (s.low, s.high)
    assert rc["properties"]["format"]["enum"] == list(FORMATS)
    assert set(tools["explain_file"].input_schema["properties"]) == {"path", "task"}
    assert set(tools["explain_file"].input_schema["required"]) == {"path", "task"}
    assert tools["index_status"].input_schema.get("properties", {}) == {}

    assert "BEFORE starting work" in tools["retrieve_context"].description
    assert "unfamiliar codebase" in tools["retrieve_context"].description
    assert "check a particular file" in tools["explain_file"].description
    for t in tools.values():
        assert t.output_schema and t.output_schema["type"] == "object"
        assert t.annotations.read_only_hint is True


# -- retrieve_context ------------------------------------------------------------------------


def test_retrieve_context_markdown_and_json(mcp):
    """Markdown as text, the JSON result as structured content; the four auth files lead."""
    r = mcp.call("retrieve_context", {"task": TASK})
    assert not r.is_error, r.content
    md = r.content[0].text
    assert md.startswith("## Context for: Fix the authentication token expiry bug")
    assert "`src/auth/tokens.ts`" in md

    data = r.structured_content
    assert data["schema_version"] == "1.5" and data["warnings"] == []
    assert data["task"] == TASK
    paths = [f["path"] for f in data["files"]]
    assert set(paths) >= AUTH_FILES
    assert set(paths[:4]) == AUTH_FILES
    top = data["files"][0]
    assert top["band"] == "high" and top["reason"] and top["regions"]
    assert data["stats"]["files_indexed"] > 0
    assert data["trace"] and data["trace"][0]["cycle"] == 1


def test_the_same_ranking_and_bands_as_the_command_line(mcp, workspace, tmp_path):
    """retrieve_context answers as the CLI does: the same files, relevance, bands and roles."""
    import json
    import subprocess

    data = mcp.call("retrieve_context", {"task": TASK}).structured_content
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", TASK, "--root",
                        str(workspace), "--json", "-q", "--cache-dir", str(tmp_path / "c")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    cli = json.loads(p.stdout)["files"]
    key = ("path", "relevance", "band", "role")
    assert [tuple(f[k] for k in key) for f in data["files"]] == \
        [tuple(f[k] for k in key) for f in cli]


def test_retrieve_context_options_reach_the_engine(mcp):
    """max_cycles, budget, include and exclude are applied."""
    r = mcp.call("retrieve_context", {"task": TASK, "max_cycles": 1, "budget": 500,
                                      "exclude": ["src/auth/jwt-utils.ts"]})
    assert not r.is_error, r.content
    data = r.structured_content
    assert len(data["trace"]) == 1
    assert data["stats"]["budget"] == 500
    assert "src/auth/jwt-utils.ts" not in [f["path"] for f in data["files"]]

    r = mcp.call("retrieve_context", {"task": TASK, "include": ["src/auth/**"]})
    paths = [f["path"] for f in r.structured_content["files"]]
    assert paths and all(p.startswith("src/auth/") for p in paths)


def test_retrieve_context_reports_progress(mcp):
    """A client that asks for progress gets increasing notifications ending at the total."""
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress, total, message):
        seen.append((progress, total, message))

    r = mcp.call("retrieve_context", {"task": TASK}, progress_callback=on_progress)
    assert not r.is_error
    assert seen, "no progress notification"
    values = [p for p, _, _ in seen]
    assert values == sorted(set(values))
    assert seen[-1][0] == seen[-1][1]


@pytest.mark.parametrize(
    "args, message",
    [
        ({"task": ""}, "the task is empty"),
        ({"task": "  \n\t "}, "the task is empty"),
        ({"task": "token expiry " * 20_000}, "the task is too long (260000 characters; at most 200000)"),
        ({"task": TASK, "max_cycles": 0}, "max_cycles must be between 1 and 10"),
        ({"task": TASK, "max_cycles": 11}, "max_cycles must be between 1 and 10"),
        ({"task": TASK, "budget": 10}, "budget must be between 200 and 1000000"),
        ({"task": TASK, "include": [" "]}, "include: empty glob pattern"),
        ({"task": TASK, "max_cycles": "many"},
         "retrieve_context: 'max_cycles' must be an integer, got 'many'"),
        ({"task": TASK, "include": "src/**"}, "'include' must be an array, got 'src/**'"),
        ({}, "task"),
        # an argument the tool does not take is refused by name (the SDK dropped it unsaid)
        ({"task": TASK, "maxFiles": 3}, "retrieve_context: unknown parameter(s) maxFiles "
                                        "(allowed: task, max_cycles, budget, max_files,"),
        ({"task": TASK, "root": "/elsewhere", "path": "x"}, "unknown parameter(s) root, path"),
    ],
)
def test_retrieve_context_bad_arguments_are_tool_errors(mcp, args, message):
    """Bad arguments come back as isError results whose text says what is wrong."""
    assert message in _error(mcp.call("retrieve_context", args))


def test_pinned_excluded_and_seen_reach_the_engine(mcp, workspace):
    """A pin is always handed out, marked; excluded and seen files are not (seen: the agent
    read them already, so it gets what is new)."""
    pins = ["src/utils/date.ts", str(workspace / "src/db/pool.ts")]
    r = mcp.call("retrieve_context", {"task": TASK, "max_files": 3, "pinned": pins,
                                      "excluded": ["src/auth/auth.ts"],
                                      "seen": [(workspace / "src/auth/tokens.ts").as_uri()]})
    assert not r.is_error, r.content
    files = {f["path"]: f for f in r.structured_content["files"]}
    assert {p for p, f in files.items() if f["pinned"]} == {"src/utils/date.ts", "src/db/pool.ts"}
    assert "src/auth/auth.ts" not in files and "src/auth/tokens.ts" not in files
    assert "`src/utils/date.ts`" in r.content[0].text and len(r.content) == 1


def test_paths_outside_the_root_are_ignored_with_a_note(mcp, workspace):
    """A pin outside the root (absolute, escaping with .., or through a symlink) is never read:
    the answer comes, without it, and a note after the context says so."""
    outside = workspace.parent.parent / "secret.ts"
    pins = [str(outside), "../secret.ts", "escape/secret.ts", "src/nope.ts"]
    r = mcp.call("retrieve_context", {"task": TASK, "pinned": pins})
    assert not r.is_error, r.content
    assert not any(f["pinned"] or "secret" in f["path"] for f in r.structured_content["files"])
    assert "'outside'" not in str(r.structured_content)
    note = r.content[-1].text
    assert note.startswith("Note: ")
    for pin in pins:
        assert f"'pinned' {pin} " in note, note


@pytest.mark.parametrize(("args", "message"), [
    ({"pinned": "src/auth/auth.ts"}, "must be an array"),
    ({"seen": [1]}, "item 0 must be a non-empty path"),
    ({"excluded": ["x"] * 201}, "at most 200 items"),
])
def test_bad_file_lists_are_tool_errors(mcp, args, message):
    """A malformed list is an error naming what is wrong, as the language server's."""
    assert message in _error(mcp.call("retrieve_context", {"task": TASK, **args}))


# -- explain_file ----------------------------------------------------------------------------


def test_explain_file_for_a_central_file(mcp):
    """tokens.ts for the expiry bug: high, with its rank and a reason."""
    r = mcp.call("explain_file", {"path": "src/auth/tokens.ts", "task": TASK})
    assert not r.is_error, r.content
    e = r.structured_content
    assert e["path"] == "src/auth/tokens.ts"
    assert e["band"] == "high" and e["relevance"] >= 0.8
    assert 1 <= e["rank"] <= 4 and e["of"] >= 4
    assert e["reason"] and e["regions"]
    assert "src/auth/tokens.ts" in r.content[0].text and "high" in r.content[0].text


def test_explain_file_accepts_an_absolute_path_inside_the_root(mcp, workspace):
    r = mcp.call("explain_file", {"path": str(workspace / "src/auth/jwt-utils.ts"), "task": TASK})
    assert not r.is_error, r.content
    assert r.structured_content["path"] == "src/auth/jwt-utils.ts"
    assert r.structured_content["band"] in ("high", "medium")


def test_explain_file_not_among_the_candidates(mcp):
    """A file the task does not need: irrelevant, below 0.2, with the reason."""
    r = mcp.call("explain_file", {"path": "src/models/product.ts", "task": TASK})
    assert not r.is_error, r.content
    e = r.structured_content
    assert e["band"] == "irrelevant" and e["relevance"] < 0.2 and e["rank"] is None
    assert "not among the candidates for this task" in e["reason"]


def test_explain_file_set_aside_by_the_loop(mcp):
    """A file a cycle evaluated and excluded says so."""
    trace = mcp.call("retrieve_context", {"task": TASK}).structured_content["trace"]
    excluded = [p for t in trace for p in t["excluded"]]
    if not excluded:
        pytest.skip("the loop excluded nothing for this task")
    e = mcp.call("explain_file", {"path": excluded[0], "task": TASK}).structured_content
    assert e["band"] == "irrelevant" and "below 0.2" in e["reason"]


@pytest.mark.parametrize(
    "path, message",
    [
        ("../x", "outside the workspace root"),
        ("../../../../../../etc/passwd", "outside the workspace root"),
        ("/etc/passwd", "outside the workspace root"),
        ("src/../../x.ts", "outside the workspace root"),
        ("escape/secret.ts", "outside the workspace root"),
        ("src/auth/nope.ts", "no such file in the workspace: src/auth/nope.ts"),
        ("src/auth", "is a folder"),
        ("", "path is empty"),
    ],
)
def test_explain_file_refuses_paths_outside_or_missing(mcp, workspace, path, message):
    """Paths that escape the root (.., absolute elsewhere, a symlink out) or do not exist."""
    if path.startswith("escape/") and not (workspace / "escape").is_symlink():
        pytest.skip("no symlinks here")
    assert message in _error(mcp.call("explain_file", {"path": path, "task": TASK}))


def test_explain_file_empty_task(mcp):
    assert "the task is empty" in _error(
        mcp.call("explain_file", {"path": "src/auth/tokens.ts", "task": " "}))


def test_every_tool_refuses_an_argument_it_does_not_take(mcp):
    """explain_file and index_status too, naming what they take; the call without it works."""
    assert ("explain_file: unknown parameter(s) file (allowed: path, task)" in _error(
        mcp.call("explain_file", {"file": "src/auth/tokens.ts", "task": TASK})))
    assert "index_status: unknown parameter(s) verbose (allowed: none)" in _error(
        mcp.call("index_status", {"verbose": True}))
    assert not mcp.call("index_status").is_error


# -- index_status ----------------------------------------------------------------------------


def test_index_status_counts_files(mcp, workspace):
    r = mcp.call("index_status")
    assert not r.is_error, r.content
    s = r.structured_content
    assert s["root_source"] == "--root"
    (root,) = s["roots"]
    assert root["root"] == str(workspace)
    n = sum(1 for p in workspace.rglob("*") if p.is_file() and "escape" not in p.parts)
    assert 0 < root["files"] <= n
    assert isinstance(root["skipped"], dict)
    assert Path(root["index"]).exists()
    assert f"{root['files']} files indexed" in r.content[0].text


# -- the root: --root, the client's roots, the current folder --------------------------------


def test_bad_root_is_a_clear_error_before_serving(tmp_path, capsys):
    """`mcp --root` that does not exist: exit status 2 and one line on stderr, nothing served."""
    assert run(str(tmp_path / "nope"), None) == 2
    out = capsys.readouterr()
    assert out.out == "" and "root does not exist" in out.err
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert run(str(f), None) == 2
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_without_root_the_clients_first_file_root_is_used(workspace, tmp_path, mode):
    """No --root: the first file:// root the client lists (2026-07-28 and handshake paths)."""
    project = tmp_path / "my project"  # a space: the URI carries %20
    shutil.copytree(workspace / "src", project / "src")
    project = project.resolve()
    asked = []

    async def list_roots(_ctx):
        asked.append(1)
        return ListRootsResult(roots=[
            Root(uri=(tmp_path / "gone").as_uri()),  # not a folder (any more): skipped
            Root(uri=project.as_uri(), name="my project"),
        ])

    ws = Workspace(None, str(tmp_path / "cache"), cwd=str(tmp_path))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            async with Client(build_server(ws), mode=mode, list_roots_callback=list_roots) as c:
                s = (await c.call_tool("index_status", {})).structured_content
                assert s["root_source"] == "client roots"
                assert s["roots"][0]["root"] == str(project)
                r = await c.call_tool("explain_file", {"path": "src/auth/tokens.ts", "task": TASK})
                assert r.structured_content["band"] == "high"
        assert asked == [1], "the roots are asked once, then kept"
    finally:
        ws.close()


async def test_without_root_or_roots_the_current_folder_is_used(workspace, tmp_path):
    ws = Workspace(None, str(tmp_path / "cache"), cwd=str(workspace))
    try:
        async with Client(build_server(ws)) as c:
            s = (await c.call_tool("index_status", {})).structured_content
            assert s["root_source"] == "current folder"
            assert s["roots"][0]["root"] == str(workspace)
    finally:
        ws.close()


async def test_home_folder_is_not_a_default_root(tmp_path):
    """Started from the home folder without --root: a tool error that says to pass --root."""
    ws = Workspace(None, str(tmp_path / "cache"), cwd=os.path.expanduser("~"))
    try:
        async with Client(build_server(ws)) as c:
            r = await c.call_tool("retrieve_context", {"task": TASK})
            assert r.is_error and "--root" in r.content[0].text
    finally:
        ws.close()


async def test_a_git_base_per_call(tmp_path):
    """`git_base` measures the branch from the base the agent names (the pull request's):
    a branch stacked on another is its own changes; a base that is no commit, or one git
    would read as an option, is a tool error saying so."""
    root = stacked_repo(tmp_path / "shop").resolve()
    ws = Workspace(str(root), str(tmp_path / "cache"), cwd=str(tmp_path))

    def on_branch(result) -> set[str]:
        return {f["path"] for f in result.structured_content["files"]
                if "changed on this branch" in f["reason"]}

    try:
        async with Client(build_server(ws)) as c:
            task = {"task": WORK, "format": "json"}
            assert on_branch(await c.call_tool("retrieve_context", task)) \
                == {"shop/cart.py", "shop/shipping.py"}
            assert on_branch(await c.call_tool(
                "retrieve_context", {**task, "git_base": "cart-discount"})) == {"shop/shipping.py"}
            missing = await c.call_tool("retrieve_context", {**task, "git_base": "release/9"})
            assert "git base 'release/9' is no branch, tag or commit in" in _error(missing)
            option = await c.call_tool("retrieve_context", {**task, "git_base": "--output=x"})
            assert "git_base must be a git branch, tag or commit name" in _error(option)
        assert not (root / "x").exists()
    finally:
        ws.close()


async def test_the_git_settings_of_the_server_for_every_call(tmp_path, capsys):
    """`mcp --git-base REF` measures every call's branch from REF (a call's `git_base` still
    wins); `--no-git-signals` reads no git; a base git would read as an option stops the server
    before it serves, with exit status 2."""
    root = stacked_repo(tmp_path / "shop").resolve()

    def on_branch(result) -> set[str]:
        return {f["path"] for f in result.structured_content["files"]
                if "changed on this branch" in f["reason"]}

    task = {"task": WORK, "format": "json"}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "iterative_retrieval", "mcp", "--root", str(root),
              "--cache-dir", str(tmp_path / "c1"), "--git-base", "cart-discount"])
    async with Client(params, read_timeout_seconds=60) as c:
        assert on_branch(await c.call_tool("retrieve_context", task)) == {"shop/shipping.py"}
        assert on_branch(await c.call_tool("retrieve_context", {**task, "git_base": "main"})) \
            == {"shop/cart.py", "shop/shipping.py"}
    ws = Workspace(str(root), str(tmp_path / "c2"), cwd=str(tmp_path), git_signals=False)
    try:
        async with Client(build_server(ws)) as c:
            result = await c.call_tool(
                "retrieve_context", {"task": "continue the shipping zones", "format": "json"})
            files = result.structured_content["files"]
            assert files[0]["path"] == "shop/shipping.py", "a ranking from the task's words"
            assert on_branch(result) == set()
            assert not any("branch" in f["reason"] for f in files)
    finally:
        ws.close()
    assert run(str(root), None, git_base="--output=x") == 2
    out = capsys.readouterr()
    assert out.out == "" and "git_base must be a git branch, tag or commit name" in out.err
    assert not (root / "x").exists()
