"""Shared fixtures: integration services (real PostgreSQL, Redis, Celery worker).

Tests marked ``integration`` need ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``:
without them they skip with a reason, and under ``GOREF_REQUIRE_INTEGRATION=1``
(CI, ``.ci/run``) they fail instead, so they are never skipped silently.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from config.startup import SITE_MARKER

# Personas (director, referee, players, outsider) and factories, shared by every app's tests.
pytest_plugins = ["tests.personas"]

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_INTEGRATION = os.environ.get("GOREF_REQUIRE_INTEGRATION") == "1"
# The servers and workers tests start as processes: no page rebuilds queued for a worker
# that may not run (see _no_page_warming); a test that wants them passes "1".
os.environ.setdefault("GOREF_WARM_PAGES", "0")


@pytest.fixture(autouse=True, scope="session")
def _no_site_marker_of_an_earlier_run() -> None:
    """Servers and workers the tests start mark the test Redis DB as their test
    database's site (config.startup.site_problem); the test database is made afresh in
    each run, so an earlier run's marker would refuse them."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        for key in client.scan_iter(f"*:{SITE_MARKER}"):
            client.delete(key)
    except redis.RedisError:
        return  # the tests that need Redis say so themselves


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings) -> None:  # type: ignore[no-untyped-def]
    """Personas create several users per test; a slow hasher would dominate the run."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_page_warming(settings) -> None:  # type: ignore[no-untyped-def]
    """No worker runs beside most tests: a queued page rebuild would leave the pages a
    test reads stale for ``GOREF_WARM_SECONDS``.  tests/games/tournament/test_page_warming.py
    turns it on."""
    settings.GOREF_WARM_PAGES = False


@pytest.fixture(autouse=True)
def _fresh_process_state(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """No test inherits another's cached reads or its "broker down" moment.

    A test runs in one transaction that never commits, so cached reads are
    invalidated at the write instead of after commit (``GOREF_CACHE_BUMP_AT_WRITE``):
    every page test that writes and reads again checks that the write bumps what the
    page shows.
    """
    from django.core.cache import caches

    from ops.pages import cache as versioned
    from ops.pages.backends import ForgivingRedisCache
    from ops.tasks_common import mark_broker

    for alias in ("default", "versioned"):
        caches[alias].clear()
    versioned.forget_versions()
    # A test of Redis down marks it down for a few seconds, class-wide: without this,
    # the page-cache tests right after it found nothing cached.
    ForgivingRedisCache.forget_down()
    settings.GOREF_CACHE_BUMP_AT_WRITE = True
    mark_broker(up=True)
    yield
    mark_broker(up=True)


def _missing(reason: str) -> None:
    if REQUIRE_INTEGRATION:
        pytest.fail(f"integration service missing in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture
def postgres(settings) -> None:  # type: ignore[no-untyped-def]
    """The test runs on a real PostgreSQL database."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        _missing("DATABASE_URL does not point at PostgreSQL")


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        _missing("REDIS_URL is not set")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        _missing(f"Redis at {url} does not answer: {exc}")
    return url


def database_url_for_test_db() -> str:
    """A DATABASE_URL naming the test database pytest-django created, for subprocesses."""
    from django.db import connection

    cfg = connection.settings_dict
    user = cfg.get("USER") or ""
    password = cfg.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = cfg.get("HOST") or "127.0.0.1"
    port = cfg.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{cfg['NAME']}"


class Started:
    """A process a test starts from the project's root, in its own process group (so that
    it is stopped with its children), its output in ``log``."""

    what = "process"

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._fh = log.open("wb")
        self.proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdout=self._fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def _wait(self, ready: Callable[[], bool], timeout: float, interval: float) -> None:
        """Until ``ready()``; an error with the end of its log if it exits or times out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.what} exited early:\n{self.log.read_text()[-3000:]}")
            if ready():
                return
            time.sleep(interval)
        raise RuntimeError(
            f"{self.what} not ready after {timeout}s:\n{self.log.read_text()[-3000:]}"
        )


class Worker(Started):
    """A real ``celery worker`` process bound to the test database and broker."""

    what = "worker"

    def __init__(
        self,
        env: dict[str, str],
        concurrency: int,
        log: Path,
        scoring_delay: float = 0.0,
        hostname: str = "",
        beat_schedule: Path | None = None,
    ) -> None:
        self.hostname = hostname or f"test-{os.getpid()}-{time.monotonic_ns()}@%h"
        beat = ["-B", "-s", str(beat_schedule)] if beat_schedule else []
        # A delay: celery started through tests/games/slow_worker.py, slowed per game.
        command = ["tests.games.slow_worker", str(scoring_delay)] if scoring_delay else ["celery"]
        argv = [
            sys.executable,
            "-m",
            *command,
            "-A",
            "config",
            "worker",
            "--loglevel=INFO",
            f"--concurrency={concurrency}",
            "--without-mingle",
            "--without-gossip",
            "--pool=prefork",
            f"--hostname={self.hostname}",
            *beat,
        ]
        super().__init__(argv, env, log)

    def wait_ready(self, timeout: float = 30.0) -> None:
        self._wait(lambda: b"ready." in self.log.read_bytes(), timeout, 0.2)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the whole process group (the main process and its pool children)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self._fh.close()


@pytest.fixture
def start_worker(
    postgres: None, redis_url: str, transactional_db: None, tmp_path: Path
) -> Iterator[Callable[..., Worker]]:
    """Start real Celery worker processes on the test PostgreSQL database and Redis.

    Tests using it run with ``transactional_db`` so the worker sees committed rows.
    """
    workers: list[Worker] = []
    env = dict(os.environ)
    env["DATABASE_URL"] = database_url_for_test_db()
    env["REDIS_URL"] = redis_url
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    # The test database's name is not this process's: the worker takes this site's keys.
    from django.conf import settings

    env["GOREF_SITE"] = settings.GOREF_SITE

    def start(
        *,
        concurrency: int = 1,
        broker_url: str | None = None,
        scoring_delay: float = 0.0,
        hostname: str = "",
        beat: bool = False,
        env_extra: dict[str, str] | None = None,
    ) -> Worker:
        """``beat``: with the sweeps on their schedule (``-B``); ``hostname``: a fixed node
        name (a restart under the same name); ``env_extra``: settings, e.g. shorter intervals."""
        worker_env = {**env, **(env_extra or {})}
        if broker_url:
            worker_env["REDIS_URL"] = broker_url
        log = tmp_path / f"worker-{len(workers)}.log"
        schedule = tmp_path / f"beat-{len(workers)}" if beat else None
        worker = Worker(worker_env, concurrency, log, scoring_delay, hostname, schedule)
        workers.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in workers:
        worker.stop()


def wait_for(predicate: Callable[[], bool], timeout: float = 30.0, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
