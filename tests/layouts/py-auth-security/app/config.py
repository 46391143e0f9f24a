"""Settings read once from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Config:
    database_url: str
    signing_key: str
    token_issuer: str
    access_ttl_seconds: int
    session_idle_seconds: int
    payment_gateway_url: str
    cache_ttl_seconds: int


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    value = int(raw)
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


@lru_cache(maxsize=1)
def get_config() -> Config:
    key = os.environ.get("PORTAL_SIGNING_KEY", "")
    if len(key) < 32:
        raise RuntimeError("PORTAL_SIGNING_KEY must hold at least 32 characters")
    return Config(
        database_url=os.environ.get("DATABASE_URL", "sqlite:///portal.db"),
        signing_key=key,
        token_issuer=os.environ.get("PORTAL_ISSUER", "clinic-portal"),
        access_ttl_seconds=_int("ACCESS_TTL_SECONDS", 15 * 60),
        session_idle_seconds=_int("SESSION_IDLE_SECONDS", 8 * 60 * 60),
        payment_gateway_url=os.environ.get("PAYMENT_GATEWAY_URL", "https://pay.example.invalid"),
        cache_ttl_seconds=_int("CACHE_TTL_SECONDS", 300),
    )
