"""Minting access tokens."""

from __future__ import annotations

from hub.lib import clock
from hub.lib.jwt_utils import jwt_encode
from hub.settings import Settings

AUDIENCE = "hub-web"


def access_claims(member_id: int, sid: str, lifetime: int, roles: list[str]) -> dict:
    issued = int(clock.now())
    return {
        "sub": str(member_id),
        "sid": sid,
        "aud": AUDIENCE,
        "roles": sorted(roles),
        "iat": issued,
        "exp": issued + lifetime,
    }


def mint_access_token(member_id: int, sid: str, roles: list[str], settings: Settings) -> str:
    """A signed access token for one session, valid for settings.access_token_seconds."""
    claims = access_claims(member_id, sid, settings.access_token_seconds, roles)
    return jwt_encode(claims, settings.secret_key)
