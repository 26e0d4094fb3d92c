"""Re-scoring with real worker processes, real Redis and real PostgreSQL.

Each test purges the Celery queue of its Redis database first, waits with a
bounded timeout, and leaves no worker or redis-server behind (the
``start_worker`` fixture stops its workers; ``own_redis`` stops its server).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from games import services, tasks
from games.models import Game, GameState, ScoringRun
from games.services import scoring
from ops.models import Job
from referee.models import Dispute
from tests.conftest import wait_for
from tests.factories import GameFactory, TournamentFactory
from tests.games.conftest import RedisServer, broker_key, use_broker
from tests.games.rescore_helpers import BROKEN, FINISHED, MARKED, count, opposite

pytestmark = pytest.mark.integration


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
    services.game_result_submit(actor=alice.user, game=game, result=wrong, sgf=MARKED)
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
    assert wait_for(
        lambda: r.llen(broker_key("scoring")) == 0 and r.hlen(broker_key("unacked")) == 0,
        timeout=30,
    )
    run.refresh_from_db()
    assert ScoringRun.objects.count() == 1
    assert (run.state, run.attempts) == ("done", 1)


SCORING_DELAY = 0.1  # seconds a slow worker waits after each game


def test_a_worker_killed_mid_batch_leaves_every_game_scored_exactly_once(clean_queue, start_worker):
    """Workers started with ``scoring_delay`` wait after each game, so the kill lands
    mid-batch."""
    tournament = TournamentFactory()
    # The record carries its territory markup: no dead-stone estimate, so each count
    # takes the scoring delay and little more, as the timing below assumes.
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
    dead = set(held.values())  # the pool processes of the killed worker

    # Its heartbeat stops; once it is stale (15 s) the sweep of the new worker's beat
    # queues the runs it held, and the runs of the chunk it had taken but not yet
    # claimed, whose message no longer waits in the queue.
    second = start_worker(
        concurrency=2,
        scoring_delay=SCORING_DELAY,
        beat=True,
        env_extra={"GOREF_SWEEP_SECONDS": "2", "GOREF_REQUEUE_AFTER": "4"},
    )
    if not wait_for(lambda: progress().state == "done", timeout=90, interval=0.5):
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
            assert r.attempts == 2 and r.claimed_by not in dead, r
        else:
            assert r.attempts == 1, r


# --------------------------------------------------------------------------- Redis outage


def test_a_submission_while_redis_is_down_is_kept_and_scored_when_it_is_back(
    own_redis: RedisServer, start_worker: Any, game: Game, alice: Any
) -> None:
    use_broker(own_redis.url)
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
