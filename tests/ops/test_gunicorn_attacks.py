"""Attacks on tokens, logins, jobs and imports, run against the real server: gunicorn
with config/gunicorn.py (``gthread`` workers, ``WEB_THREADS`` threads each),
``DEBUG=0``, behind a simulated proxy, on the test PostgreSQL database and Redis.

Each test starts its own server on a free port; the rows it needs are committed first
(``transactional_db``), since the server is another process.  What is counted is what a
client sees: status codes, never a 500, and what the database holds afterwards.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from knox.settings import CONSTANTS

from games.models import Tournament
from games.people.services.grants import director_grant_admin, federation_official_grant
from ops.accounts import token_create
from ops.models import Job, JobState
from ratings.services import JOB_KIND
from tests.conftest import ROOT, Started, database_url_for_test_db
from tests.factories import UserFactory

pytestmark = pytest.mark.integration

PASSWORD = "correct horse battery staple"
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}  # what the TLS-ending proxy adds
CLIENT_A = "203.0.113.10"
CLIENT_B = "198.51.100.20"
SIMPLE_MM = ROOT / "tests" / "data" / "opengotha" / "pairgoth-simplemm.xml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server(Started):
    """``gunicorn -c config/gunicorn.py config.wsgi`` as ``make serve`` starts it."""

    what = "gunicorn"

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = int(env["PORT"])
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"]
        super().__init__(argv, env, log)

    def wait_ready(self, timeout: float = 60.0) -> None:
        self._wait(self._healthy, timeout, 0.3)

    def _healthy(self) -> bool:
        try:
            return requests.get(f"{self.url}/healthz", timeout=2).status_code == 200
        except requests.RequestException:  # not listening yet, or a worker still booting
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            # SIGINT: gunicorn's quick shutdown (SIGTERM waits for kept-alive connections).
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # a worker stuck on a kept-alive socket
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=20)
        self._fh.close()

    def tracebacks(self) -> str:
        text = self.log.read_text(errors="replace")
        return text if "Traceback" in text or "Internal Server Error" in text else ""


def _production_env(static_root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(static_root),
    }


@pytest.fixture(scope="session")
def static_root() -> Path:
    """``collectstatic`` as ``make serve`` runs it, into var/test-static/, when static/
    changed since: the server refuses to start without the manifest."""
    root = ROOT / "var" / "test-static"
    manifest = root / "staticfiles.json"
    sources = [p for p in (ROOT / "static").rglob("*") if p.is_file()]
    newest = max((p.stat().st_mtime for p in sources), default=0.0)
    if manifest.exists() and manifest.stat().st_mtime >= newest:
        return root  # collected since the last change: a session need not wait 30 s again
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=_production_env(root),
        check=True,
        timeout=120,
    )
    return root


@pytest.fixture
def server(
    postgres: None, redis_url: str, transactional_db: None, tmp_path: Path, static_root: Path
) -> Iterator[Server]:
    env = {
        **_production_env(static_root),
        "DATABASE_URL": database_url_for_test_db(),
        "REDIS_URL": redis_url,
        "HOST": "127.0.0.1",
        "PORT": str(_free_port()),
        # Two processes (the machine's share), each with config/gunicorn.py's threads.
        "WEB_CONCURRENCY": "2",
        # The simulated proxy: it ends TLS and appends the client's address.
        "SECURE_PROXY_SSL_HEADER": "1",
        "GOREF_TRUSTED_PROXIES": "127.0.0.1",
        "GOREF_RATED_BACKDATE_DAYS": "100000",  # the sample file's event is not recent
        # Every login costs a full PBKDF2 (Django hardens a cheaper stored hash to it):
        # three failures lock a pair as ten do, in a third of the time.
        "AXES_FAILURE_LIMIT": "3",
    }
    env.pop("WEB_THREADS", None)
    started = Server(env, tmp_path / "gunicorn.log")
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()
    assert not started.tracebacks(), started.tracebacks()[-3000:]


def _user(username: str) -> Any:
    # The server verifies with the project's hashers (the tests' fast MD5 is not one of
    # them): PBKDF2 with few iterations, which the server re-hashes at the first login.
    hashed = PBKDF2PasswordHasher().encode(PASSWORD, secrets.token_hex(8), iterations=1000)
    return UserFactory(username=username, password=hashed)


def _at_once(count: int, call: Callable[[int], int]) -> Counter[int]:
    """``call(i)`` for i in 0..count-1 from ``count`` threads released together."""
    start = threading.Barrier(count)

    def run(i: int) -> int:
        start.wait(timeout=30)
        return call(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return Counter(pool.map(run, range(count)))


def test_token_requests_8_at_a_time_never_answer_500(server: Server) -> None:
    """Tokens under threads: 80 requests, 8 at a time; a real player's token, tokens
    sharing its public key prefix, and made-up ones, interleaved."""
    real, _ = token_create(user=_user("alice"))
    clash = real[: CONSTANTS.TOKEN_KEY_LENGTH] + secrets.token_hex(32)[: len(real) - 8]
    # A public list: a valid token reads it (200); any other token is refused (401).
    url = f"{server.url}/api/v1/tournaments/"
    kinds = ["real", "made-up", "real", "clash"] * 20
    seen: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()

    def one(i: int) -> int:
        token = {"real": real, "clash": clash}.get(kinds[i]) or secrets.token_hex(32)
        status = requests.get(
            url, headers={**PROXY_HEADERS, "Authorization": f"Token {token}"}, timeout=30
        ).status_code
        with lock:
            seen[(kinds[i], status)] += 1
        return status

    for batch in range(10):
        _at_once(8, lambda i, b=batch: one(b * 8 + i))  # type: ignore[misc]
    assert sum(seen.values()) == 80
    expected = {("real", 200): 40, ("made-up", 401): 20, ("clash", 401): 20}
    assert dict(seen) == expected, sorted(seen.items())


def test_30_simultaneous_recomputes_leave_one_job_and_no_500(server: Server) -> None:
    """A job asked for many times at once: every answer 202 (or 409 for a request that
    lost the race), one pending job."""
    official = _user("official")
    federation_official_grant(actor=None, user=official)
    token, _ = token_create(user=official)
    url = f"{server.url}/api/v1/ratings/recompute/"
    headers = {**PROXY_HEADERS, "Authorization": f"Token {token}"}
    statuses = _at_once(
        30, lambda i: requests.post(url, json={}, headers=headers, timeout=60).status_code
    )
    assert set(statuses) <= {202, 409} and statuses[202] >= 1, statuses
    assert Job.objects.filter(kind=JOB_KIND, state=JobState.PENDING).count() == 1


def test_one_proxied_clients_failures_never_lock_the_other_out(server: Server) -> None:
    """Logins behind a proxy: the failures from client A lock (alice, A); alice from B logs in."""
    _user("alice")
    url = f"{server.url}/api/v1/auth/token/"

    def login(password: str, client: str) -> int:
        return requests.post(
            url,
            json={"username": "alice", "password": password},
            headers={**PROXY_HEADERS, "X-Forwarded-For": client},
            timeout=30,
        ).status_code

    # Each failure is a 400; the last one locks the pair and already answers 429.
    failures = [login("wrong", CLIENT_A) for _ in range(3)]
    assert failures[:2] == [400, 400] and failures[2] in (400, 429), failures
    assert login(PASSWORD, CLIENT_A) == 429
    assert login(PASSWORD, CLIENT_B) == 200


def test_two_simultaneous_imports_of_one_file_never_answer_500(server: Server) -> None:
    """One file imported twice at once: both imports succeed, one after the other in the
    identity step; never a 500, never the same person created twice."""
    director = _user("director")
    director_grant_admin(user=director)
    token, _ = token_create(user=director)
    data = SIMPLE_MM.read_bytes()
    refusals: list[str] = []

    def upload(_: int) -> int:
        response = requests.post(
            f"{server.url}/api/v1/tournaments/import/",
            files={"file": ("simplemm.xml", data, "text/xml")},
            headers={**PROXY_HEADERS, "Authorization": f"Token {token}"},
            timeout=60,
        )
        if response.status_code != 201:
            refusals.append(response.text)
        return response.status_code

    statuses = _at_once(2, upload)
    # The identity steps take turns (ops.conflicts.take_turns_on): both files import and
    # the second links to the players the first created, never a second copy of them.
    assert statuses == Counter({201: 2}), (statuses, refusals)
    imported = Tournament.objects.filter(games__isnull=False).distinct()
    assert imported.count() == 2
    players = {e.player_id for t in imported for e in t.entries.all()}
    assert len(players) == 16
    for t in imported:
        assert t.games.count() == 40 and t.entries.count() == 16
