"""The Celery application.  Settings come from Django's (``CELERY_*``)."""

import os

from celery import Celery

from games.worker_steps import SweepOnConnect
from ops.worker import HeartbeatStep

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


app.steps["worker"].add(HeartbeatStep)
app.steps["consumer"].add(SweepOnConnect)  # re-scoring runs left behind
