"""/healthz reports the database, the broker and the workers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ops.models import WorkerHeartbeat
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client, django_user_model):  # type: ignore[no-untyped-def]
    """Staff see every part of the answer; anyone else ``{"ok": ...}`` only."""
    client.force_login(django_user_model.objects.create_user("ops", is_staff=True))
    return client


def test_an_anonymous_caller_gets_ok_only(db, django_user_model) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client

    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname="w1@secret-host", pid=1, started_at=now, last_seen=now)
    for who in (None, django_user_model.objects.create_user("player")):
        anonymous = Client()
        if who is not None:
            anonymous.force_login(who)
        response = anonymous.get("/healthz")
        assert response.status_code == 200
        assert response.json() == {"ok": True}
        assert b"secret-host" not in response.content


def test_the_broker_probe_is_cached_for_a_few_seconds(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from config import health

    calls = []
    monkeypatch.setattr(health, "_broker_probe", None)
    monkeypatch.setattr(health, "_probe_broker", lambda: calls.append(1) or {"ok": True})
    for _ in range(5):
        assert client.get("/healthz").json()["broker"]["ok"] is True
    assert len(calls) == 1
    monkeypatch.setattr(health.time, "monotonic", lambda: 10**9)
    client.get("/healthz")
    assert len(calls) == 2


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


def test_a_broker_that_is_down_is_reported_not_raised(client, settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from config import health

    monkeypatch.setattr(health, "_broker_probe", None)
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
