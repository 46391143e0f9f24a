"""Fuzzing: whatever a user types, a client sends or a file holds, the answer is a result or a
clear error — never a crash, never a hang, and the server keeps serving.

Property-based (hypothesis) over three inputs: the task text (any Unicode, lone surrogates,
control characters, pasted binary, huge), the LSP command parameters (every field of the wrong
type, missing, huge, nested; sent to the real server over stdio), and file contents (invalid
UTF-8, NUL bytes, megabyte lines, deep nesting). Example counts: `examples(ci, long)`;
`IR_LONG=1` runs the long ones. Run with `--hypothesis-show-statistics` to see the counts.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.index import parse_bytes
from iterative_retrieval.query import parse_task
from iterative_retrieval.workspace import check_root

from .conftest import EXAMPLES, examples, no_hang, write_files
from .test_lsp_server import SERVER, command, copy_example, start, wait_ready

NO_HANG = 60  # seconds: a hang guard many times the expected time, not a speed check

# -- task text ---------------------------------------------------------------------------------

ANY_CHAR = st.characters(codec=None, exclude_categories=())  # surrogates and controls too
pasted_binary = st.binary(max_size=3000).map(lambda b: b.decode("utf-8", "surrogateescape"))
latin1 = st.binary(max_size=3000).map(lambda b: b.decode("latin-1"))
repeated = st.tuples(st.text(ANY_CHAR, min_size=1, max_size=40), st.integers(1, 5000)).map(
    lambda t: t[0] * t[1])
stack_traces = st.lists(st.sampled_from([
    'File "src/app.py", line 12, in main', "at refresh (src/auth/tokens.ts:10:5)",
    "src/db/pool.ts:123", "`refreshToken`", "```", "Traceback (most recent call last):",
    '"quoted message"', "node_modules/x/index.js:1:1", "\x00", "\u202e", "((((", "::", "C:\\x\\y.py",
]), max_size=200).map("\n".join)
TASKS = st.one_of(st.text(ANY_CHAR, max_size=3000), pasted_binary, latin1, repeated, stack_traces)


@settings(max_examples=examples(300, 20000), deadline=None)
@given(text=TASKS, include_tests=st.sampled_from([None, True, False]))
def test_task_parser_takes_anything(text, include_tests):
    """The task parser returns a query for any text, within a hang guard, with capped lists."""
    with no_hang(NO_HANG, "parse_task"):
        q = parse_task(text, include_tests)
    assert len(q.keywords) <= 120
    assert all(isinstance(c.text, str) and c.weight > 0 for c in q.keywords)


@pytest.fixture(scope="module")
def auth_engine(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz") / "auth-service"
    shutil.copytree(EXAMPLES / "auth-service", root)
    engine = Engine([root], Settings(cache_dir=str(tmp_path_factory.mktemp("c"))))
    engine.refresh()
    yield engine
    engine.close()


@settings(max_examples=examples(25, 1500), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=TASKS)
def test_the_whole_loop_takes_any_task(auth_engine, text):
    """A full retrieve over a real workspace: a result for any text, or the one clear error
    for a task with nothing in it."""
    try:
        with no_hang(NO_HANG, "retrieve"):
            result = auth_engine.retrieve(text, refresh=False)
    except ValueError as exc:
        assert not text.strip() and "task is empty" in str(exc)
        return
    assert result.task == text.strip()
    for f in result.files:
        assert 0 <= f.relevance <= 1 and f.regions is not None


def test_the_command_line_takes_pasted_binary(tmp_path):
    """Binary pasted on stdin (random bytes, NULs, a lone surrogate's bytes): an answer (exit 0)
    or a one-line error (exit 2), no traceback."""
    stdin = (os.urandom(20000) + b"\x00" * 5000 + b"fix token expiry "
             + "\ud800 token".encode("utf-8", "surrogatepass"))
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", "-", "--json",
                        "--root", str(EXAMPLES / "auth-service"), "--cache-dir",
                        str(tmp_path / "c")], input=stdin, capture_output=True, timeout=120)
    assert p.returncode in (0, 2), p.stderr
    assert b"Traceback" not in p.stderr
    if p.returncode == 0:
        assert json.loads(p.stdout)["schema_version"]


# -- LSP command parameters --------------------------------------------------------------------

ON_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")

COMMANDS = ["iterativeRetrieval.retrieve", "iterativeRetrieval.renderContext",
            "iterativeRetrieval.status", "iterativeRetrieval.reindex"]
KEYS = ["task", "maxCycles", "budget", "maxFiles", "include", "exclude", "includeTests", "root",
        "format", "result", "files", "regions", "path", "relevance", "start_line", "end_line",
        "text", "missing", "stats", "roots"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(ANY_CHAR, max_size=60),
    st.sampled_from(["", " ", "fix the token expiry", "*", "**/*", "../..", "/", "/etc",
                     "file:///", "markdown", "src/**"]),
    st.integers(min_value=1, max_value=300_000).map(lambda n: "x" * n),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), inner,
                                            max_size=6)),
    max_leaves=30,
)
# Objects shaped like the real arguments, with some fields wrong.
argument_objects = st.fixed_dictionaries({}, optional={k: json_values for k in KEYS[:10]})
result_objects = st.fixed_dictionaries({"result": st.fixed_dictionaries(
    {"task": json_values | st.text(max_size=30), "files": st.lists(st.fixed_dictionaries(
        {}, optional={k: json_values for k in KEYS[10:]}), max_size=3) | json_values},
    optional={"roots": json_values, "stats": json_values})})
ARGUMENTS = st.one_of(
    st.lists(json_values, max_size=3),
    st.lists(argument_objects, min_size=1, max_size=1),
    st.lists(result_objects, min_size=1, max_size=1),
    st.lists(argument_objects.map(lambda d: {**d, "task": "fix the token expiry"}),
             min_size=1, max_size=1),
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def server(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz-lsp")
    lsp_client.workspace_root = copy_example(tmp, "auth-service")
    await start(lsp_client, tmp, [lsp_client.workspace_root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@ON_MODULE_LOOP
async def test_malformed_command_parameters(server: LanguageClient):
    """Every command, with arguments of every wrong shape: a result or InvalidParams with a
    message that names the command — never an internal error — and the server keeps serving."""
    loop = asyncio.get_running_loop()
    seen = {"results": 0, "invalid": 0}

    @settings(max_examples=examples(150, 5000), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(name=st.sampled_from(COMMANDS), arguments=ARGUMENTS)
    def check(name: str, arguments: list) -> None:
        try:
            out = asyncio.run_coroutine_threadsafe(
                command(server, name, *arguments), loop).result(120)
        except JsonRpcInvalidParams as exc:
            assert name in str(exc) and len(str(exc)) < 2000, str(exc)
            seen["invalid"] += 1
            return
        except JsonRpcException as exc:  # anything else is a defect
            raise AssertionError(f"{name}{arguments!r:.300}: {type(exc).__name__} {exc}") from exc
        assert isinstance(out, dict)
        seen["results"] += 1

    await asyncio.to_thread(check)
    assert seen["invalid"] and seen["results"]
    print(f"command parameters: {seen}")
    result = await command(server, "iterativeRetrieval.retrieve", {"task": "Fix the token expiry"})
    assert result["files"]


def _frame(obj_text: str) -> bytes:
    body = obj_text.encode("utf-8")
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def test_malformed_messages_on_the_wire(tmp_path):
    """Invalid JSON, 100 000 nested arrays, a 20 MB string, executeCommand requests of the wrong
    shape (command not a string, arguments not an array, unknown command): each malformed
    request gets an error answer, and the server answers the next well-formed one."""
    root = tmp_path / "ws"
    write_files(root, {"a.py": "def token_expiry():\n    return 1\n"})
    proc = subprocess.Popen([sys.executable, "-m", "iterative_retrieval", "serve"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=os.environ)
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": root.as_uri(), "capabilities": {},
        "initializationOptions": {"cacheDir": str(tmp_path / "c")}}})
    junk = [
        b"Content-Length: 10\r\n\r\n{not json}",
        _frame("[" * 100_000 + "]" * 100_000),
        _frame(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                           "params": {"command": "iterativeRetrieval.retrieve",
                                      "arguments": [{"task": "y" * 20_000_000}]}})),
        _frame('{"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand", "params": '
               + "{" * 5000 + "}" * 5000 + "}"),
        _frame('{"jsonrpc": "2.0", "id": "\\ud800", "method": 7}'),
    ]
    # The executeCommand request itself malformed: each must get an error answer.
    bad_params = [
        {"command": 42, "arguments": []},
        {"command": "iterativeRetrieval.retrieve", "arguments": {"task": "x"}},
        {"command": "iterativeRetrieval.retrieve", "arguments": "fix it"},
        {"command": "iterativeRetrieval.nope", "arguments": []},
        {"arguments": [{"task": "x"}]},
        {"command": None},
        [1, 2, 3],
        "iterativeRetrieval.status",
    ]
    junk += [_frame(json.dumps({"jsonrpc": "2.0", "id": 10 + i, "method": "workspace/executeCommand",
                                "params": p})) for i, p in enumerate(bad_params)]
    status = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "workspace/executeCommand",
                         "params": {"command": "iterativeRetrieval.status", "arguments": []}})
    errors: set[int] = set()
    try:
        proc.stdin.write(_frame(init) + _frame('{"jsonrpc":"2.0","method":"initialized","params":{}}'))
        for j in junk:
            proc.stdin.write(j)
        proc.stdin.write(_frame(status))
        proc.stdin.flush()
        with no_hang(120, "the server's answer after malformed messages"):
            while True:
                header = proc.stdout.readline()
                assert header, "the server closed its output"
                if not header.lower().startswith(b"content-length"):
                    continue
                n = int(header.split(b":")[1])
                while proc.stdout.readline().strip():
                    pass  # other headers, up to the blank line
                msg = json.loads(proc.stdout.read(n))
                if isinstance(msg.get("id"), int) and 10 <= msg["id"] < 10 + len(bad_params):
                    assert "error" in msg and msg["error"]["message"], msg
                    errors.add(msg["id"])
                if msg.get("id") == 99:
                    assert msg["result"]["state"] in ("indexing", "ready")
                    break
        assert proc.poll() is None
        assert errors == set(range(10, 10 + len(bad_params)))
    finally:
        proc.kill()
        proc.wait()


# -- file contents -----------------------------------------------------------------------------

NESTED = {
    "deep.py": b"x = " + b"(" * 50_000 + b"1" + b")" * 50_000 + b"\n",
    "deep.ts": b"function f() " + b"{" * 50_000 + b"}" * 50_000 + b"\n",
    "unbalanced.ts": b"class A {\n" + b"  if (x) {\n" * 20_000,
    "deep_use.rs": b"use a::" + b"{b::" * 5_000 + b"c" + b"}" * 5_000 + b";\n",
    "indent.py": b"".join(b"    " * i + b"def f%d():\n" % i for i in range(1000)),
    "strings.js": b"const s = '" + b"\\'" * 200_000 + b"';\n",
    "comment.c": b"/*" * 200_000 + b"\nint token_expiry(void) { return 1; }\n",
}
file_bytes = st.one_of(
    st.binary(max_size=4000),
    st.text(ANY_CHAR, max_size=2000).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(max_size=2000).map(lambda t: t.encode("utf-16")),
    st.tuples(st.sampled_from([b"def token_expiry(", b"{", b"(", b"\x00", b"\xff\xfe", b"\n",
                               b"class A:", b"import x\n", b"\r", b"\t" * 50]),
              st.integers(1, 3000)).map(lambda t: t[0] * t[1]),
)
names = st.sampled_from(["a.py", "b.ts", "c.go", "d.rs", "e.java", "f.c", "g.md", "h.json",
                         "i.rb", "j.php", "k.sh", "l", "m.txt", "n.kt", "o.swift", "p.cs"])


@settings(max_examples=examples(30, 2000), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(files=st.dictionaries(names, file_bytes, min_size=1, max_size=6))
def test_any_file_contents(files):
    """Files of any bytes: indexing and a retrieve finish; each file is indexed or skipped with
    a reason; every region is the file's own lines."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        write_files(root, {f"src/{k}": v for k, v in files.items()})
        engine = Engine([root], Settings(cache_dir=str(Path(tmp) / "c"), redact_secrets=False))
        try:
            with no_hang(NO_HANG, "index and retrieve"):
                engine.refresh()
                result = engine.retrieve("fix the token expiry in class A", refresh=False)
            real = check_root(root)
            rows = engine.index(real).conn.execute("SELECT path, skipped FROM files").fetchall()
            assert {p for p, _ in rows} == {f"src/{k}" for k in files}
            assert {s for _, s in rows} <= {None, "binary", "undecodable", "too_large"}
            for f in result.files:
                text = engine.read_text(real, f.path)
                lines = text.splitlines()
                for r in f.regions:
                    assert r.text.splitlines() == lines[r.start_line - 1:r.end_line]
        finally:
            engine.close()


@pytest.mark.parametrize("name", sorted(NESTED))
def test_deeply_nested_code(name, tmp_path):
    """Nesting tens of thousands deep, unbalanced braces, 1000 indentation levels: parsed (or
    its outline given up) without a crash or a hang."""
    with no_hang(NO_HANG, f"parse {name}"):
        parsed = parse_bytes(name, NESTED[name], len(NESTED[name]), 0)
    assert parsed.skipped is None and parsed.lines >= 1


def test_megabyte_lines(tmp_path):
    """A 10 MB single line is skipped as too large; a 0.9 MB single line of code is indexed;
    both within the hang guard, and a retrieve still answers."""
    root = tmp_path / "ws"
    line = b"function token_expiry_" + b"a" * 100 + b"(x) { return x + 1; }; "
    write_files(root, {
        "huge.js": b"var x = '" + b"z" * 10_000_000 + b"';",
        "long.js": line * (900_000 // len(line)),
        "min.css": b".a{b:c}" * 140_000,
        "src/app.ts": b"export function tokenExpiry() { return 1; }\n",
    })
    engine = Engine([root], Settings(cache_dir=str(tmp_path / "c")))
    try:
        with no_hang(NO_HANG * 2, "index and retrieve megabyte lines"):
            stats = engine.refresh()[0]
            result = engine.retrieve("fix the token expiry", refresh=False)
        assert stats.skipped.get("too_large") == 1
        assert engine.index(check_root(root)).file_id("long.js") is not None
        assert result.files
    finally:
        engine.close()
