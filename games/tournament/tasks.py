"""The tournament wing's Celery task: an event's busiest pages rebuilt after a write
(``games.tournament.pages``; registered through ``GamesConfig.ready``, which imports it)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from ops.tasks_common import job_task_options


@shared_task(name="games.pages_warm", **job_task_options(max_retries=0, autoretry_for=()))
def pages_warm(self: Any, tournament_id: int) -> list[int]:
    """Rebuild an event's tournament page and standings; a lost one only leaves the
    readers to rebuild them when the flags expire."""
    from games.tournament.pages import warm

    return warm(tournament_id)
