"""Signed access tokens: what they claim, how they are minted and checked."""

from __future__ import annotations

from typing import Any

from app.config import Config
from app.utils import jwt, timeutil

CLOCK_SKEW_SECONDS = 20


class TokenInvalid(Exception):
    """Malformed, wrongly signed, or not one of ours."""


class TokenExpired(Exception):
    """Correctly signed but past its `exp`; the claims are kept for the caller."""

    def __init__(self, claims: dict[str, Any]):
        super().__init__(f"token expired at {timeutil.iso(claims['exp'])}")
        self.claims = claims


def issue_access_token(user_id: int, session_id: str, role: str, config: Config) -> tuple[str, int]:
    """Returns the token and its `exp` (epoch seconds)."""
    iat = int(timeutil.now())
    exp = iat + config.access_ttl_seconds
    claims = {
        "sub": str(user_id),
        "sid": session_id,
        "role": role,
        "iss": config.token_issuer,
        "iat": iat,
        "exp": exp,
        "typ": "access",
    }
    return jwt.encode(claims, config.signing_key), exp


def verify_access_token(token: str, config: Config) -> dict[str, Any]:
    """The claims of a valid, unexpired access token; TokenExpired or TokenInvalid otherwise."""
    try:
        claims = jwt.decode(token, config.signing_key)
    except jwt.JWTError as exc:
        raise TokenInvalid(str(exc)) from exc
    if claims.get("iss") != config.token_issuer or claims.get("typ") != "access":
        raise TokenInvalid("not an access token of this service")
    if "sid" not in claims or "exp" not in claims:
        raise TokenInvalid("missing sid or exp")
    if jwt.seconds_left(claims, timeutil.now()) < -CLOCK_SKEW_SECONDS:
        raise TokenExpired(claims)
    return claims


def expires_soon(claims: dict[str, Any], within_seconds: int = 60) -> bool:
    """Whether the client should refresh now (sent back as a response header)."""
    return jwt.seconds_left(claims, timeutil.now()) < within_seconds
