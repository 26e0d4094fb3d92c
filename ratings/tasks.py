"""Celery tasks for ratings: the recompute job, the promotion evaluation after it, the sweep
(of both).

Job id in, re-fetched inside; the options every job task shares
(``ops.tasks_common``: ``acks_late`` with reject-on-worker-lost, transient
database errors retried).  The claim is a conditional update (pending →
running).  A job redelivered while ``running`` (its worker died) runs again:
a recompute is a function of the database and runs one at a time
(``ratings.recompute``), so a second run gives the same rows.  A job that is
done or failed is never run again.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from ops.models import Job, JobState
from ops.tasks_common import TRANSIENT_DB_ERRORS, job_task_options

log = logging.getLogger(__name__)


def run_job(job_id: int) -> str:
    """The task body: claim the job, recompute, record the outcome.  Returns the job state."""
    from ratings.recompute import recompute
    from ratings.services_evaluation import promotions_queue

    claimed = Job.objects.filter(pk=job_id, state=JobState.PENDING).update(state=JobState.RUNNING)
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        log.warning("ratings job %s does not exist", job_id)
        return "missing"
    if not claimed and job.state != JobState.RUNNING:
        return str(job.state)  # done or failed already: a duplicate message

    def progress(done: int, total: int) -> None:
        # +1: the last step is the write, reported when it has committed.
        Job.objects.filter(pk=job_id).update(done=min(done, total), total=total + 1)

    try:
        run = recompute(from_tournament=job.params.get("from_tournament"), job=job, progress=progress)
    except TRANSIENT_DB_ERRORS:
        raise  # the job stays running; the retry runs it again
    except Exception as exc:
        Job.objects.filter(pk=job_id).update(
            state=JobState.FAILED, error=repr(exc)[:2000], finished_at=timezone.now()
        )
        raise
    total = run.events + 1
    with transaction.atomic():
        Job.objects.filter(pk=job_id).update(
            state=JobState.DONE, done=total, total=total, finished_at=timezone.now()
        )
        # Every rating update is followed by a promotion evaluation (issue 7), queued
        # once the job is marked done.
        promotions_queue(run_id=run.pk)
    return JobState.DONE


@shared_task(name="ratings.recompute", **job_task_options())
def ratings_recompute(self: Any, job_id: int) -> str:
    """Run a ratings job (``ops.Job`` kind ``ratings``)."""
    return run_job(job_id)


@shared_task(name="ratings.promotions_evaluate", **job_task_options())
def promotions_evaluate(
    self: Any, run_id: int | None = None, tournament_ids: list[int] | None = None
) -> int:
    """Propose promotions after a rating run (``ratings.services_evaluation``); returns how
    many candidates were new.  Idempotent: a candidate's key is unique, so a redelivered
    message adds nothing."""
    from ratings.services_evaluation import promotions_evaluate as evaluate

    return evaluate(run_id=run_id, tournament_ids=tournament_ids).created


@shared_task(name="ratings.sweep", ignore_result=True)
def ratings_sweep() -> int:
    """Publish again the ratings jobs the broker never got (see ``ratings.services``) and
    the promotion evaluations of done runs never evaluated (``ratings.services_evaluation``)."""
    from ratings.services import ratings_sweep as sweep
    from ratings.services_evaluation import promotions_sweep

    return sweep() + promotions_sweep()
