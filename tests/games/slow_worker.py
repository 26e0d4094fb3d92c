"""``python -m tests.games.slow_worker SECONDS ARGS...``: ``celery ARGS...`` that waits
SECONDS after scoring each game, so a SIGKILL lands in the middle of a batch.

Only the integration tests start it (``start_worker(scoring_delay=...)``).  It
wraps ``games.services.scoring_worker.compute`` before Celery starts; the
prefork pool's children are forked from this process and inherit the wrapper.
"""

from __future__ import annotations

import sys
import time
from functools import wraps
from typing import Any


def main(argv: list[str]) -> None:
    delay, celery_args = float(argv[0]), argv[1:]

    import django

    django.setup()
    from games.services import scoring_worker

    compute = scoring_worker.compute

    @wraps(compute)
    def slow_compute(game: Any) -> Any:
        try:
            return compute(game)
        finally:
            time.sleep(delay)

    scoring_worker.compute = slow_compute

    from celery.bin.celery import main as celery

    sys.argv = ["celery", *celery_args]
    celery()


if __name__ == "__main__":
    main(sys.argv[1:])
