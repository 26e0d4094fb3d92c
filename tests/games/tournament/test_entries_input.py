"""The entries page answers a hand-made or mistyped request with a message, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.models import Player

pytestmark = pytest.mark.django_db


def _post(director: Any, tournament: Any, data: dict[str, Any]) -> str:
    client = Client()
    client.force_login(director)
    response = client.post(reverse("games:entries", args=[tournament.pk]), data, follow=True)
    assert response.status_code == 200
    return str(response.content.decode())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "enter", "player": "abc"}, "Choose a player from the list."),
        ({"action": "list", "list_entry": "1e9"}, "Choose a player from the lists."),
        ({"action": "remove", "entry": "x"}, "that entry is not known"),
        ({"action": "update", "entry": "9" * 30}, "that entry is not known"),
    ],
)
def test_an_id_that_is_no_id_is_a_message(
    director: Any, tournament: Any, data: dict[str, Any], message: str
) -> None:
    assert message in _post(director, tournament, data)


@pytest.mark.parametrize("rating", ["inf", "nan", "1e400", "5000", "strong"])
def test_a_rating_that_is_no_rating_is_a_line_error(
    director: Any, tournament: Any, rating: str
) -> None:
    data = f"family_name,given_name,rank,rating\nRoe,Jo,5k,2000\nDoe,Al,3k,{rating}\n".encode()
    page = _post(director, tournament, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)})
    assert "Line 3: rating" in page and "Nothing was entered" in page
    assert not Player.objects.filter(family_name="Roe").exists()


def test_a_file_of_entries_bumps_the_cached_pages_once(
    director: Any, tournament: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from ops.pages import cache

    settings.GOREF_CACHE_BUMP_AT_WRITE = False  # bumps wait for the commit: counted there
    lines = "".join(f"F{i},G{i},{i % 20 + 1}k\n" for i in range(60))
    data = ("family_name,given_name,rank\n" + lines).encode()
    with django_capture_on_commit_callbacks() as callbacks:
        page = _post(
            director, tournament, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)}
        )
    assert "60 players entered" in page
    bumps = [c for c in callbacks if getattr(c, "func", None) is cache.bump]
    # One bump for the new players' lists, one for the entries: not one per line.
    assert 1 <= len(bumps) <= 3, len(bumps)
