"""The Celery queues as the broker holds them: how many messages wait in each, and
the waiting messages themselves (the re-scoring sweep reads them).

Queue names and routes are set in ``config/settings.py`` (``CELERY_TASK_ROUTES``);
on Redis every broker key carries the site's prefix (``GOREF_SITE``), so a queue
named ``pages`` is the list ``<site>:pages``.  docs/operations.md, "Queues".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings


def names() -> list[str]:
    """Every queue this site's workers consume, in the order of ``CELERY_TASK_QUEUES``."""
    return [str(q.name) for q in settings.CELERY_TASK_QUEUES]


def _redis_client(timeout: float) -> Any:
    import redis

    url = str(settings.CELERY_BROKER_URL)
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=timeout)


def _is_redis() -> bool:
    return str(settings.CELERY_BROKER_URL).startswith(("redis://", "rediss://"))


def redis_key(queue: str) -> str:
    """The Redis list that holds ``queue``'s waiting messages."""
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    return f"{prefix}{queue}"


def _files(queue: str) -> list[Path]:
    """The embedded broker's waiting messages of ``queue``: one file each, named
    ``<time>_<id>.<queue>.msg``, oldest first."""
    folder = Path(str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"]))
    return sorted(folder.glob(f"*.{queue}.msg"))


def depths() -> dict[str, int]:
    """Messages waiting in each queue (raises when the broker cannot be read)."""
    if _is_redis():
        client = _redis_client(timeout=1)
        with client.pipeline(transaction=False) as pipe:
            for q in names():
                pipe.llen(redis_key(q))
            counts = pipe.execute()
        return {q: int(n) for q, n in zip(names(), counts, strict=True)}
    return {q: len(_files(q)) for q in names()}


def waiting(queue: str, limit: int) -> list[bytes] | None:
    """The raw messages waiting in ``queue``; ``None`` when more than ``limit`` wait
    (reading them would cost more than it saves).  Raises when the broker cannot be read."""
    if _is_redis():
        client = _redis_client(timeout=5)
        key = redis_key(queue)
        if int(client.llen(key)) > limit:
            return None
        return list(client.lrange(key, 0, limit))
    files = _files(queue)
    if len(files) > limit:
        return None
    found = []
    for path in files:
        try:
            found.append(path.read_bytes())
        except OSError:  # taken by a worker meanwhile
            continue
    return found
