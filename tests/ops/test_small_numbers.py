"""Numbers typed into a URL or a form: "²" (a digit to ``str.isdigit``, not to ``int``)
and 5,000 digits (over ``int``'s limit) are a 404 or a message, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ops.text import small_number

ODD = ["²", "9" * 5000, "-1", "1e3", " 7"]


def test_small_number_takes_ascii_digits_of_a_bounded_length() -> None:
    assert small_number("42") == 42
    assert small_number("9" * 18) == int("9" * 18)
    for text in [*ODD, "9" * 19, "", None]:
        assert small_number(text) is None, text
    assert small_number("12345", digits=4) is None


@pytest.mark.django_db
def test_odd_numbers_in_urls_are_never_a_500(client: Client, alice, tournament) -> None:  # type: ignore[no-untyped-def]
    pages = [
        (reverse("games:player", args=[alice.pk]), "page"),
        (reverse("games:standings", args=[tournament.pk]), "round"),
    ]
    for url, name in pages:
        for value in ODD:
            assert client.get(url, {name: value}).status_code in (200, 404), (url, value)
    for value in ODD:
        assert client.get(f"/api/v1/players/{value}/").status_code == 404, value
