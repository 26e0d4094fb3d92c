"""Fuzz every API operation from the project's own OpenAPI document: never a 500.

Schemathesis, seeded and bounded (about a minute), in process on the test database
with the demo tournament and an administrator's token, so requests reach the
services.  A broad guard: the 500s a longer run found are pinned in ``tests/test_api_bounds.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
import schemathesis
from django.core.management import call_command
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture
def keep_the_test_connection() -> Iterator[None]:
    """Requests go through the WSGI app, whose end-of-request handler closes
    the database connection; the test's transaction lives on that connection.
    Django's own test client disconnects the handler in the same way."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def admin_token(
    db: None, django_user_model: Any, keep_the_test_connection: None, settings: Any
) -> str:
    from knox.models import AuthToken

    settings.DEBUG = True  # seed_demo runs only under DEBUG
    call_command("seed_demo", stdout=StringIO())
    settings.DEBUG = False
    admin = django_user_model.objects.create_superuser("fuzzer", password="fuzz-pw-123456")
    return AuthToken.objects.create(user=admin)[1]


@schema.parametrize()
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_operation_answers_with_a_server_error(case: Any, admin_token: str) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Token {admin_token}"}, checks=[not_a_server_error]
    )
