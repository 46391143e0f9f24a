"""The route table: which handler answers which path, behind which middleware."""

from __future__ import annotations

import re
from dataclasses import dataclass

from apiserver.handlers import documents, health, search
from apiserver.http import Handler, Request, Response, error
from apiserver.middleware.registry import MiddlewareSet
from apiserver.services.documents import DocumentStore
from apiserver.services.exchange_rates import ExchangeRates
from apiserver.settings import Settings


@dataclass
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler


class Router:
    def __init__(self) -> None:
        self.routes: list[Route] = []

    def add(self, method: str, path: str, handler: Handler) -> None:
        regex = "^" + re.sub(r"<(\w+)>", r"(?P<\1>[^/]+)", path) + "$"
        self.routes.append(Route(method, re.compile(regex), handler))

    def dispatch(self, request: Request) -> Response:
        for route in self.routes:
            match = route.pattern.match(request.path)
            if match and route.method == request.method:
                request.context["params"] = match.groupdict()
                return route.handler(request)
        return error(404, "not_found", f"no route for {request.method} {request.path}")


PUBLIC = ("request_id",)
PARTNER = ("request_id", "api_key")


def setup_routes(settings: Settings, store: DocumentStore, rates: ExchangeRates) -> Router:
    """Mounts every endpoint with its middleware stack."""
    mw = MiddlewareSet(settings)
    router = Router()
    router.add("GET", "/health", mw.wrap(health.check, PUBLIC))
    router.add("GET", "/v1/search", mw.wrap(search.make_handler(store, settings), PARTNER))
    router.add("GET", "/v1/documents/<doc_id>", mw.wrap(documents.make_get(store), PARTNER))
    router.add("GET", "/v1/usage", mw.wrap(search.make_usage(rates, settings), PARTNER))
    return router
