"""Request, Response and the handler type shared by middleware and handlers."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

STATUS_TEXT = {200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized",
               404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"}


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes = b""
    remote_addr: str = ""
    context: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_environ(cls, environ: dict) -> Request:
        headers = {k[5:].replace("_", "-").lower(): v
                   for k, v in environ.items() if k.startswith("HTTP_")}
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        query = {k: v[-1] for k, v in parse_qs(environ.get("QUERY_STRING", "")).items()}
        return cls(environ["REQUEST_METHOD"], environ.get("PATH_INFO", "/"), query, headers,
                   body, environ.get("REMOTE_ADDR", ""))

    def json(self) -> Any:
        return json.loads(self.body or b"null")


@dataclass
class Response:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    def encode(self) -> tuple[str, list[tuple[str, str]], bytes]:
        payload = json.dumps(self.body).encode() if self.body is not None else b""
        headers = {"Content-Type": "application/json", **self.headers}
        return f"{self.status} {STATUS_TEXT.get(self.status, '')}", list(headers.items()), payload


def error(status: int, code: str, message: str, **headers: str) -> Response:
    return Response(status, {"error": code, "message": message}, dict(headers))


Handler = Callable[[Request], Response]
Middleware = Callable[[Handler], Handler]
