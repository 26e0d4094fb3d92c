"""The API's three route lists share ``/api/v1/``: no path may be answered by two of
them, since their order (ratings first, for its handicap lookup) would then decide."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator

import pytest
from django.urls import Resolver404, URLPattern, URLResolver
from django.urls.resolvers import RegexPattern

API_ROUTES = ("ratings.api.urls", "games.api.urls", "referee.api.urls")


def _routes(patterns: Iterable[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def _example(route: str) -> str:
    """A path the route answers: each parameter given as 1."""
    path = route.lstrip("^").rstrip("$")
    path = re.sub(r"\(\?P<format>[^)]*\)", "json", path)
    path = re.sub(r"<[^>]+>|\(\?P<\w+>[^)]*\)", "1", path)
    return "/" + path.replace("\\.", ".").replace("/?", "/")


@pytest.mark.parametrize("module", API_ROUTES)
def test_no_api_path_is_answered_by_two_route_lists(module: str) -> None:
    resolvers = {m: URLResolver(RegexPattern(r"^/"), m) for m in API_ROUTES}
    for route in _routes(importlib.import_module(module).urlpatterns):
        path = _example(route)
        answering = []
        for name, resolver in resolvers.items():
            try:
                answering.append((name, resolver.resolve(path).view_name))
            except Resolver404:
                continue
        assert len(answering) == 1, (path, answering)
