"""Re-scoring with real worker processes, real Redis and real PostgreSQL.

Each test purges the Celery queue of its Redis database first, waits with a
bounded timeout, and leaves no worker or redis-server behind (the
``start_worker`` fixture stops its workers; ``own_redis`` stops its server).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from config.celery import app
from games import services, tasks
from games.models import Game, GameState, ScoringRun
from games.services import scoring
from ops.models import Job, WorkerHeartbeat
from ops.worker import WORKER_GONE_AFTER
from referee.models import Dispute
from tests.conftest import wait_for
from tests.factories import GameFactory, TournamentFactory
from tests.games.rescore_helpers import BROKEN, FINISHED, count, opposite

pytestmark = pytest.mark.integration


def _use_broker(url: str) -> None:
    """Point this process's Celery app (the publishing side) at ``url``."""
    # With the CELERY namespace the prefixed key is the one Celery reads first.
    app.conf["CELERY_BROKER_URL"] = url
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def clean_queue(redis_url: str) -> Iterator[str]:
    """Nothing left over from another test in our Redis database; publish to it."""
    import redis

    r = redis.Redis.from_url(redis_url)
    r.delete("celery", "unacked", "unacked_index")
    before = app.conf.broker_url
    _use_broker(redis_url)
    yield redis_url
    _use_broker(before)


def _run(game: Game) -> ScoringRun:
    return ScoringRun.objects.get(game=game)


def _finished(game: Game) -> bool:
    return _run(game).state in ("done", "failed")


def test_a_submitted_record_is_verified_by_a_worker(clean_queue, start_worker, game, alice):
    start_worker()
    services.game_result_submit(actor=alice.user, game=game, result=count(FINISHED), sgf=FINISHED)
    assert wait_for(lambda: _finished(game), timeout=30)
    run = _run(game)
    assert (run.state, run.matches, run.computed_result) == ("done", True, count(FINISHED))
    assert run.attempts == 1 and run.claimed_by.startswith("test-")


def test_a_wrong_result_opens_a_dispute(clean_queue, start_worker, game, alice):
    start_worker()
    wrong = opposite(count(FINISHED))
    services.game_result_submit(actor=alice.user, game=game, result=wrong, sgf=FINISHED)
    assert wait_for(lambda: _finished(game), timeout=30)
    run = _run(game)
    assert run.matches is False and run.dispute_id == Dispute.objects.get(game=game).pk
    assert Game.objects.get(pk=game.pk).state == GameState.DISPUTED


def test_a_poison_record_ends_as_a_failed_run(clean_queue, start_worker, tournament):
    game = GameFactory(
        tournament=tournament,
        sgf=BROKEN,
        result_winner="B",
        result_reason="resignation",
        state=GameState.SUBMITTED,
    )
    run = scoring.scoring_run_request(game=game)
    start_worker()
    assert wait_for(lambda: _finished(game), timeout=30)
    time.sleep(1)  # a retry, if there were one, would have claimed it again by now
    run.refresh_from_db()
    assert (run.state, run.attempts) == ("failed", 1) and "SgfError" in run.error


def test_the_same_message_delivered_twice_leaves_one_run(clean_queue, start_worker, game, alice):
    services.game_result_submit(actor=alice.user, game=game, result=count(FINISHED), sgf=FINISHED)
    run = _run(game)
    tasks.rescore_game.delay(run.pk)  # the on_commit publish was the first
    start_worker(concurrency=2)
    assert wait_for(lambda: _finished(game), timeout=30)
    import redis

    r = redis.Redis.from_url(clean_queue)
    assert wait_for(lambda: r.llen("celery") == 0 and r.hlen("unacked") == 0, timeout=30)
    run.refresh_from_db()
    assert ScoringRun.objects.count() == 1
    assert (run.state, run.attempts) == ("done", 1)


SCORING_DELAY = 0.1  # seconds a slow worker waits after each game


@pytest.fixture
def slow_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers started with ``scoring_delay`` wait after each game, so a kill lands mid-batch.

    A kill can also land between the delivery of a chunk and its claim: those
    runs are pending, and only Redis knows the message is unacknowledged.  It
    hands it out again after the visibility timeout, shortened here to its
    minimum (60 s, with the hard time limit below it) so the test can see it.
    """
    monkeypatch.setenv("CELERY_VISIBILITY_TIMEOUT", "60")
    monkeypatch.setenv("CELERY_TASK_TIME_LIMIT", "30")


def test_a_worker_killed_mid_batch_leaves_every_game_scored_exactly_once(
    slow_scoring, clean_queue, start_worker
):
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
        for i in range(60)
    ]
    first = start_worker(concurrency=2, scoring_delay=SCORING_DELAY)
    job = scoring.tournament_rescore(actor=None, tournament=tournament, chunk_size=5)

    def progress() -> Job:
        return Job.objects.get(pk=job.pk)

    def mid_batch() -> bool:  # some chunks stored, others being scored right now
        return progress().done >= 10 and ScoringRun.objects.filter(state="running").exists()

    assert wait_for(mid_batch, timeout=60, interval=0.05)
    first.kill()  # SIGKILL, the whole process group
    killed = progress()
    held = dict(ScoringRun.objects.filter(state="running").values_list("pk", "claimed_by"))
    assert held, f"the kill should land while chunks are scored (done: {killed.done})"
    assert killed.done < len(games)
    (dead_host,) = set(held.values())

    # Its heartbeat stops; once it is stale, the runs it held are fair game.
    def gone() -> bool:
        beat = WorkerHeartbeat.objects.get(hostname=dead_host.split("/")[0])
        return beat.last_seen < timezone.now() - WORKER_GONE_AFTER

    assert wait_for(gone, timeout=60, interval=0.5)
    # sweeps as it connects: held runs are queued again
    second = start_worker(concurrency=2, scoring_delay=SCORING_DELAY)
    if not wait_for(lambda: progress().state == "done", timeout=150, interval=0.5):
        states = list(ScoringRun.objects.values_list("pk", "state", "claimed_by", "queued_at"))
        pytest.fail(
            f"{held}\n{[s for s in states if s[1] != 'done']}\n{second.log.read_text()[-4000:]}"
        )

    finished = progress()
    assert (finished.done, finished.failed, finished.total) == (len(games), 0, len(games))
    runs = list(ScoringRun.objects.filter(game__in=games))
    assert len(runs) == len(games) and {r.state for r in runs} == {"done"}
    for r in runs:
        if r.pk in held:  # claimed by the dead worker, then once more by the new one
            assert r.attempts == 2 and r.claimed_by != dead_host, r
        else:
            assert r.attempts == 1, r


# --------------------------------------------------------------------------- Redis outage


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is needed for this test"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert wait_for(self.answers, timeout=10), "redis-server did not start"

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture
def own_redis(redis_url: str) -> Iterator[RedisServer]:
    server = RedisServer(_free_port())
    server.start()
    before = app.conf.broker_url
    try:
        yield server
    finally:
        server.stop()
        _use_broker(before)


def test_a_submission_while_redis_is_down_is_kept_and_scored_when_it_is_back(
    own_redis: RedisServer, start_worker: Any, game: Game, alice: Any
) -> None:
    _use_broker(own_redis.url)
    start_worker(broker_url=own_redis.url)
    own_redis.stop()

    started = time.monotonic()
    services.game_result_submit(actor=alice.user, game=game, result=count(FINISHED), sgf=FINISHED)
    assert time.monotonic() - started < 10  # the publish failed fast
    assert Game.objects.get(pk=game.pk).sgf == FINISHED  # nothing lost
    run = _run(game)
    assert (run.state, run.queued_at) == ("pending", None) and run.waiting_for_queue

    # The outage lasts longer than the sweep's grace for a publish still on its way.
    time.sleep(max(0.0, scoring.SWEEP_GRACE.total_seconds() + 0.5 - (time.monotonic() - started)))
    own_redis.start()  # same port: the worker reconnects, and sweeps as it does
    assert wait_for(lambda: _finished(game), timeout=90, interval=0.5)
    run.refresh_from_db()
    assert (run.state, run.matches, run.attempts) == ("done", True, 1)
    assert run.queued_at is not None
