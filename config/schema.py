"""The OpenAPI document, built once per process under a lock and served from memory.

drf-spectacular's generator mutates shared state and is not thread-safe
(drf-spectacular issues #1122, #1123, #1368): two first requests at once on a
threaded server could end in a 500.  The document is the same for everyone.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response


class SchemaView(SpectacularAPIView):
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _built: ClassVar[dict[tuple[str | None, str | None], Any]] = {}

    def _get_schema_response(self, request: Request) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (version, translation.get_language())
        with self._lock:
            document = self._built.get(key)
            if document is None:
                generator = self.generator_class(
                    urlconf=self.urlconf, api_version=version, patterns=self.patterns
                )
                document = generator.get_schema(request=request, public=self.serve_public)
                self._built[key] = document
        return Response(
            data=document,
            headers={
                "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'
            },
        )
