"""The Celery application.  Settings come from Django's (``CELERY_*``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("goref")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Work the broker never got (it was down) or whose worker died is queued again
# every minute: re-scoring runs (games.sweep_pending; also whenever a worker
# connects to the broker) and rating jobs (ratings.sweep).  Beat runs inside
# the worker with ``-B`` (as ``make run`` does) or as ``celery -A config beat``.
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "games-rescore-sweep": {"task": "games.sweep_pending", "schedule": 60.0},
    "ratings-sweep": {"task": "ratings.sweep", "schedule": 60.0},
}


def _add_worker_steps() -> None:
    from ops.worker import HeartbeatStep

    app.steps["worker"].add(HeartbeatStep)

    from games.worker_steps import SweepOnConnect  # re-scoring runs left behind

    app.steps["consumer"].add(SweepOnConnect)


_add_worker_steps()
