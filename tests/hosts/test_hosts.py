"""Several hosts on one PostgreSQL and one Redis, as the README's "More than one machine"
sets them up: two web servers and two workers, each in a network namespace of its own
(``make test-hosts``, as root).  A write on one host reads on the other; a worker killed
while it holds claims is taken over by the other host's; two sites sharing a Redis DB
neither read each other's pages nor run each other's tasks, and a second site under
the first's name is refused."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from django.conf import settings

from games.models import GameState, ScoringRun
from games.services import scoring
from ops.accounts import token_create
from ops.models import Job
from tests.conftest import ROOT, Started, database_url_for_test_db, wait_for
from tests.factories import GameFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.games.conftest import broker_key, use_broker
from tests.games.rescore_helpers import MARKED
from tests.hosts.network import HostServer, HostWorker, Network, on_host, usable

pytestmark = [pytest.mark.hosts, pytest.mark.integration]

SECRET_KEY = secrets.token_urlsafe(50)  # one for every host, from the environment
# The proxy in front of the hosts ends TLS (DEBUG=0 redirects plain HTTP).
http = requests.Session()
http.headers["X-Forwarded-Proto"] = "https"


@pytest.fixture
def network(postgres: None, redis_url: str, transactional_db: None) -> Iterator[Network]:
    reason = usable()
    if reason:
        from tests.conftest import _missing

        _missing(reason)
    net = Network(2)
    use_broker(redis_url)
    try:
        yield net
    finally:
        use_broker(settings.CELERY_BROKER_URL)
        net.close()


def host_env(net: Network, i: int, redis_url: str, static: Path, **extra: str) -> dict[str, str]:
    host = net.hosts[i]
    return {
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": ",".join(h.ip for h in net.hosts),
        "STATIC_ROOT": str(static),
        "DATABASE_URL": on_host(database_url_for_test_db(), host),
        "REDIS_URL": on_host(redis_url, host),
        "GOREF_SITE": settings.GOREF_SITE,
        "GOREF_WARM_PAGES": "0",
        "SECURE_PROXY_SSL_HEADER": "1",
        "GOREF_TRUSTED_PROXIES": ",".join(h.gateway for h in net.hosts),
        **extra,
    }


@pytest.fixture
def started() -> Iterator[list[Any]]:
    """What a test starts, stopped at its end."""
    processes: list[Any] = []
    yield processes
    for p in processes:
        p.stop()


def test_a_write_on_one_host_reads_on_the_other(
    network: Network, redis_url: str, static_root: Path, tmp_path: Path, started: list[Any]
) -> None:
    webs = [
        HostServer(h, host_env(network, i, redis_url, static_root), tmp_path / f"web{i}.log")
        for i, h in enumerate(network.hosts)
    ]
    started.extend(webs)
    for web in webs:
        web.wait_ready()
    staff = UserFactory(username="ops", is_staff=True)
    token = {"Authorization": f"Token {token_create(user=staff)[0]}"}
    player = PlayerFactory(family_name="Liddell")
    path = f"/api/v1/players/{player.pk}/"
    assert http.get(webs[1].url + path, timeout=5).json()["family_name"] == "Liddell"

    patched = http.patch(
        webs[0].url + path, json={"family_name": "Pleasance"}, headers=token, timeout=5
    )
    assert patched.status_code == 200, patched.text
    written = time.monotonic()
    # Signed in, the other host reads exact versions: the write shows at once.
    assert http.get(webs[1].url + path, headers=token, timeout=5).json()["family_name"] == (
        "Pleasance"
    )
    # A visitor may be a moment late (GOREF_VISITOR_STALE_SECONDS, 1 s), never more.
    assert wait_for(
        lambda: http.get(webs[1].url + path, timeout=5).json()["family_name"] == "Pleasance",
        timeout=5,
        interval=0.05,
    )
    assert time.monotonic() - written < 2
    for web in webs:
        assert not web.tracebacks()


def test_a_worker_killed_holding_claims_is_taken_over_by_the_other_host(
    network: Network, redis_url: str, static_root: Path, tmp_path: Path, started: list[Any]
) -> None:
    tournament = TournamentFactory()
    games = [
        GameFactory(
            tournament=tournament,
            table=i + 1,
            sgf=MARKED,
            result_winner="W",
            result_reason="score",
            result_margin=6.5,
            state=GameState.SUBMITTED,
        )
        for i in range(30)
    ]
    env = [host_env(network, i, redis_url, static_root) for i in range(2)]
    first = HostWorker(network.hosts[0], env[0], tmp_path / "worker0.log", scoring_delay=0.1)
    started.append(first)
    first.wait_ready()
    job = scoring.tournament_rescore(actor=None, tournament=tournament, chunk_size=5)

    def progress() -> Job:
        return Job.objects.get(pk=job.pk)

    def mid_batch() -> bool:
        return progress().done >= 5 and ScoringRun.objects.filter(state="running").exists()

    assert wait_for(mid_batch, timeout=60, interval=0.05)
    first.kill()  # the host's worker dies with its claims
    held = dict(ScoringRun.objects.filter(state="running").values_list("pk", "claimed_by"))
    assert held, "the kill should land while chunks are scored"

    second = HostWorker(
        network.hosts[1],
        {**env[1], "GOREF_SWEEP_SECONDS": "2", "GOREF_REQUEUE_AFTER": "4"},
        tmp_path / "worker1.log",
        scoring_delay=0.1,
        beat_schedule=tmp_path / "beat",
    )
    started.append(second)
    second.wait_ready()
    if not wait_for(lambda: progress().state == "done", timeout=90, interval=0.5):
        pytest.fail(second.log.read_text()[-4000:])
    finished = progress()
    assert (finished.done, finished.failed, finished.total) == (len(games), 0, len(games))
    runs = list(ScoringRun.objects.filter(game__in=games))
    assert len(runs) == len(games) and {r.state for r in runs} == {"done"}
    for r in runs:  # the dead worker's claims scored once more, by the other host
        assert r.attempts == (2 if r.pk in held else 1), r
        if r.pk in held:
            assert r.claimed_by not in set(held.values())


@pytest.fixture
def second_site(tmp_path: Path) -> str:
    """The DATABASE_URL of another site's database (SQLite, migrated)."""
    url = f"sqlite:///{tmp_path}/site-b.sqlite3"
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": url, "GOREF_VAR_DIR": str(tmp_path)}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300
    )
    return url


def test_two_sites_on_one_redis_db_stay_apart(
    network: Network,
    redis_url: str,
    static_root: Path,
    tmp_path: Path,
    started: list[Any],
    second_site: str,
) -> None:
    database_b = second_site
    player = PlayerFactory(family_name="Liddell")
    make_b = (
        "from tests.factories import PlayerFactory; "
        f"PlayerFactory(pk={player.pk}, family_name='Siteb')"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", make_b],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": database_b, "GOREF_VAR_DIR": str(tmp_path)},
        check=True,
        timeout=120,
    )
    a = HostServer(
        network.hosts[0], host_env(network, 0, redis_url, static_root), tmp_path / "a.log"
    )
    env_b = host_env(network, 1, redis_url, static_root, DATABASE_URL=database_b)
    del env_b["GOREF_SITE"]  # named by its database: site-b
    b = HostServer(network.hosts[1], env_b, tmp_path / "b.log")
    started.extend([a, b])
    a.wait_ready()
    b.wait_ready()
    path = f"/api/v1/players/{player.pk}/"
    for _ in range(2):  # the second read of each comes from the cache
        assert http.get(a.url + path, timeout=5).json()["family_name"] == "Liddell"
        assert http.get(b.url + path, timeout=5).json()["family_name"] == "Siteb"

    # Site B's worker never runs site A's tasks.
    worker_b = HostWorker(network.hosts[1], env_b, tmp_path / "worker-b.log")
    started.append(worker_b)
    worker_b.wait_ready()
    from ratings.tasks import ratings_sweep

    client = redis.Redis.from_url(redis_url)
    client.delete(broker_key("sweeps"))
    ratings_sweep.delay()  # on site A's queue, with no worker of site A
    time.sleep(3)
    assert client.llen(broker_key("sweeps")) == 1
    assert "Task ratings.sweep[" not in worker_b.log.read_text()
    client.delete(broker_key("sweeps"))

    # A third start, on site B's database under site A's name, is refused.
    clash = {**env_b, "GOREF_SITE": settings.GOREF_SITE}
    refused = Started(
        network.hosts[1].argv(sys.executable, "manage.py", "runserver", "--noreload", "0:8001"),
        clash,
        tmp_path / "clash.log",
    )
    assert refused.proc.wait(timeout=60) == 1
    assert "already serves the site" in refused.log.read_text()
