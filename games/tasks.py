"""Celery tasks for re-scoring: thin wrappers over ``games.services.scoring_worker``.

Ids in, re-fetched inside; ``acks_late`` with reject-on-worker-lost, time limits below
the broker's visibility timeout (``ops.tasks_common.job_task_options``;
docs/operations.md).  A second delivery is harmless: the claim is conditional.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from ops.tasks_common import job_task_options
from ops.worker import process_identity

# A batch chunk waits longer for the database to come back than a rating job.
_OPTIONS = job_task_options(max_retries=8)


def _worker(task: Any) -> str:
    # The pool process, not just the worker: a claim dies with the process that holds it.
    return process_identity(str(task.request.hostname or "unknown"))


@shared_task(name="games.rescore_game", **_OPTIONS)
def rescore_game(self: Any, run_id: int) -> dict[str, int]:
    """Re-score one game's run (a result submitted with a record)."""
    from games.services.scoring_worker import process

    return dict(process([run_id], worker=_worker(self)))


@shared_task(name="games.rescore_chunk", **_OPTIONS)
def rescore_chunk(self: Any, run_ids: list[int]) -> dict[str, int]:
    """Re-score a chunk of a batch; the job's progress moves once per chunk."""
    from games.services.scoring_worker import process

    return dict(process(run_ids, worker=_worker(self)))


@shared_task(name="games.sweep_pending", **_OPTIONS)
def sweep_pending(self: Any) -> int:
    """Queue every run the broker may not have (beat, and whenever a worker
    connects to the broker: ``games.celery_bootsteps.SweepOnConnect``)."""
    from games.services.scoring import sweep_pending as sweep

    return sweep()
