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
