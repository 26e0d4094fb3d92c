"""goref's token check (``ops.auth``) against knox's own, case by case: a thread-safe
rewrite must answer every token exactly as the library it replaced.

``ops.auth.TokenAuthentication`` is knox's check, reading knox's tokens through the
proxy ``ops.models.ApiToken`` (with their user), without knox's sweep of the user's other
tokens (done at login), and with a 401 for a header that is not UTF-8 (where knox's
raises); expiry, refresh, an inactive user and a wrong secret must answer as knox does.  Each case runs twice, once per class, on tokens of its own.
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
from knox.models import AuthToken, get_token_model
from knox.settings import CONSTANTS
from knox.signals import token_expired
from rest_framework.exceptions import AuthenticationFailed

from ops import auth as goref_auth
from ops.accounts import token_create
from ops.models import ApiToken

CLASSES = {"knox": knox_auth.TokenAuthentication, "goref": goref_auth.TokenAuthentication}


def _check(cls: type[Any], key: str) -> Any:
    request = RequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}")
    try:
        return cls().authenticate(request)
    except AuthenticationFailed as refused:
        return f"refused: {refused.detail}"


def _both(case: Callable[[type[Any]], Any]) -> dict[str, Any]:
    return {name: case(cls) for name, cls in CLASSES.items()}


def test_knox_s_check_is_knox_s() -> None:
    """The loop over the candidates, renew_token, validate_user stay knox's: goref wraps
    authenticate_credentials (the UTF-8 guard) and narrows _cleanup_token, nothing else."""
    own = {name for name in vars(goref_auth.TokenAuthentication) if not name.startswith("__")}
    assert own == {"authenticate_credentials", "_cleanup_token"}
    assert get_token_model() is ApiToken and ApiToken._meta.db_table == AuthToken._meta.db_table


def test_a_valid_token_gives_its_user_in_one_query_where_knox_sweeps_too(
    alice: Any, django_assert_num_queries: Any
) -> None:
    counts = {}
    for name, cls in CLASSES.items():
        key, _ = token_create(user=alice.user)
        with django_assert_num_queries(1 if name == "goref" else 2) as captured:
            user, token = _check(cls, key)
        counts[name] = len(captured.captured_queries)
        assert user == alice.user and token.user_id == alice.user.pk
    # knox's class reads through the proxy too; it then reads the user's other tokens.
    assert counts == {"knox": 2, "goref": 1}


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
    # knox.auth reads the settings object knox made at import time (override_settings
    # would replace knox.settings.knox_settings, not that one).
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
