"""``GET /healthz``: the state of the database, the broker and the workers, as JSON.

503 only when the database is unreachable: a submission is stored even while
the broker is down, and the sweep queues it later (docs/operations.md §1).
Anyone (a load balancer) gets ``{"ok": ...}`` only; staff get every part, with
host names and errors.  The broker is probed at most once per
``BROKER_PROBE_SECONDS`` per process, so callers cannot make it open a
connection per request.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app
from games.services.scoring import oldest_pending_age
from ops import queues
from ops.models import WorkerHeartbeat
from ops.worker import HEARTBEAT_SECONDS

WORKER_STALE_AFTER = timedelta(seconds=HEARTBEAT_SECONDS * 4)


def _check_database() -> dict[str, Any]:
    started = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:200]}
    return {
        "ok": True,
        "vendor": connection.vendor,
        "ms": round(1000 * (time.monotonic() - started), 1),
    }


BROKER_PROBE_SECONDS = 5.0
_broker_probe: tuple[float, str, dict[str, Any]] | None = None  # (when, broker URL, answer)


def _check_broker() -> dict[str, Any]:
    """The last probe's answer if it is fresh, else a new probe."""
    global _broker_probe
    now = time.monotonic()
    url = str(settings.CELERY_BROKER_URL)
    if _broker_probe is not None:
        when, probed_url, answer = _broker_probe
        if probed_url == url and now - when < BROKER_PROBE_SECONDS:
            return {**answer, "cached": True}
    answer = _probe_broker()
    _broker_probe = (now, url, answer)
    return answer


def _probe_broker() -> dict[str, Any]:
    started = time.monotonic()
    try:
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=1)
            transport = conn.transport_cls
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:200]}
    return {
        "ok": True,
        "transport": str(transport),
        "ms": round(1000 * (time.monotonic() - started), 1),
    }


def _check_workers() -> dict[str, Any]:
    try:
        cutoff = timezone.now() - WORKER_STALE_AFTER
        alive = list(
            WorkerHeartbeat.objects.filter(last_seen__gte=cutoff).values_list("hostname", flat=True)
        )
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:200]}
    return {"ok": bool(alive), "alive": len(alive), "hostnames": alive}


def _check_queue() -> dict[str, Any]:
    """Messages waiting in each Celery queue (``depth``: all of them), and the oldest
    pending re-scoring."""
    body: dict[str, Any] = {}
    try:
        body["queues"] = queues.depths()
        body["depth"] = sum(body["queues"].values())
    except Exception as exc:
        body.update(queues=None, depth=None, error=str(exc)[:200])
    try:
        body["oldest_pending_run_age_s"] = oldest_pending_age()
    except Exception as exc:
        body.update(oldest_pending_run_age_s=None, error=str(exc)[:200])
    return body


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = _check_database()
    status = 200 if database["ok"] else 503
    # Without a database nobody can be known as staff (the session lives there).
    if not database["ok"] or not _is_staff(request):
        return JsonResponse({"ok": database["ok"]}, status=status)
    body: dict[str, Any] = {
        "ok": database["ok"],
        "database": database,
        "broker": _check_broker(),
        "workers": _check_workers(),
        "queue": _check_queue(),
    }
    return JsonResponse(body, status=status)


def _is_staff(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_staff)
