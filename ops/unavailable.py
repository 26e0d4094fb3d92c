"""503 while the database is unreachable: the API in its error shape, pages as a plain page.

``DatabaseUnavailableMiddleware`` answers for errors raised in a view (with
DEBUG on or off); ``server_error`` (the root URLconf's ``handler500``) for
those raised anywhere else, such as a middleware that loads the session.  Both
name ``Retry-After``.  Nothing is half-written: every write is one transaction.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext_lazy
from django.views import defaults

from ops.services import TRANSIENT_DB_ERRORS

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10
MESSAGE = gettext_lazy("The database is unavailable. Please try again in a few seconds.")


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer for ``request``: JSON under /api/, the plain page elsewhere."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"message": MESSAGE, "extra": {}}, status=503)
    else:
        # No context processors: they might ask the database again.
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, TRANSIENT_DB_ERRORS):
            log.error("database unavailable: %s", exc)
            return unavailable(request)
        return None


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """Django's 500 page, or the 503 answer when the error is the database's."""
    exc = sys.exc_info()[1]
    if isinstance(exc, TRANSIENT_DB_ERRORS):
        return unavailable(request)
    return defaults.server_error(request, template_name)
