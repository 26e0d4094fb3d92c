"""A worker boot step that records a heartbeat row every few seconds.

Loaded by ``config.celery``; runs inside each Celery worker process.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from celery import bootsteps

HEARTBEAT_SECONDS = 5.0


def _beat(hostname: str, started: Any) -> None:
    from django.db import close_old_connections
    from django.utils import timezone

    from ops.models import WorkerHeartbeat

    close_old_connections()
    try:
        WorkerHeartbeat.objects.update_or_create(
            hostname=hostname,
            defaults={"pid": os.getpid(), "started_at": started, "last_seen": timezone.now()},
        )
    except Exception:
        import logging

        logging.getLogger(__name__).warning("worker heartbeat not recorded", exc_info=True)


class HeartbeatStep(bootsteps.StartStopStep):
    requires = ("celery.worker.components:Timer",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, parent: Any) -> None:
        from django.utils import timezone

        hostname = parent.hostname or socket.gethostname()
        started = timezone.now()
        _beat(hostname, started)
        self.tref = parent.timer.call_repeatedly(HEARTBEAT_SECONDS, _beat, (hostname, started))

    def stop(self, parent: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
