"""The public lookups answer a visitor's cache hit before DRF's dispatch, with the bytes
and headers DRF's own path gives (ops.pages.api.CachedRead)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.views import APIView

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
        for header in ("Content-Type", "Vary", "Allow"):
            assert hit[header] == built[header], header
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
