"""/healthz reports the database, the broker and the workers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ops.models import WorkerHeartbeat
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db


def test_healthz_answers_json_with_each_part(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] is True
    assert set(body) >= {"database", "broker", "workers"}


def test_a_stale_heartbeat_is_not_a_live_worker(client) -> None:  # type: ignore[no-untyped-def]
    now = timezone.now()
    WorkerHeartbeat.objects.create(
        hostname="old@box",
        pid=1,
        started_at=now - timedelta(hours=1),
        last_seen=now - timedelta(minutes=5),
    )
    WorkerHeartbeat.objects.create(hostname="new@box", pid=2, started_at=now, last_seen=now)
    workers = client.get("/healthz").json()["workers"]
    assert workers == {"ok": True, "alive": 1, "hostnames": ["new@box"]}


def test_a_broker_that_is_down_is_reported_not_raised(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    body = client.get("/healthz").json()
    assert body["broker"]["ok"] is False
    assert body["ok"] is True  # the site can still take submissions; the sweep queues them later


@pytest.mark.integration
def test_a_real_worker_on_redis_and_postgres_shows_as_alive(start_worker, client) -> None:  # type: ignore[no-untyped-def]
    start_worker()
    assert wait_for(lambda: WorkerHeartbeat.objects.exists(), timeout=30)
    body = client.get("/healthz").json()
    assert body["database"]["vendor"] == "postgresql"
    assert body["broker"]["ok"] is True
    assert "redis" in body["broker"]["transport"].lower()
    assert body["workers"]["alive"] >= 1
