"""Per-client throttling with a leaky bucket.

Each client has a bucket that fills by one per request and drains at
`per_minute / 60` requests per second. A request that would overflow the
bucket (more than `burst`) is refused with 429 and a Retry-After header.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from apiserver.http import Handler, Middleware, Request, Response, error


@dataclass
class Bucket:
    level: float
    updated: float


class Throttler:
    def __init__(self, burst: int, per_minute: int, clock: Callable[[], float] = time.monotonic):
        if burst < 1 or per_minute < 1:
            raise ValueError("burst and per_minute must be at least 1")
        self.burst = burst
        self.drain_per_second = per_minute / 60.0
        self._clock = clock
        self._buckets: dict[str, Bucket] = {}
        self._lock = threading.Lock()

    def admit(self, client: str) -> tuple[bool, float]:
        """(allowed, seconds to wait before the next request would be allowed)."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(client) or Bucket(0.0, now)
            bucket.level = max(0.0, bucket.level - (now - bucket.updated) * self.drain_per_second)
            bucket.updated = now
            if bucket.level + 1 > self.burst:
                self._buckets[client] = bucket
                wait = (bucket.level + 1 - self.burst) / self.drain_per_second
                return False, wait
            bucket.level += 1
            self._buckets[client] = bucket
            return True, 0.0

    def forget_idle(self) -> int:
        """Drops buckets that have drained completely."""
        now = self._clock()
        with self._lock:
            idle = [c for c, b in self._buckets.items()
                    if b.level - (now - b.updated) * self.drain_per_second <= 0]
            for c in idle:
                del self._buckets[c]
        return len(idle)


def client_key(request: Request) -> str:
    """The partner's API key when there is one, else the caller's address."""
    partner = request.context.get("partner")
    return f"partner:{partner}" if partner else f"addr:{request.remote_addr}"


def throttle(throttler: Throttler, key: Callable[[Request], str] = client_key) -> Middleware:
    def wrap(handler: Handler) -> Handler:
        def throttled(request: Request) -> Response:
            allowed, wait = throttler.admit(key(request))
            if not allowed:
                return error(429, "throttled", "too many requests",
                             **{"Retry-After": str(max(1, math.ceil(wait)))})
            return handler(request)
        return throttled
    return wrap
