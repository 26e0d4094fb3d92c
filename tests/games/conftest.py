"""Fixtures of the re-scoring integration tests: the Celery queue, a redis-server of our own."""

from __future__ import annotations

import shutil
import socket
import subprocess
from collections.abc import Iterator

import pytest

from config.celery import app
from tests.conftest import wait_for


def use_broker(url: str) -> None:
    """Point this process's Celery app (the publishing side) at ``url``, with the keys
    under the site's prefix as a worker started on it has them (``settings.GOREF_SITE``)."""
    from django.conf import settings

    # With the CELERY namespace the prefixed key is the one Celery reads first.
    app.conf["CELERY_BROKER_URL"] = url
    if url.startswith("redis"):
        app.conf["CELERY_BROKER_TRANSPORT_OPTIONS"] = {
            "max_retries": 0,
            "global_keyprefix": f"{settings.GOREF_SITE}:",
        }
    else:
        app.conf["CELERY_BROKER_TRANSPORT_OPTIONS"] = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    app._pool = None
    app.amqp._producer_pool = None


def broker_key(name: str) -> str:
    """A broker key (a queue, ``unacked``) as it is named in Redis: under the site's prefix."""
    from django.conf import settings

    return f"{settings.GOREF_SITE}:{name}"


@pytest.fixture
def clean_queue(redis_url: str) -> Iterator[str]:
    """Nothing left over from another test in our Redis database; publish to it."""
    import redis

    r = redis.Redis.from_url(redis_url)
    r.delete(*(broker_key(k) for k in ("scoring", "unacked", "unacked_index")))
    before = app.conf.broker_url
    use_broker(redis_url)
    yield redis_url
    use_broker(before)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is needed for this test"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert wait_for(self.answers, timeout=10), "redis-server did not start"

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture
def own_redis(redis_url: str) -> Iterator[RedisServer]:
    server = RedisServer(_free_port())
    server.start()
    before = app.conf.broker_url
    try:
        yield server
    finally:
        server.stop()
        use_broker(before)
