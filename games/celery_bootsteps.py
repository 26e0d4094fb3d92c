"""A consumer boot step: sweep for re-scoring runs whenever the worker (re)connects.

Registered in ``config.celery``.  Runs submitted while the broker was down are queued
as soon as it is back, not at the next beat (``games.tasks.sweep_pending`` is on the
beat schedule too).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps

log = logging.getLogger(__name__)


def sweep_now() -> None:
    """Queue the sweep now (a worker connected, or lost a pool process); best effort."""
    from games.tasks import sweep_pending

    try:
        # Retry this one publish: a pooled connection from before an outage
        # is stale, and kombu reconnects it only when asked to retry.
        sweep_pending.apply_async(
            retry=True,
            retry_policy={"max_retries": 3, "interval_start": 0, "interval_step": 1},
        )
    except Exception:
        log.warning("re-scoring sweep not queued", exc_info=True)


class SweepOnConnect(bootsteps.StartStopStep):
    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        sweep_now()
