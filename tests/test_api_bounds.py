"""Input at the edges of what the database and the formulas can take: never a 500.

Each case was found by fuzzing the API with its own OpenAPI schema (schemathesis):
ids and page offsets of 25+ digits, a handicap past the EGF formula's pole.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ops.fields import MAX_ID

pytestmark = pytest.mark.django_db

TOO_BIG = str(MAX_ID + 1)


@pytest.fixture
def staff_client(django_user_model: Any) -> Client:
    user = django_user_model.objects.create_user(
        "fuzz", password="x", is_staff=True, is_superuser=True
    )
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("url", "field"),
    [
        (f"/api/v1/games/?tournament={TOO_BIG}", "tournament"),
        (f"/api/v1/games/?player={TOO_BIG}", "player"),
        (f"/api/v1/disputes/?game={TOO_BIG}", "game"),
        (f"/api/v1/disputes/?tournament={TOO_BIG}", "tournament"),
        (f"/api/v1/promotions/candidates/?tournament={TOO_BIG}", "tournament"),
        (f"/api/v1/handicap/?black={TOO_BIG}&white=1", "black"),
        (f"/api/v1/ratings/what-if/?black=1&white={TOO_BIG}&result=B", "white"),
    ],
)
def test_an_id_too_big_for_the_database_is_a_400_naming_the_field(
    staff_client: Client, url: str, field: str
) -> None:
    response = staff_client.get(url)
    assert response.status_code == 400, response.content[:500]
    body = response.json()
    assert field in body["extra"]["fields"]
    assert str(MAX_ID) in body["extra"]["fields"][field]


def test_the_largest_id_the_database_holds_is_accepted_and_finds_nothing(
    staff_client: Client,
) -> None:
    response = staff_client.get(f"/api/v1/games/?tournament={MAX_ID}")
    assert response.status_code == 200
    assert response.json()["count"] == 0


def test_a_web_form_refuses_an_id_too_big_for_the_database(client: Client) -> None:
    response = client.get("/ratings/handicap/", {"black": TOO_BIG, "white": "1"})
    assert response.status_code == 200
    assert "less than or equal to" in response.content.decode()


@pytest.mark.parametrize(
    "query", ["limit=3491777293436625207951360", "offset=3491777293436625207951360", "limit=-5"]
)
def test_a_page_of_any_size_or_offset_is_answered(staff_client: Client, query: str) -> None:
    response = staff_client.get(f"/api/v1/promotions/policies/?{query}")
    assert response.status_code == 200, response.content[:500]
    assert len(response.json()["results"]) <= 1000


def test_the_paginator_caps_the_limit_and_the_offset() -> None:
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from ops.api import MAX_OFFSET, Pagination

    huge = "3491777293436625207951360"
    request = Request(APIRequestFactory().get(f"/?limit={huge}&offset={huge}"))
    assert Pagination().get_limit(request) == 1000
    assert Pagination().get_offset(request) == MAX_OFFSET


def test_a_what_if_past_the_rating_formulas_pole_is_a_400_on_handicap(
    staff_client: Client,
) -> None:
    from tests.factories import PlayerFactory

    strong, weak = PlayerFactory(declared_rank=8), PlayerFactory(declared_rank=-20)  # 9d, 20k
    response = staff_client.post(
        "/api/v1/ratings/what-if/",
        {"black": strong.pk, "white": weak.pk, "winner": "jigo", "handicap": 9},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content[:500]
    assert "handicap" in response.json()["extra"]["fields"]
