"""The site icon: a black and a white stone, as SVG (browsers ask for /favicon.ico)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect width="32" height="32" rx="4" fill="#dcb35c"/>'
    '<circle cx="11" cy="11" r="8" fill="#111"/>'
    '<circle cx="21" cy="21" r="8" fill="#fafafa" stroke="#111" stroke-width="1"/>'
    "</svg>"
)


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ICON, content_type="image/svg+xml")
