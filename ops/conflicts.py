"""409 for a race lost on a database constraint: two requests that each checked, then
both wrote, and the database refused the second (``IntegrityError``).

Services catch the races they expect and answer ``StateConflict``; this is the net
under them, so a race is never a 500.  The transaction rolled back: nothing is
half-written.  The API answers in its error shape, pages with a plain page.  Only a
unique violation is a race: a NOT NULL, foreign-key or CHECK violation is a bug, and
stays a 500 that the error log shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

log = logging.getLogger(__name__)

MESSAGE = "Someone else changed this at the same moment: reload and try again."
BUSY = "Another import is identifying the same players right now: try again in a minute."
# PostgreSQL's SQLSTATEs for a lock wait that gave up, and for a deadlock it broke.
_GAVE_UP = {"55P03", "40P01"}


def lost_race(exc: IntegrityError) -> bool:
    """Whether ``exc`` is a unique violation (two requests wrote the same key), logged with
    the database's words for the operator."""
    # PostgreSQL (psycopg) names the condition by SQLSTATE; SQLite only in its message.
    state = getattr(exc.__cause__, "sqlstate", None)
    race = state == "23505" if state is not None else "UNIQUE constraint failed" in str(exc)
    if race:
        log.warning("a race lost on a unique constraint: %s", exc)
    return race


def race_conflict(request: HttpRequest) -> HttpResponse:
    """The 409 answer for ``request``: JSON under /api/, a plain page elsewhere."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"message": MESSAGE, "extra": {}}, status=409)
    else:
        response = HttpResponse(loader.render_to_string("409.html", request=request), status=409)
    response["Cache-Control"] = "no-store"
    return response


class RaceConflictMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, IntegrityError) and lost_race(exc):
            return race_conflict(request)
        return None


def take_turns_on(keys: Iterable[str]) -> None:
    """Make the transactions that call this with a common key run one after the other,
    from here to their commit; transactions with no key in common never wait on each
    other.  A wait longer than ``GOREF_TURN_WAIT_SECONDS`` gives up with ``StateConflict``
    (409): the caller's transaction is then aborted, nothing it wrote stays.

    PostgreSQL: one upsert of the keys' rows (``TurnKey``) in sorted order, which
    row-locks them until commit.  SQLite already runs one writing transaction at a time."""
    from ops.services import StateConflict

    if not connection.in_atomic_block:
        raise RuntimeError("take_turns_on is for inside a transaction")
    wanted = sorted({k[:200] for k in keys})
    if not wanted or connection.vendor != "postgresql":
        return
    wait_ms = int(settings.GOREF_TURN_WAIT_SECONDS * 1000)
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lock_timeout')")
        (before,) = cursor.fetchone()
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{wait_ms}ms"])
        try:
            cursor.execute(
                "INSERT INTO ops_turnkey (key) SELECT k FROM unnest(%s::text[]) AS k ORDER BY k "
                "ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key",
                [wanted],
            )
        except OperationalError as exc:
            if getattr(exc.__cause__, "sqlstate", None) in _GAVE_UP:
                log.warning("gave up waiting for %s turn keys: %s", len(wanted), exc)
                raise StateConflict(BUSY) from None
            raise
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])
