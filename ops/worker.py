"""Worker liveness: a heartbeat row per worker, naming its live pool processes.

``HeartbeatStep`` (loaded by ``config.celery``) writes the worker's row every
few seconds from its main process, with the identity of every pool process
alive at that moment (``children``).  A task records the identity of the
process that runs it (``process_identity``) in its claims, so a claim is alive
only while that exact process is listed in a fresh row: a pool child killed
by the OOM killer, or a worker restarted under the same name, leaves claims
that no row lists, and the next sweep takes them over (docs/operations.md,
"Workers and /healthz").
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import bootsteps

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
# A row older than this (three beats missed) is a worker that is gone.
WORKER_GONE_AFTER = timedelta(seconds=HEARTBEAT_SECONDS * 3)

# Drawn once per worker start in the main process; the prefork pool's children
# inherit it, so a restart under the same name and the same pids (a container)
# still gives new identities.
BOOT = uuid.uuid4().hex[:8]

# Called in the worker's main process when one of its pool processes died
# (config.celery queues the re-scoring sweep).
on_process_lost: list[Callable[[], object]] = []


def process_identity(node: str, pid: int | None = None) -> str:
    """``node/boot/pid``: one process of one start of one worker."""
    return f"{node}/{BOOT}/{os.getpid() if pid is None else pid}"


def live_identities(now: Any) -> list[str]:
    """The identities of every process of every worker seen in the last beats."""
    from ops.models import WorkerHeartbeat

    rows = WorkerHeartbeat.objects.filter(last_seen__gte=now - WORKER_GONE_AFTER).values_list(
        "children", flat=True
    )
    return [identity for children in rows for identity in children or ()]


def _pool_pids(worker: Any) -> list[int]:
    """The pids of the worker's pool processes; the main process's own for solo/threads."""
    pool = getattr(getattr(worker, "pool", None), "_pool", None)
    processes = getattr(pool, "_pool", None)
    if isinstance(processes, list):
        return [p.pid for p in processes if getattr(p, "pid", None) and p.is_alive()]
    return []


def _beat(hostname: str, started: Any, children: list[str]) -> None:
    from django.db import close_old_connections
    from django.utils import timezone

    from ops.models import WorkerHeartbeat

    close_old_connections()
    try:
        WorkerHeartbeat.objects.update_or_create(
            hostname=hostname,
            defaults={
                "pid": os.getpid(),
                "started_at": started,
                "last_seen": timezone.now(),
                "children": children,
            },
        )
    except Exception:
        log.warning("worker heartbeat not recorded", exc_info=True)


class HeartbeatStep(bootsteps.StartStopStep):
    # After the pool: the first beat already lists its processes.
    requires = ("celery.worker.components:Timer", "celery.worker.components:Pool")

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None
        self.hostname = ""
        self.known: set[int] = set()

    def beat(self, worker: Any, started: Any) -> None:
        pids = _pool_pids(worker)
        lost = self.known - set(pids)
        self.known = set(pids)
        # The main process runs tasks itself with the solo and threads pools.
        children = [process_identity(self.hostname, pid) for pid in [os.getpid(), *pids]]
        _beat(self.hostname, started, children)
        if lost:  # after the row no longer lists them: their claims are stale now
            log.warning("pool process(es) %s lost; their claims are taken over", sorted(lost))
            for callback in on_process_lost:
                try:
                    callback()
                except Exception:
                    log.warning("process-lost callback failed", exc_info=True)

    def start(self, parent: Any) -> None:
        from django.utils import timezone

        self.hostname = parent.hostname or socket.gethostname()
        started = timezone.now()
        self.beat(parent, started)
        self.tref = parent.timer.call_repeatedly(HEARTBEAT_SECONDS, self.beat, (parent, started))

    def stop(self, parent: Any) -> None:
        # Tasks may still be finishing (a warm shutdown stops the pool after
        # this step): the row simply goes stale.
        if self.tref is not None:
            self.tref.cancel()
