"""A minimal language-server client over stdio: enough JSON-RPC to time the real server.

It answers the server's own requests the way an editor would (configuration: nothing set;
registrations and progress tokens: accepted) and times each request from send to answer.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

CLIENT_CAPABILITIES = {
    "workspace": {
        "configuration": True,
        "workspaceFolders": True,
        # an editor watches files for the server, so a ready index is not re-scanned per request
        "didChangeWatchedFiles": {"dynamicRegistration": True},
        "didChangeConfiguration": {"dynamicRegistration": True},
    },
    "window": {"workDoneProgress": True},
}


class LspClient:
    def __init__(self, cmd: list[str], env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self._ids = itertools.count(1)
        self._pending: dict[int, Future] = {}
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- wire ----------------------------------------------------------------------------------

    def _send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode()
        with self._write_lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    for f in self._pending.values():
                        if not f.done():
                            f.set_exception(EOFError("the server closed its output"))
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            if "method" in msg:
                if "id" in msg:  # a request from the server
                    result = [None] if msg["method"] == "workspace/configuration" else None
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                continue
            fut = self._pending.pop(msg.get("id"), None)
            if fut is not None:
                fut.set_result(msg)

    # -- API -----------------------------------------------------------------------------------

    def request(self, method: str, params: Any = None, timeout: float = 600) -> tuple[Any, float]:
        """(result, seconds from send to answer); a JSON-RPC error raises RuntimeError."""
        msg_id = next(self._ids)
        fut: Future = Future()
        self._pending[msg_id] = fut
        t0 = time.perf_counter()
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        answer = fut.result(timeout)
        seconds = time.perf_counter() - t0
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result"), seconds

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def command(self, name: str, *args: Any) -> tuple[Any, float]:
        return self.request("workspace/executeCommand",
                            {"command": name, "arguments": list(args)})

    def initialize(self, root: Path) -> None:
        self.request("initialize", {
            "processId": None, "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": CLIENT_CAPABILITIES,
        })
        self.notify("initialized", {})

    def close(self) -> None:
        try:
            self.request("shutdown", timeout=30)
            self.notify("exit")
            self.proc.wait(timeout=30)
        except Exception:  # noqa: BLE001 - a stuck server is killed below
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
