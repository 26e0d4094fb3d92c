"""One username guessed at from many addresses is paced, never locked; password-reset
e-mails are limited per asking address and per account.  Through the API's token login,
the login page and the reset pages, behind a simulated proxy that forwards each client's
own address (``GOREF_TRUSTED_PROXIES``)."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ops.logins import pace_seconds

TOKEN_URL = "/api/v1/auth/token/"
PROXY = "127.0.0.1"


@pytest.fixture(autouse=True)
def behind_proxy(settings: Any) -> None:
    settings.GOREF_TRUSTED_PROXIES = [PROXY]


@pytest.fixture(autouse=True)
def local_cache(settings: Any) -> None:
    """The pace's counters in this process's memory: the tests move a frozen clock, which
    Redis's own expiry (real time) would not follow.  The gunicorn tests run them on Redis."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }


@pytest.fixture(autouse=True)
def still_clock() -> Any:
    """Time stands still unless a test moves it: a pace is counted in seconds."""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        yield clock


def _via(client_ip: str) -> dict[str, str]:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": client_ip}


def _login(api: Any, password: str, client_ip: str, username: str = "director") -> Any:
    return api.post(
        TOKEN_URL, {"username": username, "password": password}, format="json", **_via(client_ip)
    )


def _addresses(count: int) -> list[str]:
    return [f"192.0.2.{n + 1}" for n in range(count)]


def test_150_wrong_passwords_from_30_addresses_check_only_the_first_few(api, director, password):
    statuses = Counter(_login(api, "wrong", address).status_code for address in _addresses(30) * 5)
    # Ten free failures, then one try per pace: within the same seconds, the 11th only.
    assert statuses == Counter({400: 11, 429: 139})
    # The right password from yet another address waits its turn like any other.
    refused = _login(api, password, "198.51.100.99")
    assert refused.status_code == 429 and refused["Retry-After"] == "2"
    assert "reset your password by e-mail" in refused.json()["message"]


def test_the_pace_doubles_with_each_failure_up_to_five_minutes(api, director, still_clock):
    assert [pace_seconds(n) for n in (0, 9, 10, 11, 12, 17, 18, 100)] == [
        0,
        0,
        2,
        4,
        8,
        256,
        300,
        300,
    ]
    for address in _addresses(10):
        assert _login(api, "wrong", address).status_code == 400
    waits = []
    for k, address in enumerate(_addresses(9)):
        assert _login(api, "wrong", address).status_code == 400  # its turn: checked
        refused = _login(api, "wrong", f"198.51.100.{k + 1}")
        waits.append(int(refused["Retry-After"]))
        still_clock.shift(dt.timedelta(seconds=waits[-1]))
    assert waits == [2, 4, 8, 16, 32, 64, 128, 256, 300]


def test_the_owner_is_never_paced_from_his_own_address(api, director, password):
    assert _login(api, password, "198.51.100.7").status_code == 200  # his home address
    for address in _addresses(30) * 2:
        _login(api, "wrong", address)
    assert _login(api, password, "198.51.100.7").status_code == 200
    # Any other address is paced meanwhile.
    assert _login(api, password, "198.51.100.8").status_code == 429


def test_from_a_new_address_the_owner_waits_at_most_the_pace(api, director, password, still_clock):
    for address in _addresses(30) * 2:
        _login(api, "wrong", address)
    refused = _login(api, password, "198.51.100.8")
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 300
    still_clock.shift(dt.timedelta(seconds=wait))
    assert _login(api, password, "198.51.100.8").status_code == 200


def test_the_login_page_paces_the_username_too(director, password):
    client = Client()
    for address in _addresses(12):
        client.post(reverse("login"), {"username": "director", "password": "x"}, **_via(address))
    page = client.post(
        reverse("login"), {"username": "director", "password": password}, **_via("198.51.100.9")
    )
    assert page.status_code == 429 and b"Too many failed logins for this account:" in page.content
    assert "_auth_user_id" not in client.session


def test_other_usernames_are_not_paced(api, director, alice, password):
    for address in _addresses(30):
        _login(api, "wrong", address)
    assert _login(api, password, "192.0.2.1", username="alice").status_code == 200


# --------------------------------------------------------------------------- resets


def _ask_reset(email: str, client_ip: str) -> Any:
    return Client().post(reverse("password_reset"), {"email": email}, **_via(client_ip))


def test_one_account_gets_at_most_three_reset_mails_an_hour(alice, still_clock):
    alice.user.email = "alice@example.org"
    alice.user.save()
    answers = [_ask_reset("alice@example.org", a).status_code for a in _addresses(6)]
    # Every page reads the same (nobody learns whether the address has an account)...
    assert answers == [302] * 6
    assert len(mail.outbox) == 3  # ...but three mails only
    still_clock.shift(dt.timedelta(minutes=61))
    assert _ask_reset("alice@example.org", "192.0.2.99").status_code == 302
    assert len(mail.outbox) == 4


def test_one_address_asks_at_most_five_resets_an_hour(alice, bob):
    for who in (alice, bob):
        who.user.email = f"{who.user.username}@example.org"
        who.user.save()
    hall = "203.0.113.5"
    answers = [
        _ask_reset(e, hall).status_code for e in ["alice@example.org", "bob@example.org"] * 3
    ]
    assert answers == [302] * 5 + [429]
    assert len(mail.outbox) == 5
    refused = _ask_reset("nobody@example.org", hall)
    assert b"Too many password resets were asked from this address" in refused.content
    assert _ask_reset("bob@example.org", "203.0.113.6").status_code == 302


def test_a_reset_logs_the_owner_in_and_his_address_is_then_never_paced(api, alice, password):
    alice.user.email = "alice@example.org"
    alice.user.save()
    for address in _addresses(30):
        _login(api, "wrong", address, username="alice")
    phone = Client()
    phone.post(reverse("password_reset"), {"email": "alice@example.org"}, **_via("198.51.100.50"))
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[-1].body)
    assert link
    form = phone.get(link.group(1), follow=True, **_via("198.51.100.50"))
    new = "a-brand-new-passphrase"
    done = phone.post(
        form.redirect_chain[-1][0],
        {"new_password1": new, "new_password2": new},
        **_via("198.51.100.50"),
    )
    assert done.status_code == 302 and "_auth_user_id" in phone.session
    assert b"You are logged in" in phone.get(done["Location"], **_via("198.51.100.50")).content
    assert _login(api, new, "198.51.100.50", username="alice").status_code == 200
