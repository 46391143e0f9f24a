"""A dict whose entries expire a fixed time after they were set."""

from __future__ import annotations

from typing import Any

from hub.lib import clock


class ExpiringDict:
    def __init__(self, max_age_seconds: float, max_len: int = 256):
        self.max_age_seconds = max_age_seconds
        self.max_len = max_len
        self._data: dict[Any, tuple[float, Any]] = {}

    def _expired(self, stamped: float) -> bool:
        return clock.now() - stamped >= self.max_age_seconds

    def get(self, key: Any, default: Any = None) -> Any:
        item = self._data.get(key)
        if item is None:
            return default
        stamped, value = item
        if self._expired(stamped):
            del self._data[key]
            return default
        return value

    def set(self, key: Any, value: Any) -> None:
        if len(self._data) >= self.max_len and key not in self._data:
            self.drop_expired()
            if len(self._data) >= self.max_len:
                oldest = min(self._data, key=lambda k: self._data[k][0])
                del self._data[oldest]
        self._data[key] = (clock.now(), value)

    def pop(self, key: Any) -> Any:
        item = self._data.pop(key, None)
        return None if item is None else item[1]

    def drop_expired(self) -> int:
        dead = [k for k, (stamped, _) in self._data.items() if self._expired(stamped)]
        for k in dead:
            del self._data[k]
        return len(dead)

    def __len__(self) -> int:
        return len(self._data)
