"""Gives every request an id and logs one line per request."""

from __future__ import annotations

import logging
import time
import uuid

from apiserver.http import Handler, Middleware, Request, Response

log = logging.getLogger("apiserver.access")


def request_id() -> Middleware:
    def wrap(handler: Handler) -> Handler:
        def tagged(request: Request) -> Response:
            rid = request.headers.get("x-request-id") or uuid.uuid4().hex
            request.context["request_id"] = rid
            started = time.perf_counter()
            response = handler(request)
            response.headers.setdefault("X-Request-Id", rid)
            log.info("%s %s %s %.1fms rid=%s", request.method, request.path, response.status,
                     (time.perf_counter() - started) * 1000, rid)
            return response
        return tagged
    return wrap
