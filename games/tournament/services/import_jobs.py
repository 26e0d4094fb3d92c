"""A large tournament file imported as a background job, as a congress-size pairing is:
no request holds a thread for it, and the page or the API reads its progress.

Above ``GOREF_IMPORT_JOB_PLAYERS`` players the API starts a job (``ops.Job``, kind
``import``) that a worker runs through ``tournament_import`` as the director who sent
the file; the file travels in the job's row (base64), so any worker host can run it.
The answer is kept on the job (``Job.result``: the import's answer, or its refusal in the
API's error shape).  docs/operations.md, "Large imports".
"""

from __future__ import annotations

import base64
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from games.tournament.engine.formats.opengotha import FileFormatError
from games.tournament.services.files import ImportResult, read_event, tournament_import
from ops.models import Job
from ops.services import Actor, StateConflict, as_user
from ops.tasks_common import job_run, publish_or_log

JOB_KIND = "import"
TASK_NAME = "games.tournament.tournament_import_job"


def import_needs_job(data: bytes) -> bool:
    """Whether this file's import is a job: more players than the setting.  A file that
    cannot be read is not: the request itself refuses it, at once."""
    try:
        _fmt, event = read_event(data)
    except (ValidationError, FileFormatError, ValueError):
        return False
    return len(event.entrants) > settings.GOREF_IMPORT_JOB_PLAYERS


def import_answer(result: ImportResult) -> dict[str, Any]:
    """The API's answer to an import, in JSON's own types."""
    return {
        "tournament": result.tournament.pk,
        "players": result.players,
        "games": result.games,
        "linked": result.linked,
        "created": result.new_players,
        "review": result.review,
        "review_url": result.review_url,
        "held": result.held,
    }


def tournament_import_job_start(*, actor: Actor, data: bytes, name: str = "") -> Job:
    """Queue the import of ``data`` as ``actor`` (published on commit); 409 while the same
    user's previous import job is still waiting for a worker."""
    user = as_user(actor)
    if user is None:
        raise PermissionDenied("Sign in to import a tournament.")
    with transaction.atomic():
        try:
            with transaction.atomic():
                job = Job.objects.create(
                    kind=JOB_KIND,
                    scope=f"user:{user.pk}",
                    params={"name": name, "file": base64.b64encode(data).decode("ascii")},
                    total=2,
                    created_by=user,
                )
        except IntegrityError:  # job_one_pending_per_scope
            raise StateConflict(
                "Your previous import is still waiting for a worker: wait for it."
            ) from None
        job_id = job.pk
        transaction.on_commit(lambda: import_job_publish(job_id))
    return job


def import_job_publish(job_id: int) -> bool:
    """Hand the job to the broker (never raises; the director sends the file again if it
    is lost)."""
    return publish_or_log(
        lambda: current_app.send_task(TASK_NAME, args=[job_id]), what=f"import job {job_id}"
    )


def tournament_import_job_run(*, job_id: int) -> str:
    """The task body: import the file as the job's creator, keep the answer; the file
    leaves the job's row once it is over."""

    def work(job: Job) -> dict[str, Any]:
        data = base64.b64decode(job.params.get("file", ""))
        name = str(job.params.get("name", ""))
        return import_answer(tournament_import(actor=job.created_by, data=data, name=name))

    return job_run(job_id, work, keep=lambda params: {"name": params.get("name", "")})
