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
import zlib
from collections.abc import Callable

from django.db import IntegrityError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext_lazy

log = logging.getLogger(__name__)

MESSAGE = gettext_lazy("Someone else changed this at the same moment: reload and try again.")


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


def take_turns(name: str) -> None:
    """Make the transactions that call this with the same ``name`` run one after the
    other, from here to their commit: for a read-then-create that no unique constraint
    can guard (two imports each finding no "Jan Novák" and each creating one).

    PostgreSQL: a transaction-scoped advisory lock, released at commit or rollback.
    SQLite already runs one writing transaction at a time."""
    if not connection.in_atomic_block:
        raise RuntimeError("take_turns is for inside a transaction")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [zlib.crc32(name.encode())])
