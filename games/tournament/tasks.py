"""The tournament wing's Celery tasks: a congress-size pairing (``round_pair_job``), an
event's busiest pages rebuilt after a write (``games.tournament.pages``), and the warmer
that queues the latter (registered by ``GamesConfig.ready``, which imports this module)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games.tournament import pages
from ops.pages import warming
from ops.tasks_common import job_task_options, publish_or_log


@shared_task(name="games.pages_warm", **job_task_options(max_retries=0, autoretry_for=()))
def pages_warm(self: Any, tournament_id: int) -> list[int]:
    """Rebuild an event's tournament page and standings; a lost one only leaves the
    readers to rebuild them when the flags expire.  At most one waits per event in the
    ``pages`` queue (``ops.pages.warming``): it reads the versions current when it starts."""
    warming.started(f"{pages.PREFIX}{tournament_id}")
    return pages.warm(tournament_id)


def pages_warm_queue(version: str) -> bool:
    """Queue the rebuild of ``tournament:<pk>``'s pages (False: the broker is down)."""
    pk = int(version.removeprefix(pages.PREFIX))
    return publish_or_log(lambda: pages_warm.delay(pk), what=f"page rebuild of tournament {pk}")


def register() -> None:
    """Called by ``GamesConfig.ready``: after a bump of ``tournament:<pk>``, the worker
    rebuilds the event's pages (``ops.pages.warming``)."""
    warming.register_warmer(pages.PREFIX, pages.warmed_entries, pages_warm_queue)


@shared_task(name="games.tournament.round_pair_job", **job_task_options())
def round_pair_job(self: Any, job_id: int) -> str:
    """Run a congress-size pairing (``ops.Job`` kind ``pairing``)."""
    from games.tournament.services.pairing_jobs import round_pair_job_run

    return round_pair_job_run(job_id=job_id)


@shared_task(name="games.tournament.tournament_import_job", **job_task_options())
def tournament_import_job(self: Any, job_id: int) -> str:
    """Import a large tournament file (``ops.Job`` kind ``import``)."""
    from games.tournament.services.import_jobs import tournament_import_job_run

    return tournament_import_job_run(job_id=job_id)
