"""A large tournament file imported as a job: 202 with the job's URL, the worker imports
it as the director who sent it, the job's result is the import's answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Tournament
from games.people.services.grants import director_grant_admin
from games.tournament.services.import_jobs import tournament_import_job_run
from ops.models import Job, JobState

pytestmark = pytest.mark.django_db
FILE = Path(__file__).resolve().parents[2] / "data" / "opengotha" / "juvisy-2019.xml"
URL = "/api/v1/tournaments/import/"


@pytest.fixture(autouse=True)
def _may_import(director: Any) -> None:
    director_grant_admin(user=director)


def _post(client: Any, data: bytes, name: str = "") -> Any:
    upload = SimpleUploadedFile("event.xml", data, content_type="application/xml")
    return client.post(URL, {"file": upload, "name": name}, format="multipart")


def test_a_file_above_the_threshold_imports_as_a_job(
    api_as: Any, director: Any, settings: Any
) -> None:
    settings.GOREF_IMPORT_JOB_PLAYERS = 5
    client = api_as(director)
    started = _post(client, FILE.read_bytes(), "Juvisy")
    assert started.status_code == 202, started.content
    body = started.json()
    assert body["status"] == "pending" and started["Location"] == body["url"]
    assert not Tournament.objects.exists()
    # A second file of the same director waits for the first.
    assert _post(client, FILE.read_bytes()).status_code == 409
    state = tournament_import_job_run(job_id=body["job"])
    assert state == JobState.DONE, Job.objects.get(pk=body["job"]).error
    job = Job.objects.get(pk=body["job"])
    assert "file" not in job.params  # the file leaves the job's row once imported
    result = api_as(director).get(body["url"]).json()
    assert result["state"] == "done" and result["result"]["players"] > 5
    tournament = Tournament.objects.get(pk=result["result"]["tournament"])
    assert tournament.name == "Juvisy" and director in tournament.directors.all()


def test_a_small_or_unreadable_file_is_answered_at_once(
    api_as: Any, director: Any, settings: Any
) -> None:
    settings.GOREF_IMPORT_JOB_PLAYERS = 1000
    client = api_as(director)
    assert _post(client, FILE.read_bytes()).status_code == 201
    settings.GOREF_IMPORT_JOB_PLAYERS = 1
    refused = _post(client, b"<Tournament><Players><Player")
    assert refused.status_code == 400 and not Job.objects.exists()
