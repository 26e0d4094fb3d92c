"""goref's token check (``ops.auth``) against knox's own, case by case (issue 26).

``ops.auth.TokenAuthentication`` differs from knox's in what it reads (one query: the
token with its user; the user's other tokens are swept at login) and in a header that is
not UTF-8 (401, where knox's raises); everything else, expiry, refresh and an inactive
user, must answer as knox does.  Each case runs twice, once per class, on tokens of its own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.test import RequestFactory
from django.utils import timezone
from knox import auth as knox_auth
from knox.models import AuthToken
from knox.settings import CONSTANTS
from knox.signals import token_expired
from rest_framework.exceptions import AuthenticationFailed

from ops import auth as goref_auth
from ops.accounts import token_create

CLASSES = {"knox": knox_auth.TokenAuthentication, "goref": goref_auth.TokenAuthentication}


def _check(cls: type[Any], key: str) -> Any:
    request = RequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")
    try:
        return cls().authenticate(request)
    except AuthenticationFailed as refused:
        return f"refused: {refused.detail}"


def _both(case: Callable[[type[Any]], Any]) -> dict[str, Any]:
    return {name: case(cls) for name, cls in CLASSES.items()}


def test_only_the_query_and_this_tokens_cleanup_are_goref_s() -> None:
    """renew_token, validate_user, authenticate and the header prefix stay knox's."""
    own = {name for name in vars(goref_auth.TokenAuthentication) if not name.startswith("__")}
    assert own == {"token_candidates", "authenticate_credentials", "_cleanup_token"}


def test_a_valid_token_gives_its_user_in_one_query_where_knox_reads_three(
    alice: Any, django_assert_num_queries: Any
) -> None:
    counts = {}
    for name, cls in CLASSES.items():
        key, _ = token_create(user=alice.user)
        with django_assert_num_queries(1 if name == "goref" else 3) as captured:
            user, token = _check(cls, key)
        counts[name] = len(captured.captured_queries)
        assert user == alice.user and token.user_id == alice.user.pk
    assert counts == {"knox": 3, "goref": 1}


def test_an_expired_token_is_refused_deleted_and_signalled_alike(alice: Any) -> None:
    sent: list[dict[str, Any]] = []

    def heard(sender: Any, **kwargs: Any) -> None:
        sent.append({k: kwargs[k] for k in ("username", "source")})

    token_expired.connect(heard)
    try:

        def case(cls: type[Any]) -> Any:
            key, _ = token_create(user=alice.user)
            with time_machine.travel(timezone.now() + dt.timedelta(days=8), tick=False):
                answer = _check(cls, key)
            gone = not AuthToken.objects.filter(
                token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]
            ).exists()
            return answer, gone

        answers = _both(case)
    finally:
        token_expired.disconnect(heard)
    assert answers["knox"] == answers["goref"] == ("refused: Invalid token.", True)
    assert sent == [{"username": "alice", "source": "auth_token"}] * 2


def test_an_inactive_user_and_a_wrong_secret_are_refused_alike(alice: Any) -> None:
    def inactive(cls: type[Any]) -> Any:
        key, _ = token_create(user=alice.user)
        type(alice.user).objects.filter(pk=alice.user.pk).update(is_active=False)
        try:
            return _check(cls, key)
        finally:
            type(alice.user).objects.filter(pk=alice.user.pk).update(is_active=True)

    def wrong_secret(cls: type[Any]) -> Any:
        key, _ = token_create(user=alice.user)
        return _check(cls, key[: CONSTANTS.TOKEN_KEY_LENGTH] + "0" * (len(key) - 8))

    assert _both(inactive) == dict.fromkeys(CLASSES, "refused: User inactive or deleted.")
    assert _both(wrong_secret) == dict.fromkeys(CLASSES, "refused: Invalid token.")


@pytest.mark.parametrize("late", [dt.timedelta(seconds=30), dt.timedelta(hours=2)])
def test_auto_refresh_renews_alike(alice: Any, monkeypatch: Any, late: dt.timedelta) -> None:
    """With AUTO_REFRESH on (goref has it off), knox's ``renew_token`` runs for both:
    past MIN_REFRESH_INTERVAL (60 s) the expiry moves and is saved, before it is not."""
    # knox.auth and ops.auth read the one settings object knox made at import time.
    assert goref_auth.knox_settings is knox_auth.knox_settings
    monkeypatch.setattr(knox_auth.knox_settings, "AUTO_REFRESH", True)
    start = timezone.now()

    def case(cls: type[Any]) -> Any:
        with time_machine.travel(start, tick=False):
            key, expiry = token_create(user=alice.user)
        with time_machine.travel(start + late, tick=False):
            _check(cls, key)
        stored = AuthToken.objects.get(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]).expiry
        return stored - expiry

    moved = _both(case)
    assert (
        moved["knox"]
        == moved["goref"]
        == (late if late > dt.timedelta(minutes=1) else dt.timedelta(0))
    )
