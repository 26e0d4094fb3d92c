"""A race lost on a database constraint answers 409, on the API and on pages, never 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import RequestFactory
from rest_framework.views import APIView

from games.models import Player
from ops.api import exception_handler, service_errors
from ops.conflicts import RaceConflictMiddleware

pytestmark = pytest.mark.django_db


def _unique_violation() -> IntegrityError:
    """A real unique violation from the database: two players with one EGD PIN."""
    Player.objects.create(family_name="First", declared_rank=0, egd_pin="12345678")
    try:
        with transaction.atomic():
            Player.objects.create(family_name="Second", declared_rank=0, egd_pin="12345678")
    except IntegrityError as exc:
        return exc
    raise AssertionError("the database took a second player with the same PIN")


def _not_null_violation() -> IntegrityError:
    """A bug, not a race: a row missing a value the database requires."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("INSERT INTO games_club (name) VALUES (NULL)")
    except IntegrityError as exc:
        return exc
    raise AssertionError("the database took a club without a name")


def _middleware() -> RaceConflictMiddleware:
    return RaceConflictMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]


def test_an_api_request_gets_409_in_the_error_shape() -> None:
    request = RequestFactory().post("/api/v1/players/")
    response = _middleware().process_exception(request, _unique_violation())
    assert response is not None and response.status_code == 409
    assert response["Content-Type"] == "application/json"
    assert "same moment" in response.content.decode()


def test_a_page_gets_a_409_page() -> None:
    request = RequestFactory().post("/admin/games/club/1/change/")
    response = _middleware().process_exception(request, _unique_violation())
    assert response is not None and response.status_code == 409
    assert b"at the same moment" in response.content


def test_other_errors_are_left_alone() -> None:
    request = RequestFactory().get("/")
    assert _middleware().process_exception(request, ValueError("x")) is None


def test_drf_and_service_errors_answer_409() -> None:
    context: dict[str, Any] = {"view": APIView(), "request": None}
    race = _unique_violation()
    response = exception_handler(race, context)
    assert response is not None and response.status_code == 409
    assert "same moment" in response.data["message"]
    with pytest.raises(Exception) as caught, service_errors():
        raise race
    assert getattr(caught.value, "status_code", None) == 409


def test_a_constraint_that_is_no_race_stays_an_error() -> None:
    """A NOT NULL violation is a bug: no "reload and try again", and the log shows it."""
    bug = _not_null_violation()
    request = RequestFactory().post("/admin/games/club/add/")
    assert _middleware().process_exception(request, bug) is None
    context: dict[str, Any] = {"view": APIView(), "request": None}
    assert exception_handler(bug, context) is None  # DRF raises it again: a 500, logged
    with pytest.raises(IntegrityError), service_errors():
        raise bug
