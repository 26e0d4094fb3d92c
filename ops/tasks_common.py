"""What every background task shares: ``job_task_options()`` and ``publish_or_log``.

Late acks, reject on worker loss, retries of transient database errors, time
limits below the visibility timeout: docs/operations.md §1.  Usage:
``@shared_task(name="app.task", **job_task_options())``; the body takes ``self``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from ops.services import TRANSIENT_DB_ERRORS


def job_task_options(**overrides: Any) -> dict[str, Any]:
    options: dict[str, Any] = {
        "bind": True,
        "acks_late": True,
        "reject_on_worker_lost": True,
        "autoretry_for": TRANSIENT_DB_ERRORS,
        "retry_backoff": True,
        "retry_backoff_max": 120,
        "retry_jitter": True,
        "max_retries": 5,
        "time_limit": settings.CELERY_TASK_TIME_LIMIT,
        "soft_time_limit": settings.CELERY_TASK_SOFT_TIME_LIMIT,
    }
    return {**options, **overrides}


_broker_down_until = 0.0


def broker_down() -> bool:
    """Did a publish from this process fail in the last ``GOREF_BROKER_DOWN_SECONDS``?

    Process-local on purpose: each web worker finds out for itself, at the
    cost of one failed connection, and forgets quickly.
    """
    return time.monotonic() < _broker_down_until


def mark_broker(*, up: bool) -> None:
    global _broker_down_until
    _broker_down_until = 0.0 if up else time.monotonic() + settings.GOREF_BROKER_DOWN_SECONDS


def publish_or_log(send: Callable[[], object], *, what: str) -> bool:
    """Hand work to the broker after commit; never raise (False: logged, a sweep retries).

    The row that describes the work is already saved, so a broker that is down
    must not turn a successful request into an error, nor make it wait: while
    a publish failed a moment ago the next ones are skipped at once.
    """
    log = logging.getLogger(__name__)
    if broker_down():
        log.warning("broker down: %s not queued; the sweep will queue it", what)
        return False
    try:
        send()
    except Exception:
        mark_broker(up=False)
        log.exception("could not queue %s; the sweep will retry", what)
        return False
    mark_broker(up=True)
    return True


def job_run(
    job_id: int, work: Callable[[Any], Any], *, keep: Callable[[dict[str, Any]], Any] | None = None
) -> str:
    """Run one ``ops.Job`` that answers a request (a congress-size pairing, a large import):
    claim it, call ``work(job)`` for its answer and keep that as the job's result.  A
    refusal the user reads (a validation, permission or state error) fails the job with
    the API's error shape as its result; a transient database error leaves it running for
    the task's retry; anything else fails it and is raised.  ``keep``: the params left on
    the job once it is over (a large import drops its file)."""
    from django.core.exceptions import PermissionDenied, ValidationError
    from django.utils import timezone

    from ops.models import Job, JobState
    from ops.services import StateConflict

    claimed = Job.objects.filter(pk=job_id, state=JobState.PENDING).update(state=JobState.RUNNING)
    job = Job.objects.select_related("created_by").filter(pk=job_id).first()
    if job is None:
        return "missing"
    if not claimed and job.state != JobState.RUNNING:
        return str(job.state)  # done or failed already: a duplicate message
    Job.objects.filter(pk=job_id).update(done=1)
    params = {} if keep is None else {"params": keep(dict(job.params))}
    try:
        answer = work(job)
    except TRANSIENT_DB_ERRORS:
        raise  # the job stays running; the retry runs it again
    except (ValidationError, PermissionDenied, StateConflict) as exc:
        error = " ".join(getattr(exc, "messages", None) or [str(exc)])[:2000]
        Job.objects.filter(pk=job_id).update(
            state=JobState.FAILED,
            error=error,
            result={"message": error, "extra": {}},  # the API's error shape
            finished_at=timezone.now(),
            **params,
        )
        return JobState.FAILED
    except Exception as exc:
        Job.objects.filter(pk=job_id).update(
            state=JobState.FAILED, error=repr(exc)[:2000], finished_at=timezone.now(), **params
        )
        raise
    Job.objects.filter(pk=job_id).update(
        state=JobState.DONE, done=job.total, result=answer, finished_at=timezone.now(), **params
    )
    return JobState.DONE
