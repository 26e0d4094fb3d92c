"""A slow cache is not a dead cache: Redis is taken for down only after several failures
in a short while, and while it is, each page is built by one thread per process
(ops.pages.backends, ops.pages.cache)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from ops.pages import backends
from ops.pages import cache as versioned
from ops.pages.backends import FAILURES, ForgivingRedisCache


@pytest.fixture
def dead_redis() -> ForgivingRedisCache:
    """A cache on a Redis that refuses connections (nothing listens on port 1)."""
    ForgivingRedisCache.forget_down()
    return ForgivingRedisCache(
        "redis://127.0.0.1:1/0",
        {"OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25}},
    )


def test_one_failed_read_is_a_miss_not_an_outage(dead_redis: ForgivingRedisCache) -> None:
    assert dead_redis.get("page", "missed") == "missed"
    assert not dead_redis.is_down()  # the next read asks Redis again


def test_several_failures_in_a_short_while_take_redis_for_down(
    dead_redis: ForgivingRedisCache,
) -> None:
    for _ in range(FAILURES):
        dead_redis.get("page")
    assert dead_redis.is_down()
    started = time.monotonic()
    assert dead_redis.get("page", "missed") == "missed"
    assert time.monotonic() - started < 0.01  # not asked at all meanwhile


def test_failures_far_apart_never_add_up_to_an_outage(
    dead_redis: ForgivingRedisCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(backends.time, "monotonic", lambda: clock[0])
    for _ in range(FAILURES * 3):
        dead_redis.get("page")
        clock[0] += backends.FAILURE_WINDOW / (FAILURES - 1) + 0.1
    assert not dead_redis.is_down()


def test_with_the_cache_down_one_thread_per_page_builds_it(
    monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    monkeypatch.setattr(versioned, "shared_cache_down", lambda: True)
    builds: list[str] = []

    def build(name: str) -> Any:
        def compute() -> str:
            builds.append(name)
            time.sleep(0.3)
            return f"{name} built"

        return compute

    answers: list[str] = []

    def read(name: str, stamp: int) -> None:
        # Each reader has versions of its own, as with no Redis to read them from.
        answers.append(versioned.single_flight(f"{name}@{stamp}", build(name)))

    threads = [
        threading.Thread(target=read, args=(name, i))
        for i, name in enumerate(["page.a"] * 6 + ["page.b"] * 2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(builds) == ["page.a", "page.b"]  # one rebuild per page, not eight
    assert sorted(answers) == ["page.a built"] * 6 + ["page.b built"] * 2
