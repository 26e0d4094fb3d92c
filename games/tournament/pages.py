"""An event's busiest pages, rebuilt by the worker after each write to the event: the
tournament's warmer of the page cache (``ops.pages.warming``).

Every result entered bumps the event's version (``games.cache``), so every cached copy
of its tournament page and standings misses at once.  Rebuilding them takes 100-300 ms
of CPU at congress size; done in a web process, it holds that process's other threads
(the GIL) for as long, and hundreds of phones reloading the standings feel it.  So the
bump queues ``games.pages_warm`` instead (``games.tournament.tasks``, which registers
this warmer): the worker requests both pages as a visitor would, which builds and caches
them (the whole visitor page and the fragment that a signed-in user's page is built
around), while readers get the copy built before the write (docs/operations.md, "The
page cache").
"""

from __future__ import annotations

import functools
import io

from django.conf import settings
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.urls import reverse

from games.selectors import tournament_language_of
from ops.pages import cache
from ops.pages.responses import fragment_entry, visitor_entry
from ops.pages.warming import unflag

# The name of the tournament page's cached body (its template's ``body_fragment``).
TOURNAMENT_BODY = "tournament-main"
PREFIX = "tournament:"  # games.cache.tournament's names: the versions this warms after


def tournament_key(pk: object) -> str:
    """The tournament page's visitor cache key (``visitor_cached``)."""
    return f"page.tournament.{pk}"


def standings_key(pk: object, number: int | None, printable: bool) -> str:
    """The standings page's fragment name; its visitor key is ``page.`` + this."""
    return f"standings.{pk}.{'last' if number is None else number}.{int(printable)}"


def warmed_entries(version: str) -> list[str]:
    """The cache entries the worker rebuilds after a bump of ``tournament:<pk>``."""
    pk = version.removeprefix(PREFIX)
    standings = standings_key(pk, None, printable=False)
    # The worker visits as a visitor who asked for no language: the tournament's pages
    # are then in its own (config.locale); other languages are built on first request.
    language = tournament_language_of(tournament_id=pk) or settings.LANGUAGE_CODE
    return [
        visitor_entry(tournament_key(pk), language),
        fragment_entry(f"{TOURNAMENT_BODY}.{pk}", language),
        visitor_entry(f"page.{standings}", language),
        fragment_entry(standings, language),
    ]


def warm(pk: int) -> list[int]:
    """Build and cache the event's tournament page and standings as a visitor's request
    would (the whole middleware stack: the CSP nonce is cut out of the cached page as
    for any visitor); their status codes."""
    paths = [reverse("games:tournament", args=[pk]), reverse("games:standings", args=[pk])]
    with cache.warming():
        statuses = [_visit(path) for path in paths]
    if any(status != 200 for status in statuses):  # deleted meanwhile, or an error
        unflag(warmed_entries(f"{PREFIX}{pk}"))
    return statuses


@functools.cache
def _handler() -> BaseHandler:
    handler = BaseHandler()
    handler.load_middleware()
    return handler


def _visit(path: str) -> int:
    host = next(
        (h.lstrip(".") for h in settings.ALLOWED_HOSTS if h != "*" and h.strip(".")),
        "localhost",
    )
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": path,
            "SCRIPT_NAME": "",
            "QUERY_STRING": "",
            "SERVER_NAME": host,
            "SERVER_PORT": "443",
            "HTTP_HOST": host,
            "HTTP_ACCEPT_ENCODING": "gzip",
            "wsgi.url_scheme": "https",  # no redirect under SECURE_SSL_REDIRECT
            "wsgi.input": io.BytesIO(),
        }
    )
    # Not response.close(): its request_finished would close the task's database
    # connection mid-task (Celery's own hooks look after it between tasks).
    return int(_handler().get_response(request).status_code)
