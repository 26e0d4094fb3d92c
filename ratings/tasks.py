"""Celery tasks for ratings: the recompute job, the promotion evaluation, the sweep of both.

Ids in; each calls a service with the options every job task shares
(``ops.tasks_common``; docs/operations.md §1)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from ops.tasks_common import job_task_options


@shared_task(name="ratings.recompute", **job_task_options())
def ratings_recompute(self: Any, job_id: int) -> str:
    """Run a ratings job (``ops.Job`` kind ``ratings``)."""
    from ratings.services import ratings_job_run

    return ratings_job_run(job_id=job_id)


@shared_task(name="ratings.promotions_evaluate", **job_task_options())
def promotions_evaluate(
    self: Any, run_id: int | None = None, tournament_ids: list[int] | None = None
) -> int:
    """Propose promotions after a rating run; returns how many candidates were new.

    Idempotent: a candidate's key is unique, so a redelivered message adds nothing."""
    from ratings.promotion.evaluation import promotions_evaluate as evaluate

    return evaluate(run_id=run_id, tournament_ids=tournament_ids).created


@shared_task(name="ratings.sweep", ignore_result=True)
def ratings_sweep() -> int:
    """Publish again the ratings jobs and promotion evaluations the broker never got."""
    from ratings.promotion.evaluation import promotions_sweep
    from ratings.services import ratings_sweep as sweep

    return sweep() + promotions_sweep()
