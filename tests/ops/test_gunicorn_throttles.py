"""The throttles against the real server (gunicorn with config/gunicorn.py, ``DEBUG=0``,
behind a simulated proxy that forwards each client's address, PostgreSQL and Redis):
slip codes guessed from a hall's shared address, one username guessed at from many
addresses, password resets asked from many addresses, and many pairing requests for
one tournament at once.

The server is the one ``tests.ops.test_gunicorn_attacks`` starts, here with its access
log in a file, to show that no slip code is written there.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests
from django.test import override_settings

from games.models import Game
from games.people.services.grants import director_grant_admin
from games.services.codes import report_code
from ops.accounts import token_create
from ops.models import AuditAction, AuditEntry, Job
from tests.conftest import database_url_for_test_db
from tests.factories import GameFactory, PlayerFactory, TournamentFactory, enter
from tests.ops.test_gunicorn_attacks import (
    PASSWORD,
    PROXY_HEADERS,
    Server,
    _at_once,
    _free_port,
    _production_env,
    _user,
    static_root,  # noqa: F401  (the fixture, collected here too)
)

pytestmark = pytest.mark.integration

HALL = "203.0.113.77"  # the venue's one address, shared by every player


@pytest.fixture
def logged(
    postgres: None,
    redis_url: str,
    transactional_db: None,
    tmp_path: Path,
    static_root: Path,  # noqa: F811
) -> Iterator[Server]:
    env = {
        **_production_env(static_root),
        "DATABASE_URL": database_url_for_test_db(),
        "REDIS_URL": redis_url,
        "HOST": "127.0.0.1",
        "PORT": str(_free_port()),
        "WEB_CONCURRENCY": "2",
        "WEB_ACCESS_LOG": str(tmp_path / "access.log"),
        "SECURE_PROXY_SSL_HEADER": "1",
        "GOREF_TRUSTED_PROXIES": "127.0.0.1",
        "GOREF_CODE_GUESS_LIMIT": "10",
        "GOREF_PAIRING_JOB_PLAYERS": "4",
    }
    env.pop("WEB_THREADS", None)
    started = Server(env, tmp_path / "gunicorn.log")
    started.secret = env["SECRET_KEY"]  # type: ignore[attr-defined]  (the codes' key)
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()
    assert not started.tracebacks(), started.tracebacks()[-3000:]


def _from(address: str) -> dict[str, str]:
    return {**PROXY_HEADERS, "X-Forwarded-For": address}


def test_junk_codes_from_a_halls_address_never_refuse_the_right_one(logged: Server) -> None:
    """30 junk codes from the hall, 8 at a time: the game's further wrong codes answer
    429, its players' right codes from the same hall still open the page, the game is
    reported, and the access log holds no code, right or wrong."""
    game = GameFactory()
    with override_settings(SECRET_KEY=logged.secret):  # type: ignore[attr-defined]
        codes = [report_code(game, game.black_id), report_code(game, game.white_id)]
    right = codes[0]
    base = f"{logged.url}/r/{game.pk}"

    def junk(i: int) -> int:
        return requests.get(f"{base}/JUNK{i:04d}/", headers=_from(HALL), timeout=30).status_code

    statuses: Counter[int] = Counter()
    for batch in range(4):
        statuses += _at_once(8, lambda i, b=batch: junk(b * 8 + i))  # type: ignore[misc]
    assert set(statuses) == {404, 429} and statuses[404] == 10, statuses
    for code in codes:
        page = requests.get(f"{base}/{code[:4]}-{code[4:]}/", headers=_from(HALL), timeout=30)
        assert page.status_code == 200
    assert AuditEntry.objects.filter(
        action=AuditAction.GAME_CODES_GUESSED, object_id=str(game.pk)
    ).exists()
    log = (logged.log.parent / "access.log").read_text()
    assert f"/r/{game.pk}/********/" in log
    assert right not in log and "JUNK" not in log and right[:4] not in log
    errors = logged.log.read_text()  # Django's "Not Found: <path>" lines
    assert "JUNK" not in errors and right[:4] not in errors


def test_150_wrong_passwords_from_30_addresses_check_a_handful(logged: Server) -> None:
    """150 wrong passwords for one director from 30 forwarded addresses, 10 at a time,
    then the right one from yet another address.  Ten are checked, then one per pace
    (2, 4, 8 ... s); the right one waits its turn; the owner's own address is never
    paced."""
    _user("director")
    url = f"{logged.url}/api/v1/auth/token/"

    def login(password: str, address: str) -> requests.Response:
        return requests.post(
            url,
            json={"username": "director", "password": password},
            headers=_from(address),
            timeout=30,
        )

    assert login(PASSWORD, "198.51.100.7").status_code == 200  # his own address
    addresses = [f"192.0.2.{n + 1}" for n in range(30)] * 5
    started = time.monotonic()
    statuses: Counter[int] = Counter()
    for batch in range(15):
        statuses += _at_once(
            10, lambda i, b=batch: login("wrong", addresses[b * 10 + i]).status_code
        )  # type: ignore[misc]
    elapsed = time.monotonic() - started
    # 10 free, then at most one per turn of 2, 4, 8 ... seconds (one more for each
    # turn the elapsed time allowed); every other try is refused before any check.
    turns = 1 + sum(1 for k in range(1, 9) if 2 * (2**k - 1) <= elapsed)
    assert set(statuses) == {400, 429} and statuses[400] <= 10 + turns, (statuses, elapsed)
    print(f"\n150 wrong passwords from 30 addresses in {elapsed:.1f} s: {dict(statuses)}")
    refused = login(PASSWORD, "198.51.100.99")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert login(PASSWORD, "198.51.100.7").status_code == 200


def test_ten_pairing_requests_at_once_start_one_job(logged: Server) -> None:
    """A congress-size dry run asked ten times at once: one 202 with the job's URL, nine
    409s, one job; each request answered well under the 10 s bound."""
    director = _user("director")
    director_grant_admin(user=director)
    tournament = TournamentFactory(system="mcmahon", handicap_policy="mcmahon")
    tournament.directors.add(director)
    enter(tournament, *PlayerFactory.create_batch(6))
    token, _ = token_create(user=director)
    url = f"{logged.url}/api/v1/tournaments/{tournament.pk}/rounds/1/pairing/"
    headers = {**PROXY_HEADERS, "Authorization": f"Token {token}"}
    seconds: list[float] = []

    def ask(_: int) -> int:
        started = time.monotonic()
        answer = requests.post(url, json={"dry_run": True}, headers=headers, timeout=30)
        seconds.append(time.monotonic() - started)
        return answer.status_code

    statuses = _at_once(10, ask)
    assert statuses == Counter({202: 1, 409: 9}), statuses
    assert Job.objects.filter(kind="pairing").count() == 1
    assert max(seconds) < 10, seconds
    assert not Game.objects.exists()


def _reset_asker(server: Server, address: str) -> Callable[[str], int]:
    """A browser behind the proxy at ``address``: it reads the reset form (its CSRF
    cookie and token), then asks a reset for an e-mail address; the answer's status."""
    form = f"{server.url}/accounts/password_reset/"
    page = requests.get(form, headers=_from(address), timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token is not None
    cookie = page.cookies.get("csrftoken") or ""
    headers = {
        **_from(address),
        "Cookie": f"csrftoken={cookie}",  # a Secure cookie: requests keeps it for https
        "Referer": f"https://127.0.0.1:{server.port}/accounts/password_reset/",
    }

    def ask(email: str) -> int:
        data = {"csrfmiddlewaretoken": token.group(1), "email": email}
        answer = requests.post(form, data=data, headers=headers, timeout=30, allow_redirects=False)
        return answer.status_code

    return ask


def test_reset_mails_from_many_addresses_reach_one_account_three_times(logged: Server) -> None:
    """15 resets in a row asked for one player, from 15 forwarded addresses at once:
    every page reads the same, three mails go out; one address asking for six accounts
    is refused the sixth."""
    alice = _user("alice")
    alice.email = "alice@example.org"
    alice.save()
    askers = [_reset_asker(logged, f"192.0.2.{n + 1}") for n in range(15)]
    statuses = _at_once(15, lambda i: askers[i]("alice@example.org"))
    assert statuses == Counter({302: 15}), statuses
    time.sleep(1)  # the console backend's lines reach the log
    assert logged.log.read_text().count("To: alice@example.org") == 3
    hall = _reset_asker(logged, HALL)
    answers = [hall(f"someone{k}@example.org") for k in range(6)]
    assert answers == [302] * 5 + [429], answers
