"""limit/offset pagination for list endpoints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class PageError(ValueError):
    pass


@dataclass(frozen=True)
class PageParams:
    limit: int
    offset: int


def page_params(query: Mapping[str, str], default_limit: int, max_limit: int) -> PageParams:
    """Reads `limit` and `offset` from the query string, with bounds."""
    try:
        limit = int(query.get("limit", default_limit))
        offset = int(query.get("offset", 0))
    except ValueError as exc:
        raise PageError("limit and offset must be integers") from exc
    if not 1 <= limit <= max_limit:
        raise PageError(f"limit must be between 1 and {max_limit}")
    if offset < 0:
        raise PageError("offset must not be negative")
    return PageParams(limit, offset)


def paginate(items: Sequence[Any], params: PageParams) -> dict[str, Any]:
    window = list(items[params.offset:params.offset + params.limit])
    next_offset = params.offset + params.limit
    return {
        "items": window,
        "limit": params.limit,
        "offset": params.offset,
        "total": len(items),
        "next_offset": next_offset if next_offset < len(items) else None,
    }
