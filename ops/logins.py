"""What a locked-out login sees (django-axes calls ``lockout_response``).

Too many failed logins for one username, or from one address, lock it out for
``AXES_COOLOFF_TIME``; the right password is refused too until then (README, "Security").
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_MESSAGE = (
    "Too many failed logins for this account or from this address: try again in {minutes} minutes."
)


def locked_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return LOCKED_MESSAGE.format(minutes=minutes)


def lockout_response(
    request: HttpRequest,
    response: HttpResponse | None = None,
    credentials: Any = None,
    *args: Any,
    **kwargs: Any,
) -> HttpResponse:
    """429: JSON for the API, the login page with the reason for a browser."""
    message = locked_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"message": message, "extra": {}}, status=429)
    # Rendered now: the middleware that calls this runs after the template-response phase.
    return render(request, "registration/locked_out.html", {"message": message}, status=429)
