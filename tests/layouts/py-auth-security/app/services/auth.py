"""Login, logout and request authentication for patients and staff."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.config import Config
from app.db.session import unit_of_work
from app.models.user import User, find_by_email
from app.security.passwords import check_password
from app.security.session import SessionStore
from app.security.tokens import (
    TokenExpired,
    TokenInvalid,
    expires_soon,
    issue_access_token,
    verify_access_token,
)

log = logging.getLogger(__name__)


class AuthError(Exception):
    def __init__(self, message: str, code: str = "unauthorized"):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Identity:
    user_id: int
    role: str
    session_id: str
    refresh_hint: bool = False


@dataclass(frozen=True)
class LoginResult:
    access_token: str
    expires_at: int
    user: User


class AuthService:
    def __init__(self, config: Config, sessions: SessionStore):
        self._config = config
        self._sessions = sessions

    def login(self, email: str, password: str, user_agent: str = "") -> LoginResult:
        with unit_of_work(self._config) as db:
            user = find_by_email(db, email)
        if user is None or not user.active or not check_password(password, user.password_hash):
            log.info("login refused for %s", email)
            raise AuthError("wrong email or password", "bad_credentials")
        session = self._sessions.open(user.id, user.role, user_agent)
        token, exp = issue_access_token(user.id, session.id, user.role, self._config)
        return LoginResult(token, exp, user)

    def authenticate(self, bearer: str) -> Identity:
        """The identity behind a bearer token, or AuthError."""
        try:
            claims = verify_access_token(bearer, self._config)
        except TokenInvalid as exc:
            raise AuthError(f"invalid token: {exc}", "token_invalid") from exc
        except TokenExpired as exc:
            # a token that ran out while its session is still in use is accepted, and
            # the client is told to fetch a new one
            if self._sessions.is_open(exc.claims["sid"]):
                claims = exc.claims
            else:
                raise AuthError("token expired", "token_expired") from exc
        if not self._sessions.is_open(claims["sid"]):
            raise AuthError("session closed", "session_closed")
        self._sessions.touch(claims["sid"])
        return Identity(int(claims["sub"]), claims["role"], claims["sid"], expires_soon(claims))

    def renew(self, identity: Identity) -> tuple[str, int]:
        """A fresh access token for an authenticated identity's session."""
        return issue_access_token(identity.user_id, identity.session_id, identity.role, self._config)

    def logout(self, identity: Identity) -> None:
        self._sessions.close(identity.session_id)

    def logout_everywhere(self, user_id: int) -> int:
        return self._sessions.close_all(user_id)
