"""/healthz reports the queue; the sweep runs at worker start-up and on a beat schedule."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from config.celery import app
from games.models import ScoringRun
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client, django_user_model):  # type: ignore[no-untyped-def]
    """/healthz shows its parts to staff only."""
    client.force_login(django_user_model.objects.create_user("ops", is_staff=True))
    return client


def test_healthz_shows_queue_depth_and_the_oldest_pending_run(client, settings, tmp_path: Path):
    folder = tmp_path / "queue"
    folder.mkdir()
    for name in ("1_a.scoring.msg", "2_b.pages.msg", "3_c.pages.msg", "notes.txt"):
        (folder / name).write_text("{}")
    settings.CELERY_BROKER_URL = "filesystem://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(folder)}
    game = GameFactory(sgf="(;SZ[19])")
    ScoringRun.objects.create(
        game=game,
        rules="japanese",
        engine_version="1",
        input_hash="x",
        requested_at=timezone.now() - timedelta(seconds=90),
    )
    queue = client.get("/healthz").json()["queue"]
    assert queue["depth"] == 3
    assert queue["queues"] == {"pages": 2, "scoring": 1, "ratings": 0, "sweeps": 0, "default": 0}
    assert 89 <= queue["oldest_pending_run_age_s"] < 120


@pytest.mark.integration
def test_healthz_reads_the_redis_queue_lengths_under_the_sites_prefix(client, settings, redis_url):
    import redis

    settings.CELERY_BROKER_URL = redis_url
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": "health-test:"}
    r = redis.Redis.from_url(redis_url)
    r.delete("health-test:pages", "health-test:scoring")
    r.rpush("health-test:pages", "a", "b")
    r.rpush("pages", "another site's")  # no prefix: not this site's queue
    try:
        queue = client.get("/healthz").json()["queue"]
    finally:
        r.delete("health-test:pages", "pages")
    assert queue["queues"] == {"pages": 2, "scoring": 0, "ratings": 0, "sweeps": 0, "default": 0}
    assert queue["depth"] == 2 and queue["oldest_pending_run_age_s"] is None


def test_a_queue_it_cannot_read_is_reported_not_raised(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["queue"]["depth"] is None and response.json()["queue"]["error"]


def test_the_sweep_is_on_the_beat_schedule():
    entry = app.conf.beat_schedule["games-rescore-sweep"]
    assert entry["task"] == "games.sweep_pending" and entry["schedule"] <= 60


def test_a_worker_queues_a_sweep_each_time_it_connects(monkeypatch):
    from games import tasks
    from games.celery_bootsteps import SweepOnConnect

    assert SweepOnConnect in app.steps["consumer"]
    sent: list[dict[str, object]] = []
    monkeypatch.setattr(tasks.sweep_pending, "apply_async", lambda **kw: sent.append(kw))
    step = SweepOnConnect.__new__(SweepOnConnect)
    step.start(None)
    step.start(None)  # the consumer restarts its steps after a lost connection
    assert len(sent) == 2 and sent[0]["retry"] is True


def test_a_sweep_that_cannot_be_queued_does_not_stop_the_worker(monkeypatch, caplog):
    from games import tasks
    from games.celery_bootsteps import SweepOnConnect

    def down(**kw: object) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(tasks.sweep_pending, "apply_async", down)
    SweepOnConnect.__new__(SweepOnConnect).start(None)
    assert "sweep not queued" in caplog.text
