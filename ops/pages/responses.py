"""Public pages served from the cache: the whole page for a visitor with no session, a
cached fragment for everyone else (``ops.pages.fragments``), both kept compressed
(docs/operations.md, "The page cache" and "Compression")."""

from __future__ import annotations

import functools
import gzip
import re
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from ops.pages import cache
from ops.pages.backends import MISSING
from ops.pages.compress import MIN_BYTES, CutPage, Page, accepts_gzip, gzipped

# The context variable that collects a page's cached fragments (``splice_mark``).
FRAGMENTS = "spliced_fragments"
# Stands for a fragment in the rendered page until it is spliced in: random per process,
# and an HTML comment, which no escaped text can contain.
_MARK = f"<!--fragment-{secrets.token_hex(16)}-"
# A mark and the fragment's place in the page's list: a view may splice one in before
# the template adds its own (the standings' body before the header), so the marks are
# matched by number, not by order.
_MARKS = re.compile(re.escape(_MARK.encode()) + rb"(\d+)-->")
# GZipMiddleware's own BREACH padding (0-99 random bytes in the gzip header).
_PADDING = 100


def lazy_context(compute: Callable[[], dict[str, Any]], keys: Iterable[str]) -> dict[str, Any]:
    """Context values computed on first use, all from one call of ``compute``: a page
    whose cached fragment is still good never runs its queries."""
    once = functools.cache(compute)
    return {key: SimpleLazyObject(functools.partial(lambda k: once()[k], key)) for key in keys}


class _NotCached(Exception):
    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def visitor_entry(key: str, language: str | None = None) -> str:
    """The cache entry name of ``visitor_cached(request, key, ...)``'s whole page, in
    ``language`` (by default the request's, which the page is written in)."""
    # ".gz3": a page kept by an earlier release has other fields.
    return f"{key}.{language or get_language()}.gz3"


def fragment_entry(name: str, language: str | None = None) -> str:
    """The cache entry name of a page's compressed fragment called ``name``, in ``language``
    (by default the request's)."""
    return f"fragment.{name}.{language or get_language()}.gz"


def visitor_cached(
    request: HttpRequest, key: str, names: list[str], page: Callable[[], HttpResponse]
) -> HttpResponse:
    """The whole page from the cache for a visitor with no session (nothing on it is his),
    until one of ``names`` is bumped, compressed once (``ops.pages.compress``); anyone else gets
    ``page()``, itself built around a cached fragment."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return page()

    def build() -> CutPage:
        response = page()
        if response.status_code != 200:
            raise _NotCached(response)
        content = response.content
        if response.get("Content-Encoding") == "gzip":  # built around a compressed fragment
            content = gzip.decompress(content)
        return CutPage.of(content.decode(response.charset or "utf-8"), csp_nonce(request))

    try:
        cached_page = cache.cached(
            visitor_entry(key), names, build, max_age=settings.GOREF_VISITOR_STALE_SECONDS
        )
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


# The header of base.html, between its reader marks: what a page shows of its reader.
READER_TEMPLATE = "_header.html"


def reader_copy(request: HttpRequest, key: str, names: list[str]) -> HttpResponse | None:
    """A signed-in reader's copy of the visitor's page cached under ``key`` and ``names``
    (``visitor_cached``): that page around his own header (``READER_TEMPLATE``), only the
    header rendered and compressed for him.  For a view whose page shows its reader
    nothing but the header (the caller decides: not to an event's director); None when
    there is no copy to take (none cached under these versions, a page without the marks,
    a message waiting for him, a client that does not take gzip): the caller renders
    the page."""
    if cache.is_visitor(request) or not accepts_gzip(request):
        return None
    if len(messages.get_messages(request)):  # shown once on the page he is sent: render it
        return None
    visitor = cache.peek(visitor_entry(key), names)
    if visitor is MISSING or not visitor.cut:
        return None
    header = render_to_string(READER_TEMPLATE, request=request).encode()
    # His header holds a CSRF token: padded as GZipMiddleware pads (BREACH).
    parts = [visitor.before, header, visitor.after]
    response = HttpResponse(gzipped(parts, csp_nonce(request), padding=_PADDING))
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def csp_nonce(request: HttpRequest) -> str:
    """The request's CSP nonce when a CSP middleware gives it one (else empty)."""
    # django-csp's nonce is lazy and reads as false until first turned into text.
    nonce = getattr(request, "csp_nonce", None)
    return "" if nonce is None else str(nonce)


def splice_mark(context: Any, fragment: Page) -> SafeString:
    """What a template writes for a cached ``fragment``: a mark that ``render_spliced``
    replaces with it, or the fragment's text when the page is not rendered that way."""
    holder = context.get(FRAGMENTS)
    if holder is None:
        request = context.get("request")
        return mark_safe(fragment.body(csp_nonce(request) if request is not None else "").decode())
    holder.append(fragment)
    return mark_safe(f"{_MARK}{len(holder) - 1}-->")


def render_spliced(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """``render``, with the page's cached fragments (``splice_mark``) joined in as they
    were compressed when cached: only the text around them (the user's header, forms
    with his CSRF token) is compressed per request.  A client that does not take gzip
    gets them decompressed."""
    fragments: list[Page] = context.setdefault(FRAGMENTS, [])
    response = render(request, template, context)
    if not fragments:
        return response
    # Text, then each mark's number and the text after it.
    pieces = _MARKS.split(response.content)
    numbers = [int(n) for n in pieces[1::2]]
    if sorted(numbers) != list(range(len(fragments))):  # one rendered twice, or lost
        raise RuntimeError(f"{template}: {len(fragments)} fragments, marks {numbers}")
    parts: list[bytes | Page] = [pieces[0]]
    for number, after in zip(numbers, pieces[2::2], strict=True):
        parts += [fragments[number], after]
    nonce = csp_nonce(request)  # where a fragment was cut at the nonce of its first request
    if accepts_gzip(request):
        # The text around holds a CSRF token: padded as GZipMiddleware pads (BREACH).
        response.content = gzipped(parts, nonce, padding=_PADDING)
        response["Content-Encoding"] = "gzip"
    else:
        response.content = b"".join(p if isinstance(p, bytes) else p.body(nonce) for p in parts)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
