"""Database sessions: one SQLAlchemy session per unit of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.config import Config


@lru_cache(maxsize=4)
def get_engine(database_url: str) -> Engine:
    connect_args = {"check_same_thread": False} if database_url.startswith("sqlite") else {}
    return create_engine(database_url, pool_pre_ping=True, connect_args=connect_args)


@lru_cache(maxsize=4)
def _session_factory(database_url: str) -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(database_url), expire_on_commit=False)


@contextmanager
def unit_of_work(config: Config) -> Iterator[Session]:
    """A database session that commits when the block succeeds and rolls back otherwise."""
    session = _session_factory(config.database_url)()
    try:
        yield session
        session.commit()
    except Exception:
        session.rollback()
        raise
    finally:
        session.close()


@contextmanager
def read_only_session(config: Config) -> Iterator[Session]:
    """A database session for queries; never commits."""
    session = _session_factory(config.database_url)()
    try:
        yield session
    finally:
        session.rollback()
        session.close()
