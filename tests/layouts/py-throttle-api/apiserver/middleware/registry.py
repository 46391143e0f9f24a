"""Every middleware the server knows, by name, and how to stack them.

Routes ask for middleware by name (see routing.py); each factory here builds
one from the settings. Factories run once per server, so state such as a
throttle's buckets is shared by all the routes that use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from apiserver.http import Handler, Middleware
from apiserver.middleware.api_key import require_api_key
from apiserver.middleware.request_id import request_id
from apiserver.middleware.throttle import Throttler, throttle
from apiserver.settings import Settings

Factory = Callable[[Settings], Middleware]

REGISTRY: dict[str, Factory] = {
    "request_id": lambda settings: request_id(),
    "api_key": lambda settings: require_api_key(settings.api_keys),
    "throttle": lambda settings: throttle(
        Throttler(settings.throttle_burst, settings.throttle_per_minute)),
}

ORDER = ("request_id", "api_key", "throttle")
"""Outermost first: the throttle needs the partner id that api_key sets."""


class MiddlewareSet:
    def __init__(self, settings: Settings):
        self._settings = settings
        self._built: dict[str, Middleware] = {}

    def get(self, name: str) -> Middleware:
        if name not in REGISTRY:
            raise KeyError(f"unknown middleware {name!r}; known: {', '.join(REGISTRY)}")
        if name not in self._built:
            self._built[name] = REGISTRY[name](self._settings)
        return self._built[name]

    def wrap(self, handler: Handler, names: Iterable[str]) -> Handler:
        """Wraps `handler` in the named middleware, in the canonical ORDER."""
        wanted = set(names)
        for name in reversed(ORDER):
            if name in wanted:
                handler = self.get(name)(handler)
        return handler
