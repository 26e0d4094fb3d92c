"""Logins are throttled per (username, address) pair (django-axes), and API tokens
expire, are new per login, die with a password change and can be revoked
(django-rest-knox)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.auth.forms import SetPasswordForm
from django.utils import timezone
from knox.models import AuthToken

from tests.games.api_helpers import assert_error

URL = "/api/v1/auth/token/"


def _login(api, password):  # type: ignore[no-untyped-def]
    return api.post(URL, {"username": "alice", "password": password}, format="json")


def _token(api, password):  # type: ignore[no-untyped-def]
    response = _login(api, password)
    assert response.status_code == 200, response.content
    return response.json()["token"]


def _get_me(api, token):  # type: ignore[no-untyped-def]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api.post("/api/v1/games/0/result/", {"result": "B+R"}, format="json")
    api.credentials()
    return response.status_code


def test_ten_wrong_passwords_lock_the_token_endpoint_even_for_the_right_one(api, alice, password):
    for _ in range(9):
        assert _login(api, "wrong").status_code == 400
    assert _login(api, "wrong").status_code == 429  # the tenth failure locks
    response = _login(api, password)
    assert_error(response, 429)
    assert "Too many failed logins" in response.json()["message"]


def test_the_lockout_ends_after_the_cool_off(api, alice, password):
    for _ in range(10):
        _login(api, "wrong")
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=16)):
        assert _login(api, password).status_code == 200


def test_nine_failures_do_not_lock(api, alice, password):
    for _ in range(9):
        _login(api, "wrong")
    assert _login(api, password).status_code == 200


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_both_login_forms_are_throttled(client, alice, password, url):
    for _ in range(9):
        response = client.post(url, {"username": "alice", "password": "wrong"})
        assert response.status_code == 200  # the form, with its error
    assert client.post(url, {"username": "alice", "password": "wrong"}).status_code == 429
    response = client.post(url, {"username": "alice", "password": password})
    assert response.status_code == 429
    assert b"Too many failed logins" in response.content
    assert "_auth_user_id" not in client.session


def test_a_token_expires(api, alice, password):
    token = _token(api, password)
    assert _get_me(api, token) == 404  # authenticated: the game does not exist
    with time_machine.travel(timezone.now() + dt.timedelta(days=8)):
        assert _get_me(api, token) == 401


def test_a_password_change_kills_every_token(api, alice, password):
    first, second = _token(api, password), _token(api, password)
    user = alice.user
    user.set_password("a-new-long-passphrase")
    user.save()
    assert _get_me(api, first) == 401
    assert _get_me(api, second) == 401
    assert not AuthToken.objects.filter(user=user).exists()


def test_a_password_reset_form_kills_tokens_too(api, alice, password):
    token = _token(api, password)
    form = SetPasswordForm(
        alice.user,
        {"new_password1": "another-long-passphrase", "new_password2": "another-long-passphrase"},
    )
    assert form.is_valid(), form.errors
    form.save()
    assert _get_me(api, token) == 401


def test_a_login_that_updates_last_login_keeps_tokens(api, alice, password):
    token = _token(api, password)
    _token(api, password)  # a second login saves last_login, not the password
    assert _get_me(api, token) == 404


def test_delete_revokes_the_token_in_use_only(api, alice, password):
    kept, revoked = _token(api, password), _token(api, password)
    api.credentials(HTTP_AUTHORIZATION=f"Token {revoked}")
    assert api.delete(URL).status_code == 204
    api.credentials()
    assert _get_me(api, revoked) == 401
    assert _get_me(api, kept) == 404


def test_delete_without_a_token_is_a_401(api, db):
    assert_error(api.delete(URL), 401)


def test_tokens_are_stored_as_digests(api, alice, password):
    token = _token(api, password)
    stored = AuthToken.objects.get(user=alice.user)
    assert token not in (stored.digest, stored.token_key)


def test_a_user_keeps_at_most_twenty_tokens_the_oldest_go(api, alice, password):
    first = _token(api, password)
    for _ in range(20):
        _token(api, password)
    assert AuthToken.objects.filter(user=alice.user).count() == 20
    assert _get_me(api, first) == 401


def test_one_address_trying_many_usernames_locks_none_of_them(api, alice, password):
    """Only the (username, address) pair is locked: a venue's players share one address."""
    for k in range(10):
        api.post(URL, {"username": f"guess{k}", "password": "wrong"}, format="json")
    assert _login(api, password).status_code == 200


def test_a_locked_username_still_logs_in_from_another_address(api, alice, password):
    for _ in range(10):
        _login(api, "wrong")
    assert_error(_login(api, password), 429)
    other = api.post(
        URL, {"username": "alice", "password": password}, format="json", REMOTE_ADDR="10.9.8.7"
    )
    assert other.status_code == 200
