"""The protocol's edges, against the real server over stdio: bad globs and paths are named in
InvalidParams (they answered InternalError), a request nested deeper than the JSON decoder goes
answers an error (it went unanswered), a request after `shutdown` gets InvalidRequest (it went
unanswered), and `exit` without `shutdown` ends the process with 1 (it ended with 0).
The same globs on the command line and over MCP are refused by name, and a `.gitignore` line that
reads as no pattern is passed over as git passes it (it stopped the index of the folder)."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

from iterative_retrieval.gitignore import GitIgnore, pattern_error

from .conftest import no_hang, write_files
from .test_lsp_server import SERVER, command, copy_example, start, wait_ready

ON_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")
RETRIEVE = "iterativeRetrieval.retrieve"
HANG = 120  # seconds: a hang guard, not a speed check


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module",
                    loop_scope="module")
async def server(lsp_client: LanguageClient, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("protocol")
    lsp_client.workspace_root = copy_example(tmp, "auth-service")
    await start(lsp_client, tmp, [lsp_client.workspace_root])
    await wait_ready(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.parametrize(("args", "field", "why"), [
    ({"include": "\\"}, "'include'", "escapes nothing"),
    ({"include": ["src/**", "a\\"]}, "'include'", "escapes nothing"),
    ({"exclude": ["\\"]}, "'exclude'", "escapes nothing"),
    ({"exclude": "!"}, "'exclude'", "negates nothing"),
    ({"root": "/tmp/x\0y"}, "'root'", "NUL"),
    ({"root": "file:///tmp/x%00y"}, "'root'", "NUL"),
])
@ON_MODULE_LOOP
async def test_bad_globs_and_paths_are_named_in_invalid_params(server, args, field, why):
    """Each answers InvalidParams naming the command and the field (not InternalError), for
    retrieve and renderContext alike, and the server goes on answering."""
    for name, extra in ((RETRIEVE, {}), ("iterativeRetrieval.renderContext",
                                         {"format": "markdown"})):
        with pytest.raises(JsonRpcInvalidParams) as err:
            await command(server, name, {"task": "Fix the token expiry", **extra, **args})
        assert name in str(err.value) and field in str(err.value) and why in str(err.value)
    result = await command(server, RETRIEVE, {"task": "Fix the token expiry"})
    assert result["files"]


@ON_MODULE_LOOP
async def test_a_bad_glob_in_the_settings_is_reported_and_replaced(server):
    """A bad glob pushed as a setting is a warning naming it, and the default applies."""
    server.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"iterativeRetrieval": {"exclude": ["\\"], "cacheDir": "/tmp/a\0b"}}))
    st = await command(server, "iterativeRetrieval.status")
    assert st["settings"]["exclude"] == []
    shown = [m.message for m in server.messages]
    assert any("iterativeRetrieval.exclude" in m and "escapes nothing" in m for m in shown)
    assert any("iterativeRetrieval.cacheDir" in m and "NUL" in m for m in shown)


# -- raw frames: what a client library cannot even send ---------------------------------------


class Wire:
    """The server as a process, spoken to in raw frames."""

    def __init__(self, root: Path, cache: Path, stderr: Any = subprocess.DEVNULL):
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr)
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {},
            "initializationOptions": {"cacheDir": str(cache)}}})
        assert "result" in self.answer(1)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def send(self, message: dict | str) -> None:
        body = (message if isinstance(message, str) else json.dumps(message)).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def answer(self, msg_id: int) -> dict[str, Any]:
        """The answer to one request (server requests and notifications are passed over)."""
        with no_hang(HANG, f"the answer to request {msg_id}"):
            while True:
                n = 0
                while (line := self.proc.stdout.readline().strip()):
                    if line.lower().startswith(b"content-length:"):
                        n = int(line.split(b":")[1])
                assert n, "the server closed its output"
                msg = json.loads(self.proc.stdout.read(n))
                if msg.get("id") == msg_id and "method" not in msg:
                    return msg

    def command(self, msg_id: int, arguments: str) -> dict[str, Any]:
        self.send(f'{{"jsonrpc": "2.0", "id": {msg_id}, "method": "workspace/executeCommand", '
                  f'"params": {{"command": "{RETRIEVE}", "arguments": {arguments}}}}}')
        return self.answer(msg_id)

    def close(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait()


@pytest.fixture
def wire(tmp_path):
    root = write_files(tmp_path / "ws", {"auth/tokens.py": "def token_expiry():\n    return 1\n"})
    w = Wire(root, tmp_path / "cache")
    yield w
    w.close()


@pytest.mark.parametrize("depth", [1_000, 5_000, 100_000])
def test_a_request_nested_too_deeply_is_answered(wire, depth):
    """Arguments nested `depth` levels (as an array, and in an object) each get an error answer
    naming the method; the server then answers the next request."""
    deep = "[" * depth + "1" + "]" * depth
    for k, arguments in enumerate((f"[{deep}]", f'[{{"task": "x", "include": {deep}}}]',
                                   '[{"task": "x", "a": ' + '{"b": ' * depth + "1"
                                   + "}" * depth + "}]")):
        msg = wire.command(10 + k, arguments)
        assert msg["error"]["code"] in (-32602, -32600), msg
        assert "workspace/executeCommand" in msg["error"]["message"], msg
    ok = wire.command(20, '[{"task": "Fix the token expiry"}]')
    assert ok["result"]["files"][0]["path"] == "auth/tokens.py"


def test_a_request_after_shutdown_is_refused_and_exit_says_how_it_ended(wire):
    """After `shutdown`, a request gets InvalidRequest; `exit` then ends the process with 0."""
    wire.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    assert wire.answer(2)["result"] is None
    msg = wire.command(3, '[{"task": "Fix the token expiry"}]')
    assert msg["error"]["code"] == -32600 and "shutting down" in msg["error"]["message"], msg
    wire.send({"jsonrpc": "2.0", "method": "exit"})
    with no_hang(HANG, "the server's exit"):
        assert wire.proc.wait() == 0


def test_exit_without_shutdown_ends_with_1(wire):
    """`exit` with no `shutdown` before it: the process ends with 1, as the LSP says."""
    wire.send({"jsonrpc": "2.0", "method": "exit"})
    with no_hang(HANG, "the server's exit"):
        assert wire.proc.wait() == 1


def test_an_error_answer_is_one_line_of_the_log_and_never_the_task(tmp_path):
    """Each error the server answers (bad arguments, a root outside the workspace, a deep
    request) is one line of its log, with no traceback (pygls wrote an ERROR and twenty lines
    each), and no request's parameters are logged: a credential the task pasted stays out."""
    root = write_files(tmp_path / "ws", {"auth/tokens.py": "def token_expiry():\n    return 1\n"})
    # drawn here: a literal token in this file would be masked by the redaction's own test
    r = random.Random(7)
    secret = "ghp_" + "".join(r.choices(string.ascii_letters + string.digits, k=36))
    task = f"Fix the token expiry, my token is {secret}"
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err:
        w = Wire(root, tmp_path / "cache", stderr=err)
        try:
            bad = [w.command(2, json.dumps([{"task": task, "selection": [1, 2]}])),
                   w.command(3, json.dumps([{"task": task, "root": "/nonexistent"}])),
                   w.command(4, json.dumps([{"task": task, "include": "\\"}])),
                   w.command(5, "[" * 5000 + "]" * 5000)]
            assert all(m["error"]["code"] in (-32602, -32600) for m in bad), bad
            assert w.command(6, json.dumps([{"task": task}]))["result"]["files"]
            w.send({"jsonrpc": "2.0", "id": 7, "method": "shutdown"})
            w.answer(7)
            w.send({"jsonrpc": "2.0", "method": "exit"})
            with no_hang(HANG, "the server's exit"):
                assert w.proc.wait() == 0
        finally:
            w.close()
    text = log.read_text()
    assert "Traceback" not in text and "ERROR" not in text, text
    assert text.count("answered with an error (-32602)") == 3, text
    assert "a message that cannot be decoded: RecursionError" in text, text
    assert "'selection' must be an object" in text and "/nonexistent" in text
    assert secret not in text and secret[4:11] not in text and "my token is" not in text, text


# -- the same globs elsewhere ------------------------------------------------------------------


def test_the_command_line_names_a_bad_glob(tmp_path):
    """`--include '\\'` exits 2 with a one-line message naming the option, no traceback."""
    root = write_files(tmp_path / "ws", {"a.py": "def token_expiry():\n    return 1\n"})
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", "token",
                        "--root", str(root), "--cache-dir", str(tmp_path / "c"),
                        "--exclude", "\\"], capture_output=True, text=True, timeout=HANG)
    assert p.returncode == 2
    assert "exclude: '\\\\' is not a valid glob pattern" in p.stderr and "Traceback" not in p.stderr


def test_a_gitignore_line_that_is_no_pattern_is_passed_over(tmp_path):
    """A plain folder whose .gitignore holds `\\` and `!`: indexed as git would (the other
    lines still apply); it used to stop every index of the folder with exit 2."""
    root = write_files(tmp_path / "ws", {
        ".gitignore": "\\\n!\n*.log\n",
        "a.py": "def token_expiry():\n    return 1\n",
        "debug.log": "token expiry token expiry\n",
    })
    p = subprocess.run([sys.executable, "-m", "iterative_retrieval", "retrieve", "token expiry",
                        "--root", str(root), "--cache-dir", str(tmp_path / "c"), "--json"],
                       capture_output=True, text=True, timeout=HANG)
    assert p.returncode == 0, p.stderr
    assert [f["path"] for f in json.loads(p.stdout)["files"]] == ["a.py"]


@pytest.mark.parametrize(("pattern", "bad"), [
    ("\\", True), ("a\\", True), ("!", True), ("src/**", False), ("\\\\", False),
    ("!keep.py", False), ("*.log", False),
])
def test_pattern_error_and_gitignore_agree(pattern, bad):
    """A pattern is refused in settings exactly when a .gitignore would pass over it."""
    assert (pattern_error(pattern) is not None) == bad
    assert GitIgnore([pattern]).spec.patterns.__len__() == (0 if bad else 1)
