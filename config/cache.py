"""A Redis cache that degrades instead of breaking: while Redis is unreachable, each process keeps
using a local memory cache (so login, pages and rate limits still work; rate limits then count per
process, which still slows an attacker down) and tries Redis again after ``retry_after`` seconds."""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)
GUARDED = (
    "add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many", "delete_many",
    "clear",
)  # fmt: skip


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        self.retry_after = float(options.pop("retry_after", 30))
        options.setdefault("socket_connect_timeout", 1)
        options.setdefault("socket_timeout", 2)
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._fallback = LocMemCache(f"resilient-{server}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._down_until = 0.0

    @property
    def degraded(self) -> bool:
        return time.monotonic() < self._down_until


def _guarded(name: str):
    def method(self, *args, **kwargs):
        if self.degraded:
            return getattr(self._fallback, name)(*args, **kwargs)
        try:
            return getattr(RedisCache, name)(self, *args, **kwargs)
        except UNAVAILABLE as exc:
            self._down_until = time.monotonic() + self.retry_after
            logger.warning(
                "Cache unavailable (%s); using this process's memory for %ss", exc, self.retry_after
            )
            return getattr(self._fallback, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in GUARDED:
    setattr(ResilientRedisCache, _name, _guarded(_name))
