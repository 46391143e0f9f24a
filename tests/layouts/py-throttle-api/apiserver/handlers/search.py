"""GET /v1/search and GET /v1/usage."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from apiserver.http import Handler, Request, Response, error
from apiserver.services.documents import DocumentStore
from apiserver.services.exchange_rates import ExchangeRates
from apiserver.settings import Settings
from apiserver.utils.pagination import PageError, page_params, paginate

PRICE_PER_QUERY_EUR = Decimal("0.002")
_queries: Counter[str] = Counter()


def make_handler(store: DocumentStore, settings: Settings) -> Handler:
    def handle(request: Request) -> Response:
        q = request.query.get("q", "").strip()
        if not q:
            return error(400, "bad_request", "q is required")
        try:
            params = page_params(request.query, settings.default_page_size, settings.max_page_size)
        except PageError as exc:
            return error(400, "bad_request", str(exc))
        _queries[request.context.get("partner", "anonymous")] += 1
        hits = store.search(q)
        page = paginate(hits, params)
        page["items"] = [{"id": d.id, "title": d.title, "score": round(s, 3)} for d, s in page["items"]]
        return Response(200, page)
    return handle


def make_usage(rates: ExchangeRates, settings: Settings) -> Handler:
    def usage(request: Request) -> Response:
        partner = request.context.get("partner", "anonymous")
        currency = request.query.get("currency", settings.billing_currency_default).upper()
        count = _queries[partner]
        try:
            amount = rates.convert(PRICE_PER_QUERY_EUR * count, "EUR", currency)
        except KeyError:
            return error(400, "bad_request", f"unsupported currency {currency}")
        return Response(200, {"queries": count, "amount": str(amount), "currency": currency})
    return usage
