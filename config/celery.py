"""The Celery application.  Settings come from Django's (``CELERY_*``)."""

import os

from celery import Celery, signals
from django.conf import settings

from config.startup import refuse_if_site_shared
from games.celery_bootsteps import SweepOnConnect, sweep_now
from ops import worker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("goref")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Work the broker never got (it was down or lost its queue) or whose worker
# died is queued again: re-scoring runs every GOREF_SWEEP_SECONDS (30 s;
# games.sweep_pending, also whenever a worker connects to the broker and when
# one of its pool processes dies) and rating jobs every minute (ratings.sweep).
# Beat runs inside the worker with ``-B`` (as ``make run`` and ``make serve``
# do) or as ``celery -A config beat``.
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "games-rescore-sweep": {
        "task": "games.sweep_pending",
        "schedule": float(settings.GOREF_SWEEP_SECONDS),
    },
    "ratings-sweep": {"task": "ratings.sweep", "schedule": 60.0},
}


app.steps["worker"].add(worker.HeartbeatStep)
app.steps["consumer"].add(SweepOnConnect)  # re-scoring runs left behind
worker.on_process_lost.append(sweep_now)  # a pool process died holding claims


@signals.worker_init.connect
def _refuse_a_shared_site(**kwargs: object) -> None:
    """A worker on a Redis DB that serves this site's name for another database would
    run that site's tasks against this one: it does not start (config.startup)."""
    refuse_if_site_shared()
