"""Counting wrong guesses of a secret that travels in a URL (the result slips' codes).

Counted per target (``"game:12"``: both codes of one game) and per guessed value (one
code tried on many games), never per client address: a hall's players share one, and
one player's junk must not switch the codes off for the others.  The counts live in the
default cache, as DRF's throttles keep theirs, in fixed windows of
``GOREF_CODE_GUESS_MINUTES``; past ``GOREF_CODE_GUESS_LIMIT`` the caller refuses further
wrong guesses on a counter (429, not 404), deciding from the count each guess made, so
that guesses sent at once cannot all slip under the limit.  A right secret is checked
first and never refused here.  With Redis down the counts read as nothing
(``ops.pages.backends.ForgivingRedisCache``): the pages stay up, uncounted meanwhile.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache


def _key(name: str) -> str:
    # Hashed: a guessed value is whatever a client typed, and is no secret of ours to keep.
    return "guesses:" + hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()[:32]


def guess_failed(names: list[str]) -> dict[str, int]:
    """Count one wrong guess on each counter: each counter's count with this guess.  Past
    ``GOREF_CODE_GUESS_LIMIT`` the caller refuses it; at the limit exactly it reports it
    (the increment is atomic, so of guesses made at once one sees each count)."""
    window = settings.GOREF_CODE_GUESS_MINUTES * 60
    counts = {}
    for name in names:
        key = _key(name)
        cache.add(key, 0, timeout=window)  # the first wrong guess opens the window
        try:
            counts[name] = cache.incr(key)
        except ValueError:  # expired between the two calls: this guess opens a new window
            cache.set(key, 1, timeout=window)
            counts[name] = 1
    return counts
