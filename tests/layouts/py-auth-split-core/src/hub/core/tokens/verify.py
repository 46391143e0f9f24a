"""Checking access tokens."""

from __future__ import annotations

from typing import Any

from hub.core.tokens.issue import AUDIENCE
from hub.lib import clock
from hub.lib.jwt_utils import BadJWTSignature, MalformedJWT, jwt_decode, jwt_exp_passed
from hub.settings import Settings

LEEWAY_SECONDS = 10


class AccessTokenInvalid(Exception):
    pass


class AccessTokenExpired(Exception):
    """The token is genuine but its `exp` has passed; `claims` says whose it was."""

    def __init__(self, claims: dict[str, Any]):
        super().__init__("access token expired")
        self.claims = claims


def verify_access_token(token: str, settings: Settings) -> dict[str, Any]:
    try:
        claims = jwt_decode(token, settings.secret_key)
    except (MalformedJWT, BadJWTSignature) as exc:
        raise AccessTokenInvalid(str(exc)) from exc
    if claims.get("aud") != AUDIENCE:
        raise AccessTokenInvalid("wrong audience")
    for name in ("sub", "sid", "exp"):
        if name not in claims:
            raise AccessTokenInvalid(f"missing claim {name}")
    if jwt_exp_passed(claims, clock.now(), LEEWAY_SECONDS):
        raise AccessTokenExpired(claims)
    return claims


def seconds_remaining(claims: dict[str, Any]) -> int:
    return max(0, int(claims["exp"] - clock.now()))
