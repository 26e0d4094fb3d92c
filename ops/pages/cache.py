"""The page cache's one interface for apps: version names, bumped after a write commits,
and entries kept under the versions of what they show.

A cached read names the objects it shows (``"player:12"``, ``"tournament:3"``,
``"ratings"``); its key carries their current versions, so a write only has to
bump a version (``changed``, called by ``ops.services.validate_and_save`` for
every saved row, or ``touch`` for bulk writes) and the next read misses.
Apps say which versions a saved row changes with ``register``.  An entry missing
is rebuilt by one thread at a time (``single_flight``), or by a worker
(``ops.pages.warming``).  The whole picture: docs/operations.md, "The page cache".

The cache may live on the broker's Redis (``ops.pages.backends``): a failed bump is
logged, never raised, so a write never fails or waits on it.  Entries also expire
(``CACHES`` ``TIMEOUT``), which bounds what a bump lost in a Redis outage can leave stale.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.db import models, transaction
from django.utils.functional import SimpleLazyObject

from ops.pages.backends import MISSING, shared_cache_down
from ops.pages.warming import flag, unflag, warms_of
from ops.users import is_authenticated
from ops.users import version as user_version

log = logging.getLogger(__name__)
T = TypeVar("T")

_VERSION_PREFIX = "v:"


_registry: dict[type[models.Model], Callable[[Any], Iterable[str]]] = {}


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
    """Bump the named versions after the current transaction commits (at once outside one;
    at the write under ``GOREF_CACHE_BUMP_AT_WRITE``: tests, whose transaction never commits)."""
    wanted = sorted(set(names))
    if not wanted:
        return
    if settings.GOREF_CACHE_BUMP_AT_WRITE:
        bump(wanted)
    else:
        transaction.on_commit(functools.partial(bump, wanted))


def bump(names: list[str]) -> None:
    """Bump the named versions now (``touch`` calls it once the write has committed)."""
    # A fresh value rather than incr(): a version that expired or was lost
    # with Redis's memory must not restart at a value old entries still carry.
    stamp = time.time_ns()
    read = _request.get()
    for n in names:  # this process sees its own writes at once, whatever max_age
        _seen.pop(n, None)
        if read is not None:  # and so does the request that wrote
            read.found.pop(n, None)
    warms = warms_of(names)
    try:
        # The flags first: no reader may see the new version before it knows a worker
        # is rebuilding what shows it (else it rebuilds it too, in a web process).
        if warms:
            cache.set_many(
                {flag(e): stamp for _, entries in warms for e in entries},
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


class _RequestRead:
    """The versions one request has read, and whether its first read was made."""

    def __init__(self, request: Any) -> None:
        self.request = request
        self.found: dict[str, Any] = {}
        self.hinted = False


# The request this thread serves (``reading_versions``): per context, never shared.
_request: ContextVar[_RequestRead | None] = ContextVar("goref_request_versions", default=None)

# User id -> the other versions his requests read (his header's): this process's memory.
_with_user = LocMemCache("goref-user-versions", {"MAX_ENTRIES": 10_000, "TIMEOUT": 3600})
# Session cookie -> the versions its user's requests read (his own and the above), so
# that his next request reads them with its session, before knowing who he is.
_with_session = LocMemCache("goref-session-versions", {"MAX_ENTRIES": 10_000, "TIMEOUT": 3600})


def read_with_user(user_id: Any, names: list[str]) -> None:
    """Say that a signed-in user's requests read ``names`` too: from his next request on,
    they are read with its first read, in the same round trip, beside his own
    ``user:<id>``.  Only a saving: a name no longer read is read and not used."""
    if _with_user.get(str(user_id)) != names:
        _with_user.set(str(user_id), names)
    read = _request.get()
    cookie = None if read is None else read.request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if cookie is not None:
        _remember(cookie, user_id)


def _remember(cookie: str, user_id: Any) -> list[str]:
    """The versions the session ``cookie``'s user reads (his own, his header's), kept by
    the cookie for its next request's first read."""
    mine = sorted({user_version(user_id), *(_with_user.get(str(user_id)) or ())})
    if _with_session.get(cookie) != mine:
        _with_session.set(cookie, mine)
    return mine


@contextmanager
def reading_versions(request: Any) -> Iterator[None]:
    """Within a request: each version is read once, and all of them in as few round trips
    as the request's order allows (``RequestVersionsMiddleware``).  The request then sees
    one state of the cache throughout, and a write it makes is read back afresh."""
    token = _request.set(_RequestRead(request))
    try:
        yield
    finally:
        _request.reset(token)


def _fetch(names: list[str], along: str | None = None) -> tuple[dict[str, Any], Any]:
    """The versions of ``names`` from the shared cache, the missing ones started; and
    the entry under the key ``along`` (a session's), read in the same round trip."""
    keys = {_VERSION_PREFIX + n: n for n in names}
    found = cache.get_many([*keys, along] if along is not None else list(keys))
    extra = found.pop(along, None) if along is not None else None
    missing = {k: time.time_ns() for k in keys if k not in found}
    if missing:
        cache.set_many(missing, timeout=None)
        found.update(missing)
    return {n: found[k] for k, n in keys.items()}, extra


def _first_read(read: _RequestRead, wanted: list[str]) -> dict[str, Any]:
    """The request's first read: ``wanted``, the session (when it is still to be read from
    the same cache), and the versions its user's requests read, remembered by session in
    this process: one round trip.  A second one only when the session's user has none
    remembered (his first request here, or another user behind the cookie)."""
    read.hinted = True
    request = read.request
    cookie = getattr(request, "COOKIES", {}).get(settings.SESSION_COOKIE_NAME)
    if cookie is None:  # a visitor: no session to read
        return _fetch(wanted)[0]
    session = getattr(request, "session", None)
    reading = getattr(session, "read_along", None)
    along = reading() if reading is not None and settings.SESSION_CACHE_ALIAS == "default" else None
    remembered = _with_session.get(cookie) or []
    found, data = _fetch(sorted({*wanted, *remembered}), along)
    if along is not None and session is not None:
        session.read_with(data)  # what its load would have read from the cache
    user_id = None if session is None else session.get(SESSION_KEY)
    if user_id is None:
        return found
    mine = _remember(cookie, user_id)
    if missing := [n for n in mine if n not in found]:
        found.update(_fetch(missing)[0])
    return found


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
    read = _request.get()
    if read is None:
        found = _fetch(names)[0]
    else:
        wanted = [n for n in names if n not in read.found]
        if wanted and not read.hinted:
            read.found.update(_first_read(read, wanted))
        elif wanted:
            read.found.update(_fetch(wanted)[0])
        found = read.found
    if len(_seen) > 10_000:
        _seen.clear()
    for n in names:
        _seen[n] = (found[n], now)
    return ".".join(str(found[n]) for n in names)


def is_visitor(request: Any) -> bool:
    """Whether no user is signed in on ``request``.  Without a session cookie nobody is,
    whatever the session middleware's lazy user would load (an anonymous user, after
    creating an empty session): answered without loading it, a tenth of a lookup."""
    user = getattr(request, "user", None)
    if (
        isinstance(user, SimpleLazyObject)
        and settings.SESSION_COOKIE_NAME not in getattr(request, "COOKIES", {})
        and "HTTP_AUTHORIZATION" not in getattr(request, "META", {})
    ):
        return True
    return not is_authenticated(user)


def visitor_max_age(request: Any) -> float:
    """``GOREF_VISITOR_STALE_SECONDS`` for a request with no signed-in user, else 0."""
    if not is_visitor(request):
        return 0.0
    return float(settings.GOREF_VISITOR_STALE_SECONDS)


def peek(key: str, depends_on: Iterable[str], max_age: float = 0.0) -> Any:
    """What ``cached(key, depends_on, ...)`` holds now, or ``backends.MISSING`` (nothing is
    built)."""
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
    for these versions (``ops.pages.warming``) is waited for the same way, so that no
    web process rebuilds it at all.
    """
    entries = caches["versioned"]
    hit = entries.get(full, MISSING)
    if hit is not MISSING:
        found: T = hit
        return found
    name, _, stamps = full.partition("@")
    if shared_cache_down():  # no lock to take, no stale copy to share: one thread here
        return _build_here(full, name, compute, timeout)
    if _warming.get():  # the worker asked to rebuild it: no lock to wait on
        return _build(full, name, compute, timeout)
    # Inside another entry's rebuild, a stale copy would be kept under that entry's new
    # versions (a whole page built around a stale fragment): wait for the fresh one.
    wanted = [flag(name)] if _building.get() else [flag(name), f"last:{name}"]
    known = cache.get_many(wanted)
    warmed = str(known.get(flag(name), "-")) in stamps.split(".")
    if not warmed:
        lock = f"lock:{full}"
        if cache.add(lock, 1, timeout=LOCK_SECONDS):
            try:
                return _build(full, name, compute, timeout)
            finally:
                cache.delete(lock)
    stale = known.get(f"last:{name}", MISSING)
    if stale is not MISSING:
        last: T = stale
        return last
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)
        hit = entries.get(full, MISSING)
        if hit is not MISSING:
            waited: T = hit
            return waited
    return _build(full, name, compute, timeout)


# Whether this thread (this context) is computing an entry: per context, so threads
# never see each other's.
_building: ContextVar[bool] = ContextVar("goref_cache_building", default=False)


# Whether this context is a worker's rebuild asked for by a warmer's queue (``warming``).
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


class _Flight:
    """One thread's rebuild of a page in this process, and what it built for the
    threads that waited on it."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = MISSING


# Page name (without versions) -> its rebuild in this process while the shared cache is down.
_flights: dict[str, _Flight] = {}
_flights_lock = threading.Lock()


def _build_here(full: str, name: str, compute: Callable[[], T], timeout: int | None) -> T:
    """Build the entry with the shared cache down: no shared lock can be taken, so one
    thread per page in this process builds it and the others wait for its value
    (stale by at most that rebuild), never all at once.  Keyed by the name alone: with
    no versions to read, each request makes fresh ones."""
    with _flights_lock:
        flight = _flights.get(name)
        leader = flight is None
        if flight is None:
            flight = _flights[name] = _Flight()
    if not leader:
        if flight.done.wait(WAIT_SECONDS) and flight.value is not MISSING:
            built: T = flight.value
            return built
        return _build(full, name, compute, timeout, share=False)  # it failed, or is stuck
    try:
        flight.value = _build(full, name, compute, timeout, share=False)
        return flight.value  # type: ignore[no-any-return]
    finally:
        with _flights_lock:
            _flights.pop(name, None)
        flight.done.set()


@contextmanager
def warming() -> Iterator[None]:
    """The worker's side of ``ops.pages.warming.register_warmer``: entries missing in this
    block are built here, whoever holds their lock or their flag, and versions are read
    afresh."""
    forget_versions()  # this process's own memo may predate the bump
    token = _warming.set(True)
    try:
        yield
    finally:
        _warming.reset(token)
