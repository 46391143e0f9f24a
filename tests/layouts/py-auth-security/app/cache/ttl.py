"""A tiny cache whose entries expire after a time to live."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from app.utils import timeutil

K = TypeVar("K")
V = TypeVar("V")


class TTLCache(Generic[K, V]):
    def __init__(self, ttl_seconds: float, max_items: int = 512):
        self.ttl_seconds = ttl_seconds
        self.max_items = max_items
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            expiry, value = item
            if expiry <= timeutil.now():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V, ttl_seconds: float | None = None) -> None:
        expiry = timeutil.now() + (self.ttl_seconds if ttl_seconds is None else ttl_seconds)
        with self._lock:
            self._items[key] = (expiry, value)
            self._items.move_to_end(key)
            while len(self._items) > self.max_items:
                self._items.popitem(last=False)

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        value = self.get(key)
        if value is None:
            value = compute()
            self.put(key, value)
        return value

    def evict_expired(self) -> int:
        cutoff = timeutil.now()
        with self._lock:
            dead = [k for k, (expiry, _) in self._items.items() if expiry <= cutoff]
            for k in dead:
                del self._items[k]
        return len(dead)
