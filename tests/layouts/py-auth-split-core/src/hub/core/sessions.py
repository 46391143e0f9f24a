"""Login sessions, kept server-side.

A session starts at sign-in and ends at sign-out, after `idle_seconds`
without use, or `absolute_seconds` after it started, whichever comes first.
Access tokens carry their session id as the `sid` claim.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from hub.lib import clock


@dataclass
class LoginSession:
    sid: str
    member_id: int
    started: float
    last_used: float
    ended: float | None = None


class SessionManager:
    def __init__(self, idle_seconds: int, absolute_seconds: int):
        self.idle_seconds = idle_seconds
        self.absolute_seconds = absolute_seconds
        self._by_sid: dict[str, LoginSession] = {}

    def start(self, member_id: int) -> LoginSession:
        t = clock.now()
        session = LoginSession(secrets.token_hex(16), member_id, t, t)
        self._by_sid[session.sid] = session
        return session

    def is_open(self, sid: str, refresh: bool = False) -> bool:
        """Whether the session is usable now. With refresh=True an open session's idle
        timer restarts, as if the member had just used it."""
        session = self._by_sid.get(sid)
        if session is None or session.ended is not None:
            return False
        t = clock.now()
        if t - session.started > self.absolute_seconds:
            session.ended = t
            return False
        if t - session.last_used > self.idle_seconds:
            session.ended = t
            return False
        if refresh:
            session.last_used = t
        return True

    def end(self, sid: str) -> None:
        session = self._by_sid.get(sid)
        if session is not None and session.ended is None:
            session.ended = clock.now()

    def end_all(self, member_id: int) -> int:
        ended = 0
        for session in self._by_sid.values():
            if session.member_id == member_id and session.ended is None:
                session.ended = clock.now()
                ended += 1
        return ended

    def active_count(self, member_id: int) -> int:
        return sum(1 for s in self._by_sid.values()
                   if s.member_id == member_id and self.is_open(s.sid))
