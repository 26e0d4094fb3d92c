"""The session engine: Django's ``cached_db`` (read from the shared cache, written through
to the database), with the cached copy kept at most ``CACHE_SECONDS``.

Why the bound: the cache forgives a Redis error
(``ops.pages.backends.ForgivingRedisCache``), so a logout during a Redis outage
deletes the session from the database but may leave its
cached copy behind; without the bound that copy would sign its cookie in until the
session's own expiry (two weeks).  A password change is safe either way: every request
still loads the user, and Django refuses a session whose password hash is not his.
Used only with a shared cache (``REDIS_URL``): a per-process memory cache would keep a
session another process has logged out (settings)."""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

# At most this long between a lost cache delete and the session's end; also how often an
# idle user's next request reads his session from the database again.
CACHE_SECONDS = 300


class _ShortLived:
    """The session cache, with every entry's timeout capped at ``CACHE_SECONDS``."""

    def __init__(self, backend: Any) -> None:
        self._backend = backend

    def set(self, key: str, value: Any, timeout: Any = None, *args: Any) -> None:
        self._backend.set(key, value, _capped(timeout), *args)

    async def aset(self, key: str, value: Any, timeout: Any = None, *args: Any) -> None:
        await self._backend.aset(key, value, _capped(timeout), *args)

    def __contains__(self, key: str) -> bool:
        return key in self._backend

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)


def _capped(timeout: Any) -> int:
    return CACHE_SECONDS if timeout is None else max(0, min(int(timeout), CACHE_SECONDS))


class SessionStore(CachedDBStore):
    _cache: Any

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = _ShortLived(self._cache)

    def read_along(self) -> str | None:
        """The cache key this session's data is to be read under, while it is still to be
        read: a caller reading other keys of the same cache reads it in the same round
        trip (``ops.pages.cache``), then hands it over (``read_with``)."""
        if self.session_key is None or hasattr(self, "_session_cache"):
            return None
        return str(self.cache_key_prefix + self.session_key)

    def read_with(self, data: Any) -> None:
        """This session's data as read along (``read_along``), which its load would have
        read from the cache; nothing when none was there (its load then reads the
        database, as always)."""
        if data is not None and not hasattr(self, "_session_cache"):
            self._session_cache = data
