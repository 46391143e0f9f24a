"""Settings, from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    secret_key: str
    database_dsn: str
    access_token_seconds: int = 600
    session_idle_seconds: int = 6 * 3600
    session_absolute_seconds: int = 14 * 86400
    processor_url: str = "https://processor.example.invalid"
    feed_page_size: int = 30


def load() -> Settings:
    secret = os.environ.get("HUB_SECRET_KEY", "")
    if len(secret) < 32:
        raise RuntimeError("HUB_SECRET_KEY must be set to at least 32 characters")
    return Settings(
        secret_key=secret,
        database_dsn=os.environ.get("HUB_DATABASE_DSN", "postgresql://localhost/hub"),
        access_token_seconds=int(os.environ.get("HUB_ACCESS_TOKEN_SECONDS", "600")),
        session_idle_seconds=int(os.environ.get("HUB_SESSION_IDLE_SECONDS", str(6 * 3600))),
    )
