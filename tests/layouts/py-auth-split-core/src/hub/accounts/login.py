"""Signing members in and out, and finding the member behind a request."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from hub.accounts.models import Member, member_by_email
from hub.core.sessions import SessionManager
from hub.core.tokens.issue import mint_access_token
from hub.core.tokens.verify import AccessTokenExpired, AccessTokenInvalid, verify_access_token
from hub.settings import Settings


class LoginRequired(Exception):
    """The request carries no usable credentials; the client should sign in (again)."""


class WrongPassword(Exception):
    pass


@dataclass(frozen=True)
class CurrentMember:
    member_id: int
    sid: str
    roles: tuple[str, ...]


def _password_matches(member: Member, password: str) -> bool:
    salt, _, digest = member.password_hash.partition("$")
    candidate = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 310_000).hex()
    return hmac.compare_digest(candidate, digest)


def sign_in(email: str, password: str, settings: Settings, sessions: SessionManager) -> str:
    member = member_by_email(settings.database_dsn, email)
    if member is None or member.suspended or not _password_matches(member, password):
        raise WrongPassword(email)
    session = sessions.start(member.id)
    return mint_access_token(member.id, session.sid, member.roles, settings)


def sign_out(current: CurrentMember, sessions: SessionManager) -> None:
    sessions.end(current.sid)


def _bearer(header: str | None) -> str:
    if not header or not header.lower().startswith("bearer "):
        raise LoginRequired("no bearer token")
    return header[7:].strip()


def authenticate_request(auth_header: str | None, settings: Settings,
                         sessions: SessionManager) -> CurrentMember:
    """The member behind an Authorization header, or LoginRequired."""
    token = _bearer(auth_header)
    try:
        claims = verify_access_token(token, settings)
    except AccessTokenInvalid as exc:
        raise LoginRequired(f"bad token: {exc}") from exc
    except AccessTokenExpired as exc:
        claims = exc.claims
        # the session decides whether an expired token may still be used
        if not sessions.is_open(claims["sid"], refresh=True):
            raise LoginRequired("access token expired") from exc
    if not sessions.is_open(claims["sid"]):
        raise LoginRequired("signed out")
    return CurrentMember(int(claims["sub"]), claims["sid"], tuple(claims.get("roles", ())))
