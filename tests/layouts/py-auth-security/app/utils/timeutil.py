"""Time helpers; everything is UTC."""

from __future__ import annotations

import time
from datetime import datetime, timezone

_frozen: float | None = None


def now() -> float:
    """Seconds since the epoch (what JWT claims and session records use)."""
    return _frozen if _frozen is not None else time.time()


def utcnow() -> datetime:
    return datetime.fromtimestamp(now(), tz=timezone.utc)


def freeze(at: float | None) -> None:
    """Tests pin the clock with freeze(ts) and release it with freeze(None)."""
    global _frozen
    _frozen = at


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat(timespec="seconds")
