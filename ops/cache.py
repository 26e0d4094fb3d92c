"""The read cache: versioned entries, bumped after commit by the services that write.

A cached read names the objects it shows (``"player:12"``, ``"tournament:3"``,
``"ratings"``); its key carries their current versions, so a write only has to
bump a version (``changed``, called by ``ops.services.validate_and_save`` for
every saved row, or ``touch`` for bulk writes) and the next read misses.
Apps say which versions a saved row changes with ``register``.

The cache may live on the broker's Redis (settings, ``REDIS_URL``): an error
there reads as a miss and a failed bump is logged, never raised, so a write
never fails or waits on it.  Entries also expire (``CACHES`` ``TIMEOUT``),
which bounds what a bump lost in a Redis outage can leave stale.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db import models, transaction

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds this process stops asking a Redis that just failed (reads only).
DOWN_SECONDS = 5.0
_VERSION_PREFIX = "v:"


class _Miss:
    pass


_MISS: Any = _Miss()
MISSING: Any = _MISS  # what ``peek`` returns for an entry not there
_registry: dict[type[models.Model], Callable[[Any], Iterable[str]]] = {}


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

    After an error, reads skip Redis for a few seconds so that requests do
    not each wait on its socket timeout; writes always try, because a lost
    invalidation is worse than a short wait.
    """

    _down_until = 0.0

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool

    def _failed(self, what: str) -> None:
        type(self)._down_until = time.monotonic() + DOWN_SECONDS
        log.warning("cache %s failed (Redis unavailable)", what, exc_info=True)

    def is_down(self) -> bool:
        """Whether Redis failed in the last few seconds (reads skip it meanwhile)."""
        return time.monotonic() < type(self)._down_until

    @classmethod
    def forget_down(cls) -> None:
        """Forget a failure: the next read tries Redis (a test's fresh start)."""
        cls._down_until = 0.0

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
    ``cached`` and the pages' ``{% cache ... using="versioned" %}``): such a key
    never names stale content, so a copy kept in this process is as good as
    the shared one, and a hit costs no round trip (the versions still cost one).
    """

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        value = super().get(key, _MISS, version)
        if value is not _MISS:
            return value
        value = caches["default"].get(key, _MISS, version)
        if value is _MISS:
            return default
        super().set(key, value, version=version)
        return value

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        super().set(key, value, timeout, version)
        caches["default"].set(key, value, timeout, version)


# --------------------------------------------------------------------------- versions


def register(model: type[models.Model], names: Callable[[Any], Iterable[str]]) -> None:
    """Say which version names a saved ``model`` row changes (apps call this when ready)."""
    _registry[model] = names


def changed(obj: models.Model) -> None:
    """Bump, after commit, the versions a saved row changes (nothing if unregistered)."""
    names = _registry.get(type(obj))
    if names is not None:
        touch(*names(obj))


def changed_many(objs: Iterable[models.Model]) -> None:
    """``changed`` for rows written in bulk: one bump after commit for all their versions.
    For models whose names are cheap to compute (no query per row)."""
    names: set[str] = set()
    for obj in objs:
        of = _registry.get(type(obj))
        if of is not None:
            names.update(of(obj))
    touch(*names)


def touch(*names: str) -> None:
    """Bump the named versions after the current transaction commits (at once outside one)."""
    wanted = sorted(set(names))
    if wanted:
        after_commit(lambda: _bump(wanted))


# Tests that never commit (each runs in one rolled-back transaction) bump at once.
after_commit: Callable[[Callable[[], object]], None] = transaction.on_commit


def _bump(names: list[str]) -> None:
    # A fresh value rather than incr(): a version that expired or was lost
    # with Redis's memory must not restart at a value old entries still carry.
    stamp = time.time_ns()
    for n in names:  # this process sees its own writes at once, whatever max_age
        _seen.pop(n, None)
    warms = _warms_of(names)
    try:
        # The flags first: no reader may see the new version before it knows a worker
        # is rebuilding what shows it (else it rebuilds it too, in a web process).
        if warms:
            cache.set_many(
                {_flag(e): stamp for _, entries in warms for e in entries},
                timeout=settings.GOREF_WARM_SECONDS,
            )
        cache.set_many({_VERSION_PREFIX + n: stamp for n in names}, timeout=None)
    except Exception:  # any backend: a lost bump is bounded by the entries' timeout
        log.warning("cache versions %s not bumped", names, exc_info=True)
    for queue, entries in warms:
        if not queue():  # no worker will come: the readers rebuild, as without warming
            unflag(entries)


# name -> (version, monotonic time it was read): versions this process read lately.
_seen: dict[str, tuple[Any, float]] = {}


def forget_versions() -> None:
    """Forget the versions this process has read: the next read asks the shared cache
    (a benchmark's cold read, a test's fresh start)."""
    _seen.clear()


def versions(names: Iterable[str], max_age: float = 0.0) -> str:
    """The current versions of ``names`` as one key fragment (missing ones are started).

    ``max_age`` > 0: versions this process read less than that many seconds ago
    are used without asking the cache: a read may then miss a write made in
    another process that long ago.  For visitors only (the views pass it for
    requests with no session or token); whoever signs in and writes reads
    exact versions.
    """
    names = list(names)
    now = time.monotonic()
    if max_age > 0:
        memo = [_seen.get(n) for n in names]
        if all(m is not None and now - m[1] < max_age for m in memo):
            return ".".join(str(m[0]) for m in memo if m is not None)
    keys = [_VERSION_PREFIX + n for n in names]
    found = cache.get_many(keys)
    missing = {k: time.time_ns() for k in keys if k not in found}
    if missing:
        cache.set_many(missing, timeout=None)
        found.update(missing)
    if len(_seen) > 10_000:
        _seen.clear()
    for n, k in zip(names, keys, strict=True):
        _seen[n] = (found[k], now)
    return ".".join(str(found[k]) for k in keys)


def visitor_max_age(request: Any) -> float:
    """``GOREF_VISITOR_STALE_SECONDS`` for a request with no signed-in user, else 0."""
    from ops.services import is_authenticated

    if is_authenticated(getattr(request, "user", None)):
        return 0.0
    return float(settings.GOREF_VISITOR_STALE_SECONDS)


def peek(key: str, depends_on: Iterable[str], max_age: float = 0.0) -> Any:
    """What ``cached(key, depends_on, ...)`` holds now, or ``MISSING`` (nothing is built)."""
    return caches["versioned"].get(f"{key}@{versions(depends_on, max_age)}", MISSING)


def cached(
    key: str,
    depends_on: Iterable[str],
    compute: Callable[[], T],
    timeout: int | None = None,
    max_age: float = 0.0,
) -> T:
    """``compute()``, kept under ``key`` until one of ``depends_on`` is bumped
    (``max_age``: as for ``versions``); rebuilt by one thread at a time (``single_flight``)."""
    return single_flight(f"{key}@{versions(depends_on, max_age)}", compute, timeout)


# A rebuild that takes longer than this lets another thread start one.
LOCK_SECONDS = 30
# How long a thread with no stale copy waits for another's rebuild before doing its own.
WAIT_SECONDS = 5.0
_POLL_SECONDS = 0.02


def single_flight(full: str, compute: Callable[[], T], timeout: int | None = None) -> T:
    """The entry under the version-keyed ``full`` key (``name@versions``), built by one
    thread in all processes when it is missing.

    The thread that takes the lock (an ``add`` on the shared cache) computes; the
    others serve the entry last built under the same name, stale by at most one
    rebuild, or, with none, wait for the new one (at most ``WAIT_SECONDS``, then
    compute it themselves).  Without this, every thread that missed a 400 ms page
    right after a write rebuilt it at once.  An entry a worker was asked to rebuild
    for these versions (``register_warmer``) is waited for the same way, so that no
    web process rebuilds it at all.
    """
    entries = caches["versioned"]
    hit = entries.get(full, _MISS)
    if hit is not _MISS:
        found: T = hit
        return found
    name, _, stamps = full.partition("@")
    if _shared_cache_down():  # no lock to take, no stale copy to share: build it here
        return _build(full, name, compute, timeout, share=False)
    if _warming.get():  # the worker asked to rebuild it: no lock to wait on
        return _build(full, name, compute, timeout)
    # Inside another entry's rebuild, a stale copy would be kept under that entry's new
    # versions (a whole page built around a stale fragment): wait for the fresh one.
    wanted = [_flag(name)] if _building.get() else [_flag(name), f"last:{name}"]
    known = cache.get_many(wanted)
    warmed = str(known.get(_flag(name), "-")) in stamps.split(".")
    if not warmed:
        lock = f"lock:{full}"
        if cache.add(lock, 1, timeout=LOCK_SECONDS):
            try:
                return _build(full, name, compute, timeout)
            finally:
                cache.delete(lock)
    stale = known.get(f"last:{name}", _MISS)
    if stale is not _MISS:
        last: T = stale
        return last
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)
        hit = entries.get(full, _MISS)
        if hit is not _MISS:
            waited: T = hit
            return waited
    return _build(full, name, compute, timeout)


# Whether this thread (this context) is computing an entry: per context, so threads
# never see each other's.
_building: ContextVar[bool] = ContextVar("goref_cache_building", default=False)


# Whether this context is a worker's rebuild asked for by ``register_warmer``'s queue.
_warming: ContextVar[bool] = ContextVar("goref_cache_warming", default=False)


def _build(
    full: str, name: str, compute: Callable[[], T], timeout: int | None, share: bool = True
) -> T:
    token = _building.set(True)
    try:
        value = compute()
    finally:
        _building.reset(token)
    if timeout is None:
        entries_timeout: Any = DEFAULT_TIMEOUT
    else:
        entries_timeout = timeout
    caches["versioned"].set(full, value, entries_timeout)
    # The copy served while the next rebuild runs: in the shared cache only, because
    # unlike a version-keyed entry it changes under the same key.
    if share:
        cache.set(f"last:{name}", value, entries_timeout)
    return value


def _shared_cache_down() -> bool:
    """Whether the shared cache just failed (its ``add`` then says nothing about a lock);
    a cache that is not ``ForgivingRedisCache`` (local memory in development) never is."""
    backend = caches["default"]
    return isinstance(backend, ForgivingRedisCache) and backend.is_down()


# --------------------------------------------------------------------------- warming

_FLAG_PREFIX = "warming:"


@dataclass(frozen=True)
class _Warmer:
    prefix: str
    entries: Callable[[str], list[str]]
    queue: Callable[[str], bool]


_warmers: list[_Warmer] = []


def register_warmer(
    prefix: str, entries: Callable[[str], list[str]], queue: Callable[[str], bool]
) -> None:
    """After a bump of a version named ``prefix...``, ``queue(name)`` asks a worker to
    rebuild the entries named ``entries(name)`` (False: it could not).

    Until the worker has, or for ``GOREF_WARM_SECONDS`` at most, readers of those
    entries serve the copy last built (or wait for the new one) instead of rebuilding
    it in the web process: a 100-300 ms rebuild there holds the process's other
    threads (the GIL) and the page's tail latency with them.  Apps call this when ready.
    """
    _warmers.append(_Warmer(prefix, entries, queue))


@contextmanager
def warming() -> Iterator[None]:
    """The worker's side of ``register_warmer``: entries missing in this block are built
    here, whoever holds their lock or their flag, and versions are read afresh."""
    forget_versions()  # this process's own memo may predate the bump
    token = _warming.set(True)
    try:
        yield
    finally:
        _warming.reset(token)


def unflag(entries: Iterable[str]) -> None:
    """The worker could not build these entries (the page is gone, or failed): readers
    build them again at once rather than serve the last copy until the flags expire."""
    cache.delete_many([_flag(e) for e in entries])


def _flag(entry: str) -> str:
    return _FLAG_PREFIX + entry


def _warms_of(names: list[str]) -> list[tuple[Callable[[], bool], list[str]]]:
    """(queue it, entries it rebuilds) for each warmer of these bumped names."""
    if not settings.GOREF_WARM_PAGES:
        return []
    return [
        (functools.partial(w.queue, n), w.entries(n))
        for n in names
        for w in _warmers
        if n.startswith(w.prefix)
    ]
