"""Re-scoring task bodies, called directly: claim, match, mismatch, poison, retry, batches."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

from games import services, tasks
from games.engine import ENGINE_VERSION
from games.models import Game, GameState, ScoringRun
from games.services import scoring, scoring_worker
from ops.models import Job, JobState, WorkerHeartbeat
from ops.worker import WORKER_GONE_AFTER, process_identity
from referee.models import Dispute
from tests.factories import GameFactory
from tests.games.rescore_helpers import BROKEN, FINISHED, ILLEGAL, MARKED, Broker, count, opposite


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    b = Broker()
    b.patch(monkeypatch)
    return b


def submit(game: Game, player: Any, result: str, sgf: str = FINISHED, **kw: Any) -> ScoringRun:
    services.game_result_submit(actor=player.user, game=game, result=result, sgf=sgf, **kw)
    return ScoringRun.objects.get(game=game)


def stored_game(tournament: Any, sgf: str, result: str = "B+R", **kw: Any) -> Game:
    """A game whose record was stored without the services (old data, a bulk import)."""
    return GameFactory(
        tournament=tournament,
        sgf=sgf,
        result_winner=result[0],
        result_reason="resignation",
        state=GameState.SUBMITTED,
        **kw,
    )


# --------------------------------------------------------------------------- requests


def test_a_result_with_a_record_queues_one_run_after_commit(
    game, alice, broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        run = submit(game, alice, count(FINISHED))
    run.refresh_from_db()
    assert (run.state, run.rules, run.engine_version) == ("pending", "japanese", ENGINE_VERSION)
    assert run.queued_at is not None and not run.waiting_for_queue
    assert broker.sent == [("rescore_game", (run.pk,))]


def test_a_result_without_a_record_queues_nothing(game, alice, broker):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    assert not ScoringRun.objects.exists()


def test_a_new_record_resets_the_same_run_to_pending(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    tasks.rescore_game(run.pk)
    submit(game, alice, "B+R", sgf=ILLEGAL)
    again = ScoringRun.objects.get(game=game)
    assert again.pk == run.pk and again.state == "pending" and again.computed_result == ""


def test_the_same_input_again_adds_nothing(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    tasks.rescore_game(run.pk)
    assert scoring.scoring_run_request(game=Game.objects.get(pk=game.pk)).state == "done"
    assert ScoringRun.objects.count() == 1


@pytest.mark.django_db(transaction=True)  # commits as in production: the publish runs first
def test_a_broker_that_is_down_leaves_the_run_pending_and_says_so(game, alice, broker, api_as):
    broker.down = True
    response = api_as(alice).post(
        f"/api/v1/games/{game.pk}/result/",
        {"result": count(FINISHED), "sgf": FINISHED},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert Game.objects.get(pk=game.pk).sgf == FINISHED  # the submission is saved
    run = ScoringRun.objects.get(game=game)
    assert run.state == "pending" and run.queued_at is None
    verification = response.json()["verification"]
    assert verification["queued"] is False
    assert verification["message"] == scoring.WAITING_MESSAGE


# --------------------------------------------------------------------------- the task


def test_a_matching_result_is_verified(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    assert tasks.rescore_game(run.pk) == {"done": 1}
    run.refresh_from_db()
    assert (run.state, run.matches, run.computed_result) == ("done", True, count(FINISHED))
    assert run.first_illegal is None and run.dispute_id is None and run.error == ""
    assert run.breakdown["result"] == count(FINISHED) and run.breakdown["komi"] == 6.5
    assert run.attempts == 1 and run.claimed_by == process_identity("unknown")
    assert run.started_at and run.finished_at and run.duration_ms is not None
    assert not Dispute.objects.exists()


def test_a_different_result_opens_a_dispute_with_the_evidence(game, alice, broker):
    run = submit(game, alice, opposite(count(FINISHED)), sgf=MARKED)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    assert (run.state, run.matches) == ("done", False)
    dispute = Dispute.objects.get(game=game)
    assert run.dispute_id == dispute.pk and dispute.kind == "result"
    assert dispute.evidence["automatic"]["computed_result"] == count(FINISHED)
    assert dispute.evidence["automatic"]["submitted_result"] == opposite(count(FINISHED))
    assert Game.objects.get(pk=game.pk).state == GameState.DISPUTED


def test_a_dispute_the_referee_app_refuses_is_noted_on_the_stored_run(
    game, alice, broker, monkeypatch
):
    run = submit(game, alice, opposite(count(FINISHED)), sgf=MARKED)

    def refuse(**kwargs: Any) -> int:
        raise ValueError("no referee today")

    monkeypatch.setattr(scoring_worker.outbound, "record_mismatch", refuse)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    assert (run.state, run.matches, run.dispute_id) == ("done", False, None)
    assert run.error == "dispute not opened: ValueError: no referee today"


def test_a_database_gone_while_opening_the_dispute_is_retried_not_swallowed(
    game, alice, broker, monkeypatch
):
    run = submit(game, alice, opposite(count(FINISHED)), sgf=MARKED)

    def gone(**kwargs: Any) -> int:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(scoring_worker.outbound, "record_mismatch", gone)
    with pytest.raises(OperationalError):
        tasks.rescore_game(run.pk)
    assert ScoringRun.objects.get(pk=run.pk).state != "done"


def test_an_illegal_move_opens_a_dispute_even_when_the_count_agrees(game, alice, broker):
    run = submit(game, alice, count(ILLEGAL), sgf=ILLEGAL)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    assert run.matches is True
    assert run.first_illegal == {
        "number": 2,
        "color": "W",
        "point": "Q16",
        "reason": "occupied",
        "text": "move 2, White Q16: occupied",
    }
    assert Dispute.objects.get(game=game).kind == "illegal-move"


def test_a_resignation_has_nothing_to_compare(game, alice, broker):
    run = submit(game, alice, "B+R")
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    assert (run.state, run.matches, run.computed_result) == ("done", None, count(FINISHED))
    assert not Dispute.objects.exists()


def test_a_poison_record_is_a_failed_run_and_never_retried(tournament, broker):
    game = stored_game(tournament, BROKEN)
    run = scoring.scoring_run_request(game=game)
    assert tasks.rescore_game(run.pk) == {"failed": 1}
    run.refresh_from_db()
    assert run.state == "failed" and run.error.startswith("SgfError")
    assert tasks.rescore_game(run.pk) == {"skipped": 1}  # a second delivery
    run.refresh_from_db()
    assert (run.state, run.attempts) == ("failed", 1)


def test_dead_stones_on_an_empty_point_fail_the_run(tournament, broker):
    game = stored_game(tournament, FINISHED, dead_stones=["A1"])
    run = scoring.scoring_run_request(game=game)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    assert run.state == "failed" and "DeadStoneError" in run.error


def test_the_same_message_twice_scores_once(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    tasks.rescore_game(run.pk)
    assert tasks.rescore_game(run.pk) == {"skipped": 1}
    run.refresh_from_db()
    assert (run.state, run.attempts) == ("done", 1)


def _running(run: ScoringRun, *, by: str, ago: timedelta = timedelta(0), attempts: int = 1) -> None:
    ScoringRun.objects.filter(pk=run.pk).update(
        state="running",
        claimed_by=by,
        claimed_at=timezone.now() - ago,
        attempts=attempts,
        claim_token="old",
    )


CHILD = "w1@box/boot1/101"  # a pool process of worker w1@box


def _heartbeat(host: str, ago: timedelta, children: tuple[str, ...] = (CHILD,)) -> None:
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(
        hostname=host,
        defaults={"pid": 1, "started_at": now, "last_seen": now - ago, "children": children},
    )


def test_a_run_held_by_a_live_worker_is_left_alone(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    _heartbeat("w1@box", timedelta(seconds=1))
    _running(run, by=CHILD)
    assert tasks.rescore_game(run.pk) == {"skipped": 1}
    assert ScoringRun.objects.get(pk=run.pk).state == "running"


def test_a_run_whose_worker_stopped_beating_is_claimed_again(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    _heartbeat("w1@box", WORKER_GONE_AFTER + timedelta(seconds=1))
    _running(run, by=CHILD)
    assert tasks.rescore_game(run.pk) == {"done": 1}
    run.refresh_from_db()
    assert (run.state, run.attempts, run.claimed_by) == ("done", 2, process_identity("unknown"))


def test_a_run_whose_pool_process_died_is_claimed_again_while_its_worker_beats(game, alice, broker):
    # The OOM killer took the child: the worker's main process beats on, and
    # lists the child that replaced it.
    run = submit(game, alice, count(FINISHED))
    _heartbeat("w1@box", timedelta(seconds=0), children=("w1@box/boot1/100", "w1@box/boot1/102"))
    _running(run, by=CHILD)
    assert tasks.rescore_game(run.pk) == {"done": 1}


def test_a_worker_restarted_under_the_same_name_does_not_vouch_for_old_claims(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    _heartbeat("w1@box", timedelta(seconds=0), children=("w1@box/boot2/101",))  # same pid
    _running(run, by=CHILD)
    assert tasks.rescore_game(run.pk) == {"done": 1}


def test_a_claim_older_than_the_hard_time_limit_is_stale(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    _heartbeat("w1@box", timedelta(seconds=0))
    _running(run, by=CHILD, ago=scoring.claim_expires() + timedelta(seconds=1))
    assert tasks.rescore_game(run.pk) == {"done": 1}


def test_a_run_that_lost_its_worker_too_often_fails(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    _running(run, by="gone@box", attempts=scoring_worker.MAX_ATTEMPTS)
    assert tasks.rescore_game(run.pk) == {"failed": 1}
    run.refresh_from_db()
    assert run.state == "failed" and run.error.startswith("gave up after 3 attempts")


def test_a_changed_record_starts_its_attempts_again(game, alice, broker):
    run = submit(game, alice, "B+R")
    for result in ["W+R", "B+R", "W+R", "B+R"]:  # re-scored after each correction
        assert tasks.rescore_game(run.pk) == {"done": 1}
        run = submit(Game.objects.get(pk=game.pk), alice, result)
        assert (run.state, run.attempts) == ("pending", 0)
    assert tasks.rescore_game(run.pk) == {"done": 1}


def test_a_batch_reset_starts_the_attempts_again(tournament, director, game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    tasks.rescore_game(run.pk)
    Game.objects.filter(pk=game.pk).update(komi="0.5")  # a changed input, reset by the batch
    scoring.tournament_rescore(actor=director, tournament=tournament)
    assert ScoringRun.objects.get(pk=run.pk).attempts == 0


def test_a_run_reset_while_it_was_scored_drops_the_old_count(game, alice, broker):
    run = submit(game, alice, count(FINISHED))
    assert scoring_worker.claim([run.pk], worker="w@box", token="t1") == 1
    games = Game.objects.in_bulk([game.pk])
    outcome = scoring_worker.compute(games[game.pk])
    submit(Game.objects.get(pk=game.pk), alice, "B+R", sgf=ILLEGAL)  # a new record meanwhile
    runs = list(ScoringRun.objects.filter(pk=run.pk))
    assert scoring_worker.store(runs, {run.pk: outcome}, games, token="t1") == {"dropped": 1}
    assert ScoringRun.objects.get(pk=run.pk).state == "pending"


def test_a_transient_database_error_is_retried_and_then_stored(game, alice, broker, monkeypatch):
    run = submit(game, alice, count(FINISHED))
    real_store = scoring_worker.store
    calls: list[int] = []

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real_store(*args, **kwargs)

    monkeypatch.setattr(scoring_worker, "store", flaky)
    tasks.rescore_game.apply(args=(run.pk,))
    run.refresh_from_db()
    assert len(calls) == 2
    assert (run.state, run.matches, run.attempts) == ("done", True, 1)  # the release gave one back


# --------------------------------------------------------------------------- batches


def _games(tournament: Any, n: int, sgf: str = FINISHED) -> list[Game]:
    return [stored_game(tournament, sgf, result=count(FINISHED), table=i + 1) for i in range(n)]


def test_a_batch_makes_one_pending_run_per_game_with_a_record(tournament, director, broker):
    _games(tournament, 5)
    GameFactory(tournament=tournament)  # no record: not part of it
    job = scoring.tournament_rescore(actor=director, tournament=tournament, chunk_size=2)
    assert (job.kind, job.state, job.total, job.done, job.failed) == ("rescore", "running", 5, 0, 0)
    assert broker.sent == []  # published after commit only, and this transaction never commits
    assert ScoringRun.objects.filter(job=job, state="pending").count() == 5


def test_chunks_move_the_job_to_done(
    tournament, director, broker, django_capture_on_commit_callbacks
):
    games = _games(tournament, 5)
    with django_capture_on_commit_callbacks(execute=True):
        job = scoring.tournament_rescore(actor=director, tournament=tournament, chunk_size=2)
    assert [len(args[0]) for _, args in broker.sent] == [2, 2, 1]
    assert all(name == "rescore_chunk" and len(args) == 1 for name, args in broker.sent)
    _name, args = broker.sent[0]
    tasks.rescore_chunk(*args)
    job.refresh_from_db()
    assert (job.state, job.done, job.failed) == ("running", 2, 0)
    broker.deliver()
    job.refresh_from_db()
    assert (job.state, job.done, job.total) == ("done", 5, 5) and job.finished_at
    assert ScoringRun.objects.filter(state="done", game__in=games).count() == 5


def test_re_running_a_batch_adds_nothing_but_a_correction_is_rescored(
    tournament, director, broker, django_capture_on_commit_callbacks
):
    games = _games(tournament, 3)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.tournament_rescore(actor=director, tournament=tournament)
    broker.deliver()
    with django_capture_on_commit_callbacks(execute=True):
        again = scoring.tournament_rescore(actor=director, tournament=tournament)
    assert (again.state, again.done, again.total) == ("done", 3, 3) and broker.sent == []
    Game.objects.filter(pk=games[0].pk).update(result_winner="B", result_reason="resignation")
    Game.objects.filter(pk=games[1].pk).update(sgf=BROKEN)
    with django_capture_on_commit_callbacks(execute=True):
        third = scoring.tournament_rescore(actor=director, tournament=tournament)
    assert (third.done, third.total) == (1, 3) and broker.run_ids() == sorted(
        ScoringRun.objects.filter(game__in=games[:2]).values_list("pk", flat=True)
    )
    broker.deliver()
    third.refresh_from_db()
    assert (third.state, third.done, third.failed) == ("done", 2, 1)
    assert ScoringRun.objects.count() == 3


def test_an_outsider_cannot_rescore_a_tournament(tournament, outsider):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        scoring.tournament_rescore(actor=outsider, tournament=tournament)


def test_every_game_under_a_preset_is_for_staff(tournament, director, superuser, broker):
    from django.core.exceptions import PermissionDenied

    _games(tournament, 2)
    with pytest.raises(PermissionDenied):
        scoring.tournament_rescore(actor=director, rules="japanese")
    job = scoring.tournament_rescore(actor=superuser, rules="japanese")
    assert job.total == 2 and job.params == {"tournament": None, "rules": "japanese"}


def test_a_batch_with_nothing_to_score_is_done_at_once(tournament, director, broker):
    job = scoring.tournament_rescore(actor=director, tournament=tournament)
    assert (job.state, job.total) == (JobState.DONE, 0)


# --------------------------------------------------------------------------- the sweep


def test_the_sweep_queues_what_the_broker_never_got_lost_or_a_dead_worker_held(
    tournament, broker, settings
):
    games = _games(tournament, 6)
    runs = [scoring.scoring_run_request(game=g) for g in games]
    broker.sent = [("rescore_game", (runs[1].pk,))]  # what the broker's queue holds
    long_ago = timezone.now() - timedelta(seconds=settings.GOREF_REQUEUE_AFTER + 1)
    ScoringRun.objects.filter(pk=runs[0].pk).update(requested_at=long_ago, queued_at=None)
    # Queued long ago: runs[1]'s message is still waiting, runs[4]'s is gone.
    ScoringRun.objects.filter(pk__in=[runs[1].pk, runs[4].pk]).update(
        requested_at=long_ago, queued_at=long_ago
    )
    _running(runs[2], by="dead@box/boot/1")  # no heartbeat lists its process
    ScoringRun.objects.filter(pk=runs[5].pk).update(queued_at=timezone.now())
    # runs[3]: just requested, its publish may still be on the way; runs[5]: queued a
    # moment ago and not in the queue (a worker has it and is about to claim it)
    assert scoring.sweep_pending() == 3
    assert sorted(broker.run_ids()) == sorted([runs[1].pk, runs[0].pk, runs[2].pk, runs[4].pk])
    broker.deliver()
    states = dict(ScoringRun.objects.values_list("pk", "state"))
    assert [states[r.pk] for r in runs] == ["done", "done", "done", "pending", "done", "pending"]


def test_when_the_queue_cannot_be_read_the_sweep_waits_out_the_visibility_timeout(
    tournament, broker, settings, monkeypatch
):
    monkeypatch.setattr(scoring, "runs_in_broker", lambda: None)
    runs = [scoring.scoring_run_request(game=g) for g in _games(tournament, 2)]
    broker.sent = []
    now = timezone.now()
    lately = now - timedelta(seconds=settings.GOREF_REQUEUE_AFTER + 1)
    before = now - timedelta(seconds=settings.CELERY_VISIBILITY_TIMEOUT + 1)
    ScoringRun.objects.filter(pk=runs[0].pk).update(requested_at=before, queued_at=lately)
    ScoringRun.objects.filter(pk=runs[1].pk).update(requested_at=before, queued_at=before)
    assert scoring.sweep_pending() == 1
    assert broker.run_ids() == [runs[1].pk]


def test_the_run_ids_of_a_kombu_message_are_read_from_its_body():
    import base64
    import json

    def message(task: str, args: list[object]) -> str:
        body = base64.b64encode(json.dumps([args, {}, {}]).encode()).decode()
        return json.dumps(
            {"body": body, "headers": {"task": task}, "properties": {"body_encoding": "base64"}}
        )

    assert scoring._message_runs(message("games.rescore_chunk", [[3, 4]])) == [3, 4]
    assert scoring._message_runs(message("games.rescore_game", [7])) == [7]
    assert scoring._message_runs(message("ratings.recompute", [7])) == []
    assert scoring._message_runs("not json") == []


def test_the_sweep_task_answers_how_many_it_queued(db, broker):
    assert tasks.sweep_pending() == 0
    assert Job.objects.count() == 0
