"""goref's own middleware: the body limit below, one page-cache read per request
(``RequestVersionsMiddleware``), Django's gzip with a floor and django-csp's policy
built once (docs/operations.md, "The page cache" and "Compression").

``BodySizeLimitMiddleware``: a request body over ``GOREF_MAX_REQUEST_BYTES`` gets 413
before any byte of it is read.

Django caps form bodies (``DATA_UPLOAD_MAX_MEMORY_SIZE``) only when they are read
through ``request.POST``; Django REST framework's parsers read the raw stream, so
without this a 100 MB anonymous JSON body is parsed whole.  A body announced with
``Content-Length`` is judged by that header; a streamed body without one
(``Transfer-Encoding: chunked``) is read up to the limit and refused past it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from csp import constants as csp_constants
from csp import middleware as csp_middleware
from csp.utils import build_policy
from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware

from ops.pages import cache


def too_large(limit: int) -> JsonResponse:
    megabytes = limit / 1_000_000
    return JsonResponse(
        {
            "message": f"The request body is larger than {megabytes:g} MB.",
            "extra": {"limit_bytes": limit},
        },
        status=413,
    )


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(settings.GOREF_MAX_REQUEST_BYTES)
        meta = request.META
        length = meta.get("CONTENT_LENGTH")
        if length:
            try:
                size = int(length)
            except ValueError:
                return JsonResponse(
                    {"message": "Content-Length is not a number.", "extra": {}}, status=400
                )
            if size > limit:
                return too_large(limit)
        elif "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower() and "wsgi.input" in meta:
            # Read at most one byte past the limit: enough to know, never the whole stream.
            body = meta["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                return too_large(limit)
            meta["wsgi.input"] = io.BytesIO(body)
            meta["CONTENT_LENGTH"] = str(len(body))
            # Django sized the request's stream from the (missing) header when it made the
            # request: give it the body read here instead.
            request._stream = LimitedStream(meta["wsgi.input"], len(body))  # type: ignore[assignment]
        return self.get_response(request)


class RequestVersionsMiddleware:
    """Each page-cache version read once per request, the session and its user's with the
    first (``ops.pages.cache.reading_versions``): a signed-in page read its session, its
    event's version twice and its user's two more, five round trips where one does.
    After the session middleware, whose session it reads along, and before the first
    read (the language middleware's, on an event's page)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with cache.reading_versions(request):
            return self.get_response(request)


# A body this short leaves in one packet either way; gzip's header and its BREACH padding
# (up to 100 bytes) would take back most of what it saves (the API's lookups: 0.2-0.5 KB).
GZIP_MIN_BYTES = 1000


class GZipMiddleware(DjangoGZipMiddleware):
    """Django's ``GZipMiddleware``, leaving a body under ``GZIP_MIN_BYTES`` as it is (Django
    compresses from 200 bytes)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not response.streaming and len(getattr(response, "content", b"")) < GZIP_MIN_BYTES:
            return response
        return super().process_response(request, response)


# What a view's csp decorators leave on its response (django-csp): such a response takes
# the library's own path.
_PER_VIEW_CSP = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_exempt",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
    "_csp_exempt_ro",
)
# Stands for the request's nonce in the policy built once: base64 never contains it.
_NONCE_MARK = "goref-nonce-mark"


class CSPMiddleware(csp_middleware.CSPMiddleware):
    """django-csp's middleware, with the site's policy built once, by the library's own
    ``build_policy``, rather than for every response (45 µs, a sixth of a lookup): a
    response whose view changed nothing of it gets that text, with the request's nonce
    put in when the page used one.  Any per-view change, a report-only policy or DEBUG's
    error pages take the library's path (``tests/config/test_csp.py`` compares both)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        super().__init__(get_response)
        self._plain = build_policy()
        self._with_nonce = build_policy(nonce=_NONCE_MARK)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
        self._excluded = tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
            or settings.DEBUG
            or any(getattr(response, name, None) is not None for name in _PER_VIEW_CSP)
        ):
            return super().process_response(request, response)
        nonce = getattr(request, "_csp_nonce", None)
        excluded = self._excluded and request.path_info.startswith(self._excluded)
        if self._plain and csp_constants.HEADER not in response and not excluded:
            response[csp_constants.HEADER] = (
                self._with_nonce.replace(_NONCE_MARK, nonce) if nonce else self._plain
            )
        if nonce is None:  # as the library: a nonce asked for after this is an error
            late = csp_middleware.CheckableLazyObject(self._csp_nonce_post_response)
            request.csp_nonce = late  # type: ignore[attr-defined]
        return response
