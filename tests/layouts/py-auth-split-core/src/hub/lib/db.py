"""Database connections and sessions (psycopg 3)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.rows import dict_row

_pool: list[psycopg.Connection] = []


def connect(dsn: str) -> psycopg.Connection:
    if _pool:
        return _pool.pop()
    return psycopg.connect(dsn, row_factory=dict_row, autocommit=False)


def release(conn: psycopg.Connection) -> None:
    if conn.closed:
        return
    if len(_pool) < 8:
        _pool.append(conn)
    else:
        conn.close()


@contextmanager
def db_session(dsn: str) -> Iterator[psycopg.Cursor]:
    """A database session: one transaction, committed on success, rolled back on error."""
    conn = connect(dsn)
    try:
        with conn.cursor() as cur:
            yield cur
        conn.commit()
    except Exception:
        conn.rollback()
        raise
    finally:
        release(conn)


def fetch_one(dsn: str, sql: str, params: tuple = ()) -> dict | None:
    with db_session(dsn) as cur:
        cur.execute(sql, params)
        return cur.fetchone()
