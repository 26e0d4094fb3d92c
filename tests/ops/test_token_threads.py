"""Token authentication under gunicorn's threads: many requests at once, never a 500.

A request must not touch an object another thread can see: the old ``ops.auth``
swapped the shared knox manager's ``filter`` for each request, and two requests at
once answered 500 (``'AuthTokenManager' object has no attribute 'filter'``).
"""

from __future__ import annotations

import secrets
import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connections
from django.test import RequestFactory
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from ops.accounts import token_create
from ops.auth import TokenAuthentication

THREADS = 8
ROUNDS = 25
# Any authenticated request: 404, the game does not exist; 401 without a valid token.
URL = "/api/v1/games/0/result/"


def _authenticate(header: str) -> Any:
    request = RequestFactory().get("/", HTTP_AUTHORIZATION=header)
    return TokenAuthentication().authenticate(request)


def test_a_token_and_its_user_are_read_in_one_query(alice, django_assert_num_queries):
    key, _ = token_create(user=alice.user)
    with django_assert_num_queries(1):
        user, token = _authenticate(f"Token {key}")
    assert user == alice.user and token.user_id == alice.user.pk


def test_authenticating_leaves_knox_manager_untouched(alice):
    manager = AuthToken.objects
    before = dict(vars(manager))
    key, _ = token_create(user=alice.user)
    _authenticate(f"Token {key}")
    with pytest.raises(AuthenticationFailed):
        _authenticate(f"Token {secrets.token_hex(32)}")
    assert dict(vars(manager)) == before


@pytest.mark.parametrize(
    "tail",
    [
        "\xff\xfe",  # not UTF-8 (sent as latin-1 bytes)
        "z" * 49,  # not hex
        "ab",  # too short
    ],
)
def test_a_malformed_token_is_a_401_not_a_500(api, alice, tail):
    """Each header starts with a real token's key, so knox finds a candidate and checks it."""
    key, _ = token_create(user=alice.user)
    api.credentials(HTTP_AUTHORIZATION=f"Token {key[: CONSTANTS.TOKEN_KEY_LENGTH]}{tail}")
    assert api.post(URL, {"result": "B+R"}, format="json").status_code == 401


@pytest.mark.integration
def test_eight_threads_authenticate_at_once_without_an_error(postgres, transactional_db, alice):
    """A real user's requests interleaved with anonymous made-up tokens, 8 threads at once."""
    real, _ = token_create(user=alice.user)
    # Same public key prefix as the real one, wrong secret: read, compared, refused.
    prefix_clash = (
        real[: CONSTANTS.TOKEN_KEY_LENGTH]
        + secrets.token_hex(32)[: len(real) - CONSTANTS.TOKEN_KEY_LENGTH]
    )
    start = threading.Barrier(THREADS)
    statuses: Counter[tuple[str, int]] = Counter()
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(index: int) -> None:
        client = APIClient(raise_request_exception=True)
        try:
            start.wait(timeout=30)
            for n in range(ROUNDS):
                if (index + n) % 2 == 0:
                    kind, token = "real", real
                elif n % 3 == 0:
                    kind, token = "clash", prefix_clash
                else:
                    kind, token = "made-up", secrets.token_hex(32)
                client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
                status = client.post(URL, {"result": "B+R"}, format="json").status_code
                with lock:
                    statuses[(kind, status)] += 1
        except BaseException as exc:  # reported below
            with lock:
                errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)

    assert not errors, errors
    assert sum(statuses.values()) == THREADS * ROUNDS
    # Every real request authenticated (404: no such game), every other one refused.
    assert set(statuses) <= {("real", 404), ("made-up", 401), ("clash", 401)}, statuses
    assert statuses[("real", 404)] == THREADS * ROUNDS // 2
