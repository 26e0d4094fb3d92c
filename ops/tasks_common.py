"""Options every background task of goref shares: ``job_task_options()``.

A task is acknowledged late and rejected when its worker is lost, so a worker
killed mid-task leaves the message to be delivered again (each task's claim
makes a second delivery harmless).  A database that drops the connection or
is restarting (``TRANSIENT_DB_ERRORS``) is retried with jittered exponential
backoff, up to two minutes apart.  The time limits come from the settings
(``CELERY_TASK_TIME_LIMIT``, checked at start-up to stay below the broker's
visibility timeout, so a running task is never delivered twice).

Usage: ``@shared_task(name="app.task", **job_task_options())``; a task body
takes ``self`` (the options bind it).  ``max_retries`` or any other option
may be overridden by keyword.
"""

from __future__ import annotations

import logging
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


def publish_or_log(send: Callable[[], object], *, what: str) -> bool:
    """Hand work to the broker after the caller's data is committed; never raise.

    Called from ``transaction.on_commit``: the row that describes the work is
    already saved, so a broker that is down (or refuses) must not turn a
    successful request into an error.  Anything ``send`` raises is logged and
    ``False`` returned; the row stays pending and a sweep publishes it later.
    """
    try:
        send()
    except Exception:
        logging.getLogger(__name__).exception("could not queue %s; the sweep will retry", what)
        return False
    return True
