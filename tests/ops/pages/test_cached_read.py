"""The public lookups answer a visitor's cache hit before DRF's dispatch, with the bytes
and headers DRF's own path gives (ops.pages.api.CachedRead); a view that is not open to
everyone may not take that path (the start-up check)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client
from django.urls import get_resolver, path
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ops.pages.api import CachedRead, cached_read_check, refused

pytestmark = pytest.mark.django_db


def lookups(alice: Any, bob: Any) -> list[str]:
    return [
        f"/api/v1/players/{alice.pk}/",
        f"/api/v1/handicap/?black={alice.pk}&white={bob.pk}",
    ]


def skip_drf(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """DRF's dispatch, counted: it wraps every request it handles in ``initial``."""
    seen: list[str] = []
    real = APIView.initial

    def initial(self: APIView, request: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(request.path)
        real(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", initial)
    return seen


def test_a_visitors_hit_is_answered_before_drf_as_drf_answers_it(
    client: Client, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = skip_drf(monkeypatch)
    for url in lookups(alice, bob):
        built = client.get(url)  # DRF's path: it builds and keeps the answer
        assert built.status_code == 200 and seen == [url.split("?")[0]]
        hit = client.get(url)
        assert seen == [url.split("?")[0]], "the hit went through DRF"
        assert hit.status_code == 200 and hit.content == built.content
        for header in ("Content-Type", "Allow"):
            assert hit[header] == built[header], header
        # Vary names a set of fields (RFC 9110, 12.5.5): the same ones, in any order.
        assert set(hit["Vary"].split(", ")) == set(built["Vary"].split(", "))
        seen.clear()


@pytest.mark.parametrize(
    "extra",
    [
        {"HTTP_AUTHORIZATION": "Token nope"},  # DRF says 401, not the cached answer
        {"HTTP_ACCEPT": "text/html"},  # the browsable API
    ],
)
def test_anything_drf_would_answer_otherwise_takes_drfs_path(
    client: Client, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, extra: dict[str, str]
) -> None:
    seen = skip_drf(monkeypatch)
    for url in lookups(alice, bob):
        client.get(url)
        seen.clear()
        answer = client.get(url, **extra)  # type: ignore[arg-type]
        assert seen, url
        assert answer.status_code == (401 if "HTTP_AUTHORIZATION" in extra else 200)


def test_a_signed_in_user_a_format_and_a_bad_id_take_drfs_path(
    client: Client, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = skip_drf(monkeypatch)
    player, handicap = lookups(alice, bob)
    client.get(player), client.get(handicap)
    assert client.get(player + "?format=json").status_code == 200
    assert client.get(f"/api/v1/handicap/?black={alice.pk}&white=x").status_code == 400
    assert client.get(f"/api/v1/handicap/?black={alice.pk}&white={alice.pk}").status_code == 400
    assert len(seen) == 5
    client.force_login(alice.user)
    seen.clear()
    assert client.get(player).status_code == 200 and seen


class PrivateLookup(CachedRead, APIView):
    """A later private view that took the fast path by mistake."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Any) -> Response:
        return Response({"secret": 1})


# The URLconf of the start-up test below: one private view using CachedRead.
urlpatterns = [path("private/", PrivateLookup.as_view())]


def test_every_view_that_uses_the_fast_path_is_open_to_everyone() -> None:
    from ops.pages.api import _views

    users = {
        view for _, view in _views(get_resolver().url_patterns) if issubclass(view, CachedRead)
    }
    assert {view.__name__ for view in users} >= {"PlayerViewSet", "HandicapView"}
    assert cached_read_check() == []


def test_a_private_view_is_refused_at_start_up(settings: Any) -> None:
    settings.ROOT_URLCONF = __name__
    with pytest.raises(SystemCheckError, match=r"PrivateLookup.*IsAuthenticated"):
        call_command("check")


@pytest.mark.parametrize(
    "private",
    [
        {"permission_classes": [IsAdminUser]},
        {"authentication_classes": [SessionAuthentication]},
        {"get_permissions": lambda self: [IsAuthenticated()]},
        {"check_permissions": lambda self, request: None},
    ],
)
def test_a_view_stricter_than_the_default_in_any_way_is_refused(private: dict[str, Any]) -> None:
    view = type("Stricter", (CachedRead, APIView), private)
    errors = refused([path("stricter/", view.as_view())])
    assert [error.id for error in errors] == ["goref.E002"]
    open_view = type("Open", (CachedRead, APIView), {"permission_classes": [AllowAny]})
    assert refused([path("open/", open_view.as_view())]) == []
