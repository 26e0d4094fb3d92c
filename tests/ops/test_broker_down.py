"""A broker that refuses: the publish fails at once and the next ones do not even try."""

from __future__ import annotations

import time

import pytest

from ops import tasks_common


def test_after_a_failed_publish_the_next_ones_are_skipped_for_a_moment(settings, monkeypatch):
    settings.GOREF_BROKER_DOWN_SECONDS = 5
    tries: list[str] = []

    def refused() -> None:
        tries.append("x")
        raise OSError("connection refused")

    assert tasks_common.publish_or_log(refused, what="job 1") is False
    assert tasks_common.broker_down()
    assert tasks_common.publish_or_log(refused, what="job 2") is False
    assert tries == ["x"]  # the second never waited on the broker

    later = time.monotonic() + 6
    monkeypatch.setattr(tasks_common.time, "monotonic", lambda: later)
    assert not tasks_common.broker_down()
    assert tasks_common.publish_or_log(lambda: None, what="job 3") is True


@pytest.mark.integration
def test_a_refused_broker_port_fails_a_publish_in_well_under_a_second(redis_url, settings):
    """Kombu would otherwise sleep between two connection attempts (2 s)."""
    from config.celery import app
    from games import tasks

    before = app.conf.broker_url
    app.conf["CELERY_BROKER_URL"] = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    app._pool = None
    app.amqp._producer_pool = None
    try:
        started = time.monotonic()
        with pytest.raises(Exception, match="refused"):
            tasks.rescore_game.apply_async((1,))
        assert time.monotonic() - started < 0.5
    finally:
        app.conf["CELERY_BROKER_URL"] = before
        app._pool = None
        app.amqp._producer_pool = None
