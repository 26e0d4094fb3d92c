"""``BodySizeLimitMiddleware``: a request body over ``GOREF_MAX_REQUEST_BYTES`` gets 413
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

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse, JsonResponse


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
