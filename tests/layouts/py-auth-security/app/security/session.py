"""Server-side login sessions.

A session is opened at login and closed at logout or after `idle_seconds`
without activity. Access tokens name their session in the `sid` claim, so a
closed session makes every token minted for it useless.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field

from app.utils import timeutil


@dataclass
class Session:
    id: str
    user_id: int
    role: str
    opened_at: float
    last_seen: float
    closed_at: float | None = None
    user_agent: str = ""
    data: dict = field(default_factory=dict)


class SessionStore:
    """Sessions in memory, keyed by id. One instance per process."""

    def __init__(self, idle_seconds: int):
        self.idle_seconds = idle_seconds
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def open(self, user_id: int, role: str, user_agent: str = "") -> Session:
        ts = timeutil.now()
        session = Session(secrets.token_urlsafe(24), user_id, role, ts, ts, user_agent=user_agent)
        with self._lock:
            self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> Session | None:
        with self._lock:
            return self._sessions.get(session_id)

    def is_open(self, session_id: str) -> bool:
        """Open: known, not closed, and used within the idle window."""
        session = self.get(session_id)
        if session is None or session.closed_at is not None:
            return False
        return timeutil.now() - session.last_seen <= self.idle_seconds

    def touch(self, session_id: str) -> None:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None and session.closed_at is None:
                session.last_seen = timeutil.now()

    def close(self, session_id: str) -> bool:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None or session.closed_at is not None:
                return False
            session.closed_at = timeutil.now()
            return True

    def close_all(self, user_id: int) -> int:
        with self._lock:
            open_ones = [s for s in self._sessions.values()
                         if s.user_id == user_id and s.closed_at is None]
            for s in open_ones:
                s.closed_at = timeutil.now()
            return len(open_ones)

    def purge_closed(self, older_than: float) -> int:
        """Drops sessions closed before `older_than`; returns how many."""
        with self._lock:
            stale = [k for k, s in self._sessions.items()
                     if s.closed_at is not None and s.closed_at < older_than]
            for k in stale:
                del self._sessions[k]
            return len(stale)
