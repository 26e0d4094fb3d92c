"""Integration: a real Celery worker runs the rating recompute on PostgreSQL and Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/goref_rt \\
    REDIS_URL=redis://127.0.0.1:6379/4 .venv/bin/pytest tests/ratings/test_worker.py
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from ops.models import Job, JobState
from ratings.models import PlayerRating, RatingHistory, RatingRun
from ratings.services import ratings_recompute_start
from tests.conftest import wait_for
from tests.ratings.helpers import event, history_snapshot, players

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _state(job: Job) -> str:
    job.refresh_from_db()
    return str(job.state)


def test_a_real_worker_runs_the_recompute_and_a_second_run_changes_nothing(
    start_worker: Any, superuser: Any
) -> None:
    ps = players(-8, -3, 0, 2)
    for k in range(4):
        event(dt.date(2025, 5, 1 + k), [(ps[0], ps[1], "B", 0), (ps[2], ps[3], "W", 2)])
    start_worker()
    job = ratings_recompute_start(actor=superuser)  # committed: published at once
    assert wait_for(lambda: _state(job) in (JobState.DONE, JobState.FAILED), timeout=60)
    assert job.state == JobState.DONE, job.error
    assert (job.done, job.total) == (5, 5)
    assert RatingRun.objects.get(job=job).state == RatingRun.State.DONE
    assert RatingHistory.objects.count() == 16 and PlayerRating.objects.count() == 4
    first = history_snapshot()
    again = ratings_recompute_start(actor=superuser)
    assert wait_for(lambda: _state(again) == JobState.DONE, timeout=60)
    assert history_snapshot() == first
