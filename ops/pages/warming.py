"""Warming: after a bump, a worker rebuilds the busiest entries while readers keep
serving the copy built before the write.

An app registers a warmer for a family of version names (``register_warmer``); the
bump (``ops.pages.cache``) raises a flag for each entry it rebuilds, then queues it.
A flag tells readers that a worker is on its way; the worker's side is
``ops.pages.cache.warming``.  docs/operations.md, "The page cache".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from ops.pages.backends import shared_cache_down

_FLAG_PREFIX = "warming:"
_PENDING_PREFIX = "warm-pending:"


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


def unflag(entries: Iterable[str]) -> None:
    """The worker could not build these entries (the page is gone, or failed): readers
    build them again at once rather than serve the last copy until the flags expire."""
    cache.delete_many([flag(e) for e in entries])


def flag(entry: str) -> str:
    """The shared cache's key that says a worker is rebuilding ``entry``."""
    return _FLAG_PREFIX + entry


def warms_of(names: list[str]) -> list[tuple[Callable[[], bool], list[str]]]:
    """(queue it, entries it rebuilds) for each warmer of these bumped names."""
    if not settings.GOREF_WARM_PAGES:
        return []
    return [
        (functools.partial(_queue_once, w.queue, n), w.entries(n))
        for n in names
        for w in _warmers
        if n.startswith(w.prefix)
    ]


def _queue_once(queue: Callable[[str], bool], name: str) -> bool:
    """``queue(name)`` unless a rebuild of ``name`` is already waiting in the queue: that
    one reads the versions current when it starts (``started``), this bump's included.

    Without this, a burst of results queued one rebuild per write (hundreds) on the
    queue.  The mark expires after ``GOREF_WARM_SECONDS``, as the flags do, so a lost
    message holds back no later rebuild for longer than readers trust the flags.
    """
    key = _PENDING_PREFIX + name
    if not cache.add(key, 1, timeout=settings.GOREF_WARM_SECONDS) and not shared_cache_down():
        return True  # one is waiting
    if queue(name):
        return True
    cache.delete(key)
    return False


def started(name: str) -> None:
    """A worker starts the rebuild after a bump of ``name`` (before it reads the
    versions): a bump from now on queues another."""
    cache.delete(_PENDING_PREFIX + name)
