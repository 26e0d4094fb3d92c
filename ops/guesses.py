"""Throttling wrong guesses of a secret that travels in a URL (the result slips' codes).

Counted per client address, the address the login throttle reads
(``ops.logins.client_address``: behind a named proxy, the client's), in the default
cache as DRF's throttles count, in fixed windows of ``GOREF_CODE_GUESS_MINUTES``.
Only wrong guesses count; once an address reaches ``GOREF_CODE_GUESS_LIMIT`` in a
window, every guess from it is refused, the right ones included, until the window
ends, so guessing on does not pay.  With Redis down the count reads as nothing
(``ops.pages.backends.ForgivingRedisCache``): the pages stay up, unthrottled meanwhile.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from ops.logins import client_address


def _keys(request: HttpRequest, scope: str) -> tuple[str, str]:
    address = client_address(request) or "unknown"
    return f"guesses:{scope}:{address}", f"guesses:{scope}:{address}:until"


def guesses_blocked(request: HttpRequest, scope: str) -> int | None:
    """Minutes until this address may guess again, or ``None`` when it may now."""
    count_key, until_key = _keys(request, scope)
    found = cache.get_many([count_key, until_key])
    count, until = found.get(count_key, 0), found.get(until_key)
    if count < settings.GOREF_CODE_GUESS_LIMIT or until is None:
        return None
    left = until - time.time()
    return max(1, math.ceil(left / 60)) if left > 0 else None


def guess_failed(request: HttpRequest, scope: str) -> None:
    """Count one wrong guess from this address; the first one opens its window."""
    count_key, until_key = _keys(request, scope)
    window = settings.GOREF_CODE_GUESS_MINUTES * 60
    if cache.add(count_key, 0, timeout=window):
        cache.set(until_key, time.time() + window, timeout=window)
    try:
        cache.incr(count_key)
    except ValueError:  # expired between the two calls: this guess opens a new window
        cache.set(count_key, 1, timeout=window)
        cache.set(until_key, time.time() + window, timeout=window)
