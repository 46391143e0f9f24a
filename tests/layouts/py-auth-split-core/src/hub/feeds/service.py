"""Reading and posting to discussion feeds."""

from __future__ import annotations

from hub.cache.expiring import ExpiringDict
from hub.feeds.pagination import page_after
from hub.lib import clock
from hub.lib.db import db_session

_recent = ExpiringDict(max_age_seconds=30)


def load_feed(dsn: str, feed_id: int) -> list[dict]:
    cached = _recent.get(feed_id)
    if cached is not None:
        return cached
    with db_session(dsn) as cur:
        cur.execute("SELECT id, author_id, body, posted_at FROM posts WHERE feed_id = %s "
                    "ORDER BY posted_at DESC, id DESC LIMIT 1000", (feed_id,))
        posts = cur.fetchall()
    _recent.set(feed_id, posts)
    return posts


def read_page(dsn: str, feed_id: int, page_size: int, continuation: str | None) -> dict:
    return page_after(load_feed(dsn, feed_id), page_size, continuation)


def post(dsn: str, feed_id: int, author_id: int, body: str) -> int:
    if not body.strip():
        raise ValueError("a post needs some text")
    with db_session(dsn) as cur:
        cur.execute("INSERT INTO posts (feed_id, author_id, body, posted_at) "
                    "VALUES (%s, %s, %s, to_timestamp(%s)) RETURNING id",
                    (feed_id, author_id, body.strip(), clock.now()))
        new_id = cur.fetchone()["id"]
    _recent.pop(feed_id)
    return new_id
