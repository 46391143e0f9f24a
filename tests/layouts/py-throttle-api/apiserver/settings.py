"""Configuration from the environment, read once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    api_keys: frozenset[str]
    throttle_burst: int = 20
    throttle_per_minute: int = 120
    default_page_size: int = 20
    max_page_size: int = 100
    billing_currency_default: str = "EUR"
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)


def from_env(environ: dict[str, str] | None = None) -> Settings:
    env = os.environ if environ is None else environ
    keys = frozenset(k.strip() for k in env.get("DOCSEARCH_KEYS", "").split(",") if k.strip())
    if not keys:
        raise SystemExit("DOCSEARCH_KEYS is empty: no partner could call the API")
    return Settings(
        api_keys=keys,
        throttle_burst=int(env.get("THROTTLE_BURST", "20")),
        throttle_per_minute=int(env.get("THROTTLE_PER_MINUTE", "120")),
        default_page_size=int(env.get("DEFAULT_PAGE_SIZE", "20")),
        trusted_proxies=tuple(p for p in env.get("TRUSTED_PROXIES", "").split(",") if p),
    )
