"""Partner authentication by the X-Api-Key header."""

from __future__ import annotations

import hashlib

from apiserver.http import Handler, Middleware, Request, Response, error


def partner_id(api_key: str) -> str:
    """A stable, non-secret id for a key, used in logs and billing."""
    return hashlib.sha256(api_key.encode()).hexdigest()[:12]


def require_api_key(valid_keys: frozenset[str]) -> Middleware:
    def wrap(handler: Handler) -> Handler:
        def checked(request: Request) -> Response:
            key = request.headers.get("x-api-key", "")
            if key not in valid_keys:
                return error(401, "unauthorized", "missing or unknown API key")
            request.context["partner"] = partner_id(key)
            return handler(request)
        return checked
    return wrap
