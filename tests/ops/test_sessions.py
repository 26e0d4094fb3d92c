"""Sessions read from the cache, written through to the database (ops.sessions): no
query for the session, and a logout or a password change still ends it."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from ops import sessions
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cached_sessions(settings: Any) -> None:
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)


def _signed_in(user: Any) -> Client:
    c = Client()
    response = c.post(reverse("login"), {"username": user.get_username(), "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]
    return c


def _is_signed_in(client: Client) -> bool:
    return "Log out" in client.get("/tournaments/").content.decode()


def test_the_settings_use_it_with_redis_only() -> None:
    expected = (
        "ops.sessions" if django_settings.REDIS_URL else "django.contrib.sessions.backends.db"
    )
    from config import settings as project

    engine = project.SESSION_ENGINE
    assert engine == expected


def test_a_session_is_read_from_the_cache_and_kept_in_the_database(
    outsider: Any, django_assert_max_num_queries: Any
) -> None:
    client = _signed_in(outsider)
    key = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=key).exists()
    client.get("/tournaments/")
    with django_assert_max_num_queries(10) as queries:
        assert "Log out" in client.get("/tournaments/").content.decode()
        sql = [q["sql"] for q in queries.captured_queries]
    assert sql and not [q for q in sql if "django_session" in q]


def test_a_logout_ends_the_session_in_the_cache_too(outsider: Any) -> None:
    client = _signed_in(outsider)
    stolen = Client()
    stolen.cookies = client.cookies  # the same cookie, kept by someone else
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    assert _is_signed_in(stolen)
    client.post("/accounts/logout/")
    stolen.cookies[django_settings.SESSION_COOKIE_NAME] = cookie
    assert not _is_signed_in(stolen)
    assert not Session.objects.filter(session_key=cookie).exists()


def test_a_password_changed_elsewhere_signs_out_a_cached_session(outsider: Any) -> None:
    client = _signed_in(outsider)
    assert _is_signed_in(client)  # the session is now in the cache
    outsider.set_password("another pass phrase 42")
    outsider.save()
    assert not _is_signed_in(client)  # Django checks the session's password hash


def test_a_cached_copy_lives_at_most_a_few_minutes(
    outsider: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A delete lost in a Redis outage would otherwise leave a logged-out session
    # usable until its own expiry (two weeks).
    timeouts: list[Any] = []
    backend = caches[django_settings.SESSION_CACHE_ALIAS]
    real_set = backend.set

    def spy(key: str, value: Any, timeout: Any = None, *args: Any, **kwargs: Any) -> Any:
        if key.startswith(sessions.CachedDBStore.cache_key_prefix):
            timeouts.append(timeout)
        return real_set(key, value, timeout, *args, **kwargs)

    monkeypatch.setattr(backend, "set", spy)
    client = _signed_in(outsider)
    client.get("/tournaments/")
    assert timeouts and all(0 <= t <= sessions.CACHE_SECONDS for t in timeouts)
    assert django_settings.SESSION_COOKIE_AGE > sessions.CACHE_SECONDS
