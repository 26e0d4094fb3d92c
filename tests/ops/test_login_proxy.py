"""Login throttling that fits a venue: one client's failures never lock a player out from
another address, and a public username never locks its owner's own address.

django-axes locks the (username, address) pair only: a venue's players share one
address and officials' usernames are public, so neither an address alone nor a
username alone is ever locked.  Behind a proxy the deployment names
(``GOREF_TRUSTED_PROXIES``), the address is the client's, read from the
X-Forwarded-For hop the proxy appended; what a client writes there himself is ignored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.test import RequestFactory
from django.utils import timezone

from ops.logins import client_address
from tests.games.api_helpers import assert_error

TOKEN_URL = "/api/v1/auth/token/"
PROXY = "127.0.0.1"  # the test client's REMOTE_ADDR: the proxy's own address
CLIENT_A = "203.0.113.10"
CLIENT_B = "198.51.100.20"


@pytest.fixture
def behind_proxy(settings):  # type: ignore[no-untyped-def]
    settings.GOREF_TRUSTED_PROXIES = [PROXY]


def _via_proxy(client_ip: str, sent_by_client: str = "") -> dict[str, str]:
    """What the proxy passes on: the client's own header, if any, then the client's address
    (nginx's ``$proxy_add_x_forwarded_for``)."""
    chain = f"{sent_by_client}, {client_ip}" if sent_by_client else client_ip
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": chain}


def _token_login(api: Any, username: str, password: str, client_ip: str, **extra: Any) -> Any:
    return api.post(
        TOKEN_URL,
        {"username": username, "password": password},
        format="json",
        **_via_proxy(client_ip, **extra),
    )


# --- the address -------------------------------------------------------------


def _address(remote: str, forwarded: str | None, trusted: list[str], settings: Any) -> Any:
    settings.GOREF_TRUSTED_PROXIES = trusted
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().post("/", **meta))


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "expected"),
    [
        # No proxy named: the header is the client's word and is never read.
        ("203.0.113.10", "198.51.100.20", [], "203.0.113.10"),
        (PROXY, "198.51.100.20", [], PROXY),
        # The named proxy: the hop it appended.
        (PROXY, "198.51.100.20", [PROXY], "198.51.100.20"),
        # ... and not what the client wrote to the left of it.
        (PROXY, "1.2.3.4, 198.51.100.20", [PROXY], "198.51.100.20"),
        (PROXY, "not-an-address, 198.51.100.20", [PROXY], "198.51.100.20"),
        # A header from someone who is not the named proxy is ignored.
        ("203.0.113.10", "198.51.100.20", [PROXY], "203.0.113.10"),
        # Two proxies (a CDN in 10.0.0.0/8, then the local one): past both.
        (PROXY, "1.2.3.4, 198.51.100.20, 10.1.2.3", [PROXY, "10.0.0.0/8"], "198.51.100.20"),
        # The proxy itself, or garbage where the client should be: the proxy's address.
        (PROXY, None, [PROXY], PROXY),
        (PROXY, "garbage", [PROXY], PROXY),
        ("::1", "2001:db8::7", ["::1"], "2001:db8::7"),
        ("::1", "[2001:db8::7]:51234", ["::1"], "2001:db8::7"),
        (PROXY, "::ffff:198.51.100.20", [PROXY], "198.51.100.20"),
    ],
)
def test_the_client_address(remote, forwarded, trusted, expected, settings):  # type: ignore[no-untyped-def]
    assert _address(remote, forwarded, trusted, settings) == expected


# --- behind a simulated proxy: two clients, different forwarded addresses -----


def test_one_clients_failures_never_lock_another_client_out(api, behind_proxy, alice, password):
    for _ in range(10):
        _token_login(api, "alice", "wrong", CLIENT_A)
    assert_error(_token_login(api, "alice", password, CLIENT_A), 429)  # the pair is locked
    assert _token_login(api, "alice", password, CLIENT_B).status_code == 200


def test_an_address_alone_is_not_locked(api, behind_proxy, alice, bob, password):
    """A venue's shared connection: one player guessing does not lock the others out."""
    for k in range(30):
        _token_login(api, f"made-up-{k}", "wrong", CLIENT_A)
    assert _token_login(api, "alice", password, CLIENT_A).status_code == 200
    assert _token_login(api, "bob", password, CLIENT_B).status_code == 200


def test_a_named_official_cannot_be_locked_out_from_other_addresses(
    api, behind_proxy, director, password
):
    """Officials' usernames are public; failures elsewhere never lock his own address."""
    assert _token_login(api, "director", password, CLIENT_B).status_code == 200
    for n in range(5):
        for _ in range(12):
            _token_login(api, "director", "wrong", f"192.0.2.{n + 1}")
    assert _token_login(api, "director", password, CLIENT_B).status_code == 200


def test_a_forged_forwarded_header_counts_against_the_forger(api, behind_proxy, alice, password):
    # Client A writes B's address into his own X-Forwarded-For: the proxy appends A's.
    for _ in range(10):
        _token_login(api, "alice", "wrong", CLIENT_A, sent_by_client=CLIENT_B)
    assert _token_login(api, "alice", password, CLIENT_B).status_code == 200
    assert_error(_token_login(api, "alice", password, CLIENT_A), 429)


def test_the_login_page_is_throttled_by_pair_too(client, behind_proxy, alice, password):
    url = "/accounts/login/"
    for _ in range(10):
        client.post(url, {"username": "alice", "password": "wrong"}, **_via_proxy(CLIENT_A))
    locked = client.post(url, {"username": "alice", "password": password}, **_via_proxy(CLIENT_A))
    assert locked.status_code == 429
    assert b"Too many failed logins for this account from this address" in locked.content
    assert b"15 minutes" in locked.content
    fine = client.post(url, {"username": "alice", "password": password}, **_via_proxy(CLIENT_B))
    assert fine.status_code == 302 and "_auth_user_id" in client.session


def test_a_try_during_the_lockout_does_not_extend_it(api, behind_proxy, alice, password):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for _ in range(10):
            _token_login(api, "alice", "wrong", CLIENT_A)
    with time_machine.travel(start + dt.timedelta(minutes=10), tick=False):
        assert_error(_token_login(api, "alice", password, CLIENT_A), 429)
        assert_error(_token_login(api, "alice", "wrong", CLIENT_A), 429)
    with time_machine.travel(start + dt.timedelta(minutes=16), tick=False):
        assert _token_login(api, "alice", password, CLIENT_A).status_code == 200


def test_without_a_named_proxy_everyone_behind_it_is_one_address(api, alice, password):
    """Why GOREF_TRUSTED_PROXIES matters: unnamed, the proxy's address is every client's,
    so the pair is (alice, the proxy) and B is refused with A's lockout."""
    for _ in range(10):
        _token_login(api, "alice", "wrong", CLIENT_A)
    assert_error(_token_login(api, "alice", password, CLIENT_B), 429)
