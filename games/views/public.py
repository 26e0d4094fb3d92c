"""Public pages served from the cache: the whole page for a visitor with no session, a
cached fragment for everyone else (docs/operations.md, "Caching")."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject

from ops import cache
from ops.compress import MIN_BYTES, Page, accepts_gzip


def lazy_context(compute: Callable[[], dict[str, Any]], keys: Iterable[str]) -> dict[str, Any]:
    """Context values computed on first use, all from one call of ``compute``: a page
    whose cached fragment is still good never runs its queries."""
    once = functools.cache(compute)
    return {key: SimpleLazyObject(functools.partial(lambda k: once()[k], key)) for key in keys}


class _NotCached(Exception):
    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def visitor_cached(
    request: HttpRequest, key: str, names: list[str], page: Callable[[], HttpResponse]
) -> HttpResponse:
    """The whole page from the cache for a visitor with no session (nothing on it is his),
    until one of ``names`` is bumped, compressed once (``ops.compress``); anyone else gets
    ``page()``, itself built around a cached fragment."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return page()

    def build() -> Page:
        response = page()
        if response.status_code != 200:
            raise _NotCached(response)
        return Page.of(response.content.decode(response.charset or "utf-8"), csp_nonce(request))

    try:
        cached_page = cache.cached(key, names, build, max_age=settings.GOREF_VISITOR_STALE_SECONDS)
    except _NotCached as refused:
        return refused.response
    # A Content-Security-Policy nonce is per request: this one's, not the first's.
    nonce = csp_nonce(request)
    if cached_page.size < MIN_BYTES or not accepts_gzip(request):
        response = HttpResponse(cached_page.body(nonce))
    else:
        # No secret is on a visitor's page (no session, no CSRF token), so compressing it
        # gives BREACH nothing to find (docs/operations.md, "Compression").
        response = HttpResponse(cached_page.gzipped(nonce))
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def csp_nonce(request: HttpRequest) -> str:
    """The request's CSP nonce when a CSP middleware gives it one (else empty)."""
    # django-csp's nonce is lazy and reads as false until first turned into text.
    nonce = getattr(request, "csp_nonce", None)
    return "" if nonce is None else str(nonce)
