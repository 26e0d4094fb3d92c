"""The Celery application.  Settings come from Django's (``CELERY_*``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("goref")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _add_worker_steps() -> None:
    from ops.worker import HeartbeatStep

    app.steps["worker"].add(HeartbeatStep)


_add_worker_steps()
