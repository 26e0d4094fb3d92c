"""The visitors' fast path: an API lookup's cached answer given before DRF's dispatch.

Kept with the page cache rather than with the API's shared helpers (``ops.api``)
because it is a cache read that skips DRF's authentication and permissions: the
start-up check here (``cached_read_check``, registered by ``OpsConfig.ready``) refuses
any such view whose permissions are stricter than the default's, so a private view can
never be answered from what a visitor was given.  docs/operations.md, "The page cache".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.core.checks import Error, Tags, register
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.cache import patch_vary_headers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from ops.pages import cache
from ops.pages.backends import MISSING


class CachedRead:
    """For an API view whose GET answer is kept in ``ops.pages.cache`` (the public
    lookups): a visitor's hit is answered before DRF's dispatch (its request wrapper,
    authentication, negotiation, the view), rendered by the view's JSON renderer as DRF
    would, with the same headers.  Only where DRF would do nothing else: no credentials
    sent, JSON accepted, no throttles on the view; anything else takes DRF's path, which
    builds and keeps the entry.  Views say which entry a request reads (``cached_read``);
    only views open to everyone may (``cached_read_check``)."""

    def cached_read(self, request: HttpRequest, **kwargs: Any) -> tuple[str, list[str]] | None:
        """The (key, versions) of ``cache.cached`` that the view's answer to this request
        is kept under, when the request names it plainly; None: take DRF's path."""
        return None

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        view: Any = self
        if (
            request.method == "GET"
            and "HTTP_AUTHORIZATION" not in request.META
            and not view.throttle_classes
            and request.META.get("HTTP_ACCEPT", "*/*") in ("*/*", "application/json")
            and issubclass(view.renderer_classes[0], JSONRenderer)
            and cache.is_visitor(request)
        ):
            read = self.cached_read(request, **kwargs)
            if read is not None:
                hit = cache.peek(*read, max_age=cache.visitor_max_age(request))
                if hit is not MISSING:
                    renderer = view.renderer_classes[0]()
                    response = HttpResponse(renderer.render(hit), content_type=renderer.media_type)
                    response["Allow"] = ", ".join(view.allowed_methods)
                    # DRF's path reads the session (its authentication), which adds
                    # "Cookie"; this one knows the visitor without it (is_visitor).
                    patch_vary_headers(response, ["Accept", "Cookie"])
                    return response
        answer: HttpResponseBase = super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        return answer


# DRF's hooks that decide who may read: a view that overrides one may refuse someone
# the default lets in, which the fast path, answering before them, would not.
_PERMISSION_HOOKS = ("get_permissions", "check_permissions", "check_object_permissions", "initial")


def too_strict(view: type[Any]) -> str:
    """Why ``view`` may not use ``CachedRead`` (empty: it may): its permissions or its
    authentication differ from the default's, where the fast path is sure of who reads."""
    open_to_all = {AllowAny, *api_settings.DEFAULT_PERMISSION_CLASSES}
    stricter = [p.__name__ for p in view.permission_classes if p not in open_to_all]
    if stricter:
        return f"permission classes {', '.join(stricter)} are stricter than the default"
    if list(view.authentication_classes) != list(api_settings.DEFAULT_AUTHENTICATION_CLASSES):
        return "its authentication classes are not the default"
    hooks = [h for h in _PERMISSION_HOOKS if getattr(view, h) is not getattr(APIView, h)]
    if hooks:
        return f"it overrides {', '.join(hooks)}"
    return ""


def _views(patterns: Iterable[URLPattern | URLResolver]) -> Iterator[tuple[str, type[Any]]]:
    """(route, view class) of every DRF view routed by ``patterns``, nested ones too."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _views(pattern.url_patterns)
            continue
        view = getattr(pattern.callback, "cls", None)  # as_view()'s, for DRF's views
        if isinstance(view, type):
            yield str(pattern.pattern), view


def refused(patterns: Iterable[URLPattern | URLResolver]) -> list[Error]:
    """An error for each view in ``patterns`` that uses ``CachedRead`` but is not open to
    everyone (``too_strict``)."""
    errors = []
    for route, view in _views(patterns):
        why = issubclass(view, CachedRead) and too_strict(view)
        if why:
            errors.append(
                Error(
                    f"{view.__module__}.{view.__qualname__} (route {route!r}) uses CachedRead, "
                    f"but {why}: its answers would be given to visitors from the cache.",
                    hint="Drop CachedRead from the view, or open the view to everyone.",
                    id="goref.E002",
                )
            )
    return errors


@register(Tags.urls)
def cached_read_check(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Refuse to start with a ``CachedRead`` view that is not open to everyone."""
    return refused(get_resolver().url_patterns)
