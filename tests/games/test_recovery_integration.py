"""Recovery with real worker processes, Redis and PostgreSQL: a pool process killed, a
worker restarted under the same name, the broker's queue lost, the broker stopped.

Each scenario re-scores a batch (or takes submissions) and checks that every run
ends ``done`` once, within the times docs/operations.md promises, with the
sweep's intervals shortened for the test (GOREF_SWEEP_SECONDS and
GOREF_REQUEUE_AFTER; the defaults are 30 s and 60 s).
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from games import services
from games.models import Game, GameState, ScoringRun
from games.services import scoring
from ops.models import Job
from tests.conftest import wait_for
from tests.factories import GameFactory, TournamentFactory
from tests.games.conftest import RedisServer, broker_key, use_broker
from tests.games.rescore_helpers import FINISHED, count

pytestmark = pytest.mark.integration

FAST_SWEEP = {"GOREF_SWEEP_SECONDS": "2", "GOREF_REQUEUE_AFTER": "4"}
DELAY = 0.1  # seconds a slow worker waits after each game


def _batch(n: int) -> tuple[list[Game], Any]:
    tournament = TournamentFactory()
    games = [
        GameFactory(
            tournament=tournament,
            table=i + 1,
            sgf=FINISHED,
            result_winner="W",
            result_reason="score",
            result_margin=6.5,
            state=GameState.SUBMITTED,
        )
        for i in range(n)
    ]
    return games, tournament


def _job_done(job_id: int) -> bool:
    return Job.objects.get(pk=job_id).state == "done"


def _all_scored_once(games: list[Game], held: dict[int, str]) -> None:
    runs = list(ScoringRun.objects.filter(game__in=games))
    assert len(runs) == len(games) and {r.state for r in runs} == {"done"}
    for r in runs:
        # Claimed by the lost process and once more, or once; never counted twice.
        assert r.attempts == (2 if r.pk in held else 1), r


def _mid_batch(job_id: int) -> dict[int, str]:
    def busy() -> bool:
        return Job.objects.get(pk=job_id).done >= 5 and (
            ScoringRun.objects.filter(state="running").exists()
        )

    assert wait_for(busy, timeout=60, interval=0.05)
    return dict(ScoringRun.objects.filter(state="running").values_list("pk", "claimed_by"))


def _report(worker: Any) -> str:
    left = list(
        ScoringRun.objects.exclude(state="done").values_list(
            "pk", "state", "claimed_by", "queued_at"
        )
    )
    return f"{left}\n{worker.log.read_text()[-3000:]}"


def test_a_killed_pool_process_frees_its_claims_while_its_worker_lives_on(
    clean_queue: str, start_worker: Any
) -> None:
    games, tournament = _batch(40)
    worker = start_worker(concurrency=1, scoring_delay=DELAY)
    job = scoring.tournament_rescore(actor=None, tournament=tournament, chunk_size=5)
    held = _mid_batch(job.pk)
    (identity,) = set(held.values())
    child = int(identity.rsplit("/", 1)[1])
    assert child != worker.proc.pid  # the pool process, not the worker
    os.kill(child, signal.SIGKILL)  # the OOM killer; the main process beats on
    killed = time.monotonic()
    if not wait_for(lambda: _job_done(job.pk), timeout=90, interval=0.25):
        pytest.fail(_report(worker))
    # The next beat (5 s) drops the child and queues a sweep: well within a minute.
    assert time.monotonic() - killed < 60
    assert worker.proc.poll() is None
    _all_scored_once(games, held)


def test_a_worker_restarted_under_the_same_name_takes_over_its_old_claims_at_once(
    clean_queue: str, start_worker: Any
) -> None:
    games, tournament = _batch(40)
    name = f"same-{os.getpid()}@test"
    first = start_worker(concurrency=1, scoring_delay=DELAY, hostname=name)
    job = scoring.tournament_rescore(actor=None, tournament=tournament, chunk_size=5)
    held = _mid_batch(job.pk)
    first.kill()  # SIGKILL, then a supervisor restarts it under the same name
    second = start_worker(concurrency=1, hostname=name, beat=True, env_extra=FAST_SWEEP)
    restarted = time.monotonic()
    if not wait_for(lambda: _job_done(job.pk), timeout=90, interval=0.25):
        pytest.fail(_report(second))
    assert time.monotonic() - restarted < 60
    _all_scored_once(games, held)


def test_runs_whose_messages_the_broker_lost_are_published_again(
    clean_queue: str, start_worker: Any
) -> None:
    import redis

    games, tournament = _batch(30)
    job = scoring.tournament_rescore(actor=None, tournament=tournament, chunk_size=5)
    broker = redis.Redis.from_url(clean_queue)
    assert broker.llen(broker_key("scoring")) == 6  # queued, no worker yet
    broker.delete(broker_key("scoring"))  # Redis restarted without persistence: the queue is gone
    assert ScoringRun.objects.filter(state="pending", queued_at__isnull=False).count() == 30
    worker = start_worker(concurrency=2, beat=True, env_extra=FAST_SWEEP)
    started = time.monotonic()
    if not wait_for(lambda: _job_done(job.pk), timeout=60, interval=0.25):
        pytest.fail(_report(worker))
    assert time.monotonic() - started < 30
    _all_scored_once(games, {})


def test_while_the_broker_is_down_submissions_fail_fast_and_are_scored_when_it_is_back(
    own_redis: RedisServer, start_worker: Any, settings: Any, tournament: Any, alice: Any
) -> None:
    from tests.factories import PlayerFactory

    # The cache on the same Redis, as in production.
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "ops.pages.backends.ForgivingRedisCache",
            "LOCATION": own_redis.url,
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        },
    }
    games = [
        GameFactory(tournament=tournament, table=i + 1, black=alice, white=PlayerFactory())
        for i in range(5)
    ]
    use_broker(own_redis.url)
    worker = start_worker(broker_url=own_redis.url, env_extra=FAST_SWEEP, beat=True)
    own_redis.stop()

    timings = []
    for game in games:
        started = time.monotonic()
        services.game_result_submit(
            actor=alice.user, game=game, result=count(FINISHED), sgf=FINISHED
        )
        timings.append(time.monotonic() - started)
    # The first publish fails at once (refused); the rest do not even try.
    assert max(timings) < 1.0, timings
    runs = list(ScoringRun.objects.filter(game__in=games))
    assert len(runs) == 5 and {(r.state, r.queued_at) for r in runs} == {("pending", None)}

    time.sleep(scoring.SWEEP_GRACE.total_seconds())
    own_redis.start()  # same port: the worker reconnects and sweeps
    back = time.monotonic()
    if not wait_for(
        lambda: (
            set(ScoringRun.objects.filter(game__in=games).values_list("state", flat=True))
            == {"done"}
        ),
        timeout=90,
        interval=0.5,
    ):
        pytest.fail(_report(worker))
    assert time.monotonic() - back < 60
    assert all(r.attempts == 1 for r in ScoringRun.objects.filter(game__in=games))
