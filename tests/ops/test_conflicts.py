"""A race lost on a database constraint answers 409, on the API and on pages, never 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError
from django.test import RequestFactory
from rest_framework.views import APIView

from ops.api import exception_handler, service_errors
from ops.conflicts import RaceConflictMiddleware

pytestmark = pytest.mark.django_db


def _middleware() -> RaceConflictMiddleware:
    return RaceConflictMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]


def test_an_api_request_gets_409_in_the_error_shape() -> None:
    request = RequestFactory().post("/api/v1/players/")
    response = _middleware().process_exception(request, IntegrityError("duplicate key"))
    assert response is not None and response.status_code == 409
    assert response["Content-Type"] == "application/json"
    assert "same moment" in response.content.decode()


def test_a_page_gets_a_409_page() -> None:
    request = RequestFactory().post("/admin/games/club/1/change/")
    response = _middleware().process_exception(request, IntegrityError("duplicate key"))
    assert response is not None and response.status_code == 409
    assert b"at the same moment" in response.content


def test_other_errors_are_left_alone() -> None:
    request = RequestFactory().get("/")
    assert _middleware().process_exception(request, ValueError("x")) is None


def test_drf_and_service_errors_answer_409() -> None:
    context: dict[str, Any] = {"view": APIView(), "request": None}
    response = exception_handler(IntegrityError("duplicate key"), context)
    assert response is not None and response.status_code == 409
    assert "same moment" in response.data["message"]
    with pytest.raises(Exception) as caught, service_errors():
        raise IntegrityError("duplicate key")
    assert getattr(caught.value, "status_code", None) == 409
