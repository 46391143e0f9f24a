"""Continuation tokens for the discussion feeds.

A feed page ends with a `continuation` token: an opaque string the client
sends back to get the posts after the last one it saw.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass


class BadContinuation(ValueError):
    pass


@dataclass(frozen=True)
class Position:
    posted_at: float
    post_id: int


def make_continuation_token(pos: Position) -> str:
    raw = json.dumps([pos.posted_at, pos.post_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_continuation_token(token: str) -> Position:
    try:
        posted_at, post_id = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        return Position(float(posted_at), int(post_id))
    except (ValueError, TypeError) as exc:
        raise BadContinuation("unreadable continuation token") from exc


def page_after(posts: list[dict], page_size: int, token: str | None = None) -> dict:
    """Posts sorted newest first; returns the page after the token's position."""
    start = 0
    if token:
        pos = read_continuation_token(token)
        start = next((i for i, p in enumerate(posts)
                      if (p["posted_at"], p["id"]) < (pos.posted_at, pos.post_id)), len(posts))
    page = posts[start:start + page_size]
    more = start + page_size < len(posts)
    last = page[-1] if page else None
    return {
        "posts": page,
        "continuation": make_continuation_token(Position(last["posted_at"], last["id"]))
        if more and last else None,
    }
