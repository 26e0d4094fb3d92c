"""The cache backends: the shared cache on Redis that forgives its outages, and the
``versioned`` cache that keeps version-keyed entries in this process too (settings,
``CACHES``; docs/operations.md, "The page cache").

An error on Redis reads as a miss and a failed write is logged, never raised, so a
write never fails or waits on it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

# Redis is taken for down after FAILURES failed commands within FAILURE_WINDOW seconds,
# and then reads skip it for DOWN_SECONDS in this process.  One slow answer (over the
# 0.25 s socket timeout, on a busy host) is a miss, not an outage: marking the cache
# down on it sent every page's rebuild into the web processes for 5 s.
FAILURES = 3
FAILURE_WINDOW = 10.0
DOWN_SECONDS = 5.0


class _Miss:
    pass


# What a read gives for an entry not there, told apart from a cached None.
MISSING: Any = _Miss()


class _OneClientPerPool(RedisCacheClient):
    """Django's Redis cache client, keeping one ``redis.Redis`` per connection pool.

    Django builds a new one for every command, and each copies its table of response
    callbacks: about 60 µs, four times on a signed-in page.  A ``redis.Redis`` is
    thread-safe (it takes a connection from the pool per command), so one is shared.
    """

    # Django's own, missing from its type stubs.
    _client: Any
    _get_connection_pool: Callable[[bool], Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))  # the pools live as long as this client
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ForgivingRedisCache(RedisCache):
    """Django's Redis cache where a Redis error is a miss (reads) or a no-op (writes).

    After several errors in a short while (``FAILURES`` in ``FAILURE_WINDOW``), reads
    skip Redis for a few seconds so that requests do not each wait on its socket
    timeout; writes always try, because a lost invalidation is worse than a short wait.
    """

    _down_until = 0.0
    _failures: deque[float] = deque()  # when the recent failures were, this process
    _failures_lock = threading.Lock()

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool

    def _failed(self, what: str) -> None:
        cls = type(self)
        now = time.monotonic()
        with cls._failures_lock:
            cls._failures.append(now)
            while now - cls._failures[0] > FAILURE_WINDOW:
                cls._failures.popleft()
            down = len(cls._failures) >= FAILURES
            if down:
                cls._down_until = now + DOWN_SECONDS
                cls._failures.clear()
        log.warning(
            "cache %s failed%s", what, " (Redis taken for down)" if down else "", exc_info=True
        )

    def is_down(self) -> bool:
        """Whether Redis failed often in the last few seconds (reads skip it meanwhile)."""
        return time.monotonic() < type(self)._down_until

    @classmethod
    def forget_down(cls) -> None:
        """Forget the failures: the next read tries Redis (a test's fresh start)."""
        cls._down_until = 0.0
        with cls._failures_lock:
            cls._failures.clear()

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        if self.is_down():
            return default
        try:
            return super().get(key, default, version)
        except Exception:
            self._failed("get")
            return default

    def get_many(self, keys: Any, version: Any = None) -> Any:
        if self.is_down():
            return {}
        try:
            return super().get_many(keys, version)
        except Exception:
            self._failed("get_many")
            return {}

    def has_key(self, key: Any, version: Any = None) -> bool:
        if self.is_down():
            return False
        try:
            return bool(super().has_key(key, version))
        except Exception:
            self._failed("has_key")
            return False

    def set(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().set(*args, **kwargs)
        except Exception:
            self._failed("set")

    def add(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return bool(super().add(*args, **kwargs))
        except Exception:
            self._failed("add")
            return False

    def set_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        try:
            return list(super().set_many(*args, **kwargs))
        except Exception:
            self._failed("set_many")
            return []

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return bool(super().touch(*args, **kwargs))
        except Exception:
            self._failed("touch")
            return False

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return bool(super().delete(*args, **kwargs))
        except Exception:
            self._failed("delete")
            return False

    def delete_many(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().delete_many(*args, **kwargs)
        except Exception:
            self._failed("delete_many")

    def incr(self, *args: Any, **kwargs: Any) -> int:
        try:
            return int(super().incr(*args, **kwargs))
        except ValueError:
            raise  # a missing key, as with any cache
        except Exception:
            self._failed("incr")
            return 0

    def clear(self) -> None:
        try:
            super().clear()
        except Exception:
            self._failed("clear")


class VersionedEntries(LocMemCache):
    """The ``versioned`` cache: this process's memory in front of the shared cache.

    Only for entries whose key carries the versions of what they show (those of
    ``cached`` and the pages' ``{% versioned_cache %}``): such a key
    never names stale content, so a copy kept in this process is as good as
    the shared one, and a hit costs no round trip (the versions still cost one).
    """

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        value = super().get(key, MISSING, version)
        if value is not MISSING:
            return value
        value = caches["default"].get(key, MISSING, version)
        if value is MISSING:
            return default
        super().set(key, value, version=version)
        return value

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        super().set(key, value, timeout, version)
        caches["default"].set(key, value, timeout, version)


def shared_cache_down() -> bool:
    """Whether the shared cache is taken for down (its ``add`` then says nothing about a lock);
    a cache that is not ``ForgivingRedisCache`` (local memory in development) never is."""
    backend = caches["default"]
    return isinstance(backend, ForgivingRedisCache) and backend.is_down()
