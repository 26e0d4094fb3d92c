"""Recompute requests at once, on PostgreSQL: they leave one pending job, held by the
database (``job_one_pending_per_scope``), and every answer is 202, never 500."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import IntegrityError, close_old_connections, connection, connections, transaction
from rest_framework.test import APIClient

from games.people.services.grants import federation_official_grant
from ops.models import Job, JobState
from ratings.services import JOB_KIND, JOB_SCOPE, ratings_recompute_start
from tests.factories import UserFactory

pytestmark = pytest.mark.integration


@pytest.fixture
def official(transactional_db: Any, monkeypatch: Any) -> Any:
    import ratings.tasks

    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", lambda job_id: None)
    user = UserFactory(username="official")
    federation_official_grant(actor=None, user=user)
    return user


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def _post(user: Any, answers: list[tuple[int, Any]], errors: list[BaseException]) -> None:
    try:
        api = APIClient()
        api.force_authenticate(user=user)
        response = api.post("/api/v1/ratings/recompute/", {}, format="json")
        answers.append((response.status_code, response.json().get("job")))
    except BaseException as exc:  # reported by the test, with the thread's traceback
        errors.append(exc)
    finally:
        connections.close_all()


def test_the_database_refuses_a_second_pending_recompute(postgres: Any, official: Any) -> None:
    Job.objects.create(kind=JOB_KIND, scope=JOB_SCOPE)
    with pytest.raises(IntegrityError), transaction.atomic():
        Job.objects.create(kind=JOB_KIND, scope=JOB_SCOPE)
    Job.objects.filter(kind=JOB_KIND).update(state=JobState.RUNNING)
    Job.objects.create(kind=JOB_KIND, scope=JOB_SCOPE)  # one waits behind the running one


def test_a_request_that_loses_the_insert_race_joins_the_winners_job(
    postgres: Any, official: Any
) -> None:
    """Both find no pending job; the second's insert waits on the first's, then widens it."""
    answers: list[tuple[int, Any]] = []
    errors: list[BaseException] = []
    with transaction.atomic():
        first = ratings_recompute_start(actor=official)  # inserted, not yet committed
        thread = threading.Thread(target=_post, args=(official, answers, errors))
        thread.start()
        deadline = time.monotonic() + 10
        while _waiting_on_locks() < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _waiting_on_locks() == 1, "the second request should wait on the first's insert"
    thread.join(timeout=30)
    close_old_connections()
    assert not errors, errors
    assert answers == [(202, first.pk)]
    assert Job.objects.filter(kind=JOB_KIND, state=JobState.PENDING).count() == 1


def test_a_burst_of_requests_gives_one_pending_job_and_no_500(postgres: Any, official: Any) -> None:
    answers: list[tuple[int, Any]] = []
    errors: list[BaseException] = []
    threads = [threading.Thread(target=_post, args=(official, answers, errors)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    close_old_connections()
    assert not errors, errors
    assert {code for code, _ in answers} <= {202, 409} and len(answers) == 8
    assert len({job for code, job in answers if code == 202}) == 1
    assert Job.objects.filter(kind=JOB_KIND, state=JobState.PENDING).count() == 1
