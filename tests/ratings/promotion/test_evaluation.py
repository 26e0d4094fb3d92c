"""The promotion evaluation a rating run never got (its on-commit publish failed) is queued
by ``ratings.sweep``; an evaluation marks its run, and a marked run is not queued again."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.conf import settings
from kombu.exceptions import OperationalError

import ratings.tasks
from ratings.models import PromotionCandidate, RatingRun
from ratings.promotion.evaluation import EVALUATION_GRACE, promotions_sweep
from ratings.services import ratings_job_run, ratings_recompute_start

pytestmark = pytest.mark.django_db


def _broker_down(**kw: Any) -> None:
    raise OperationalError("broker down")


@pytest.fixture
def sent(monkeypatch: Any) -> list[dict[str, Any]]:
    """The evaluation's publish works: the task runs inline (calls recorded)."""
    calls: list[dict[str, Any]] = []

    def run(**kw: Any) -> None:
        calls.append(kw)
        ratings.tasks.promotions_evaluate.apply(kwargs=kw).get()

    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", run)
    return calls


@pytest.fixture
def unqueued_run(
    director: Any, alice_wins: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> RatingRun:
    """A rating job that finished while the broker was down for its evaluation."""
    monkeypatch.setattr(
        ratings.tasks.ratings_recompute, "delay", lambda job_id: ratings_job_run(job_id=job_id)
    )
    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", _broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        ratings_recompute_start(actor=None)
    run = RatingRun.objects.get()
    assert run.state == RatingRun.State.DONE
    assert run.promotions_evaluated_at is None and run.promotions_queued_at is None
    assert not PromotionCandidate.objects.exists()
    return run


def test_the_sweep_evaluates_a_run_whose_publish_failed_then_leaves_it(
    alice: Any, unqueued_run: RatingRun, sent: list[dict[str, Any]]
) -> None:
    assert unqueued_run.finished_at is not None
    later = unqueued_run.finished_at + dt.timedelta(minutes=2)
    assert promotions_sweep(now=later) == 1 and sent == [{"run_id": unqueued_run.pk}]
    assert PromotionCandidate.objects.get().player == alice
    unqueued_run.refresh_from_db()
    assert unqueued_run.promotions_evaluated_at is not None
    assert unqueued_run.promotions_queued_at is not None
    # evaluated: never queued again, however late
    assert promotions_sweep(now=later + dt.timedelta(days=1)) == 0 and len(sent) == 1


def test_a_run_within_the_grace_period_is_left_to_its_own_publish(
    unqueued_run: RatingRun, sent: list[dict[str, Any]]
) -> None:
    assert unqueued_run.finished_at is not None
    soon = unqueued_run.finished_at + EVALUATION_GRACE - dt.timedelta(seconds=1)
    assert promotions_sweep(now=soon) == 0 and sent == []


def test_a_broker_still_down_is_logged_and_the_next_sweep_retries(
    unqueued_run: RatingRun, caplog: Any, monkeypatch: Any
) -> None:
    assert unqueued_run.finished_at is not None
    later = unqueued_run.finished_at + dt.timedelta(minutes=2)
    assert promotions_sweep(now=later) == 0
    assert f"rating run {unqueued_run.pk}" in caplog.text
    unqueued_run.refresh_from_db()
    assert unqueued_run.promotions_queued_at is None
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", lambda **kw: calls.append(kw))
    assert promotions_sweep(now=later) == 1 and calls == [{"run_id": unqueued_run.pk}]


def test_a_queued_run_is_queued_again_only_past_the_task_time_limit(
    unqueued_run: RatingRun, monkeypatch: Any
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", lambda **kw: calls.append(kw))
    assert unqueued_run.finished_at is not None
    later = unqueued_run.finished_at + dt.timedelta(minutes=2)
    assert promotions_sweep(now=later) == 1  # published; the message waits in the queue
    unqueued_run.refresh_from_db()
    assert unqueued_run.promotions_queued_at is not None
    queued = unqueued_run.promotions_queued_at
    assert promotions_sweep(now=queued + dt.timedelta(minutes=1)) == 0
    lost = queued + dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 1)
    assert promotions_sweep(now=lost) == 1 and len(calls) == 2


def test_the_evaluation_after_a_job_marks_its_run(
    director: Any, alice_wins: Any, evaluate_now: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        ratings_recompute_start(actor=None)
    run = RatingRun.objects.get()
    assert evaluate_now == [{"run_id": run.pk}]
    assert run.promotions_evaluated_at is not None and run.promotions_queued_at is not None
    assert run.finished_at is not None
    assert promotions_sweep(now=run.finished_at + dt.timedelta(hours=1)) == 0


def test_the_ratings_sweep_task_runs_both_sweeps(unqueued_run: RatingRun, monkeypatch: Any) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(ratings.tasks.promotions_evaluate, "delay", lambda **kw: calls.append(kw))
    RatingRun.objects.filter(pk=unqueued_run.pk).update(
        finished_at=unqueued_run.finished_at - dt.timedelta(minutes=2)  # type: ignore[operator]
    )
    assert ratings.tasks.ratings_sweep() == 1 and calls == [{"run_id": unqueued_run.pk}]
