"""A congress-size pairing runs as a job: the API answers 202 with the job's URL, whose
result is the pairing once a worker ran it; the admin's preview follows the job on its
own page; one pairing job per tournament at a time.  The threshold is lowered to four
players here (``GOREF_PAIRING_JOB_PLAYERS``) so that a small field stands for a congress."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.people.services.grants import director_grant_admin
from games.services import game_result_enter
from games.tournament.services import game_create
from games.tournament.services.pairing_jobs import JOB_KIND, round_pair_job_run
from ops.models import AuditEntry, Job, JobState
from tests.factories import PlayerFactory, enter
from tests.games.api_helpers import assert_error

pytestmark = pytest.mark.django_db


def url(tournament: Any, r: int = 1) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/rounds/{r}/pairing/"


@pytest.fixture
def congress(tournament: Any, settings: Any) -> list[Any]:
    """Six players entered, above the (lowered) threshold of four."""
    settings.GOREF_PAIRING_JOB_PLAYERS = 4
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([2, 1, 0, -1, -2, -3], start=1)
    ]
    tournament.system = tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 5
    tournament.save()
    enter(tournament, *players)
    return players


def _run(job_id: int) -> Job:
    round_pair_job_run(job_id=job_id)
    return Job.objects.get(pk=job_id)


def test_a_dry_run_is_a_job_whose_result_is_the_answer(
    api_as: Any, director: Any, tournament: Any, congress: Any, settings: Any
) -> None:
    started = api_as(director).post(url(tournament), {"dry_run": True}, format="json")
    assert started.status_code == 202, started.content
    body = started.json()
    assert body["status"] == "pending" and started["Location"] == body["url"]
    assert body["url"].endswith(f"/api/v1/jobs/{body['job']}/")
    pending = api_as(director).get(body["url"]).json()
    assert pending["state"] == "pending" and pending["result"] is None
    assert _run(body["job"]).state == JobState.DONE
    done = api_as(director).get(body["url"]).json()
    assert done["state"] == "done" and done["done"] == done["total"] == 2
    assert len(done["result"]["games"]) == 3 and not Game.objects.exists()
    # The same answer as the request itself gives under the threshold.
    settings.GOREF_PAIRING_JOB_PLAYERS = 100
    inline = api_as(director).post(url(tournament), {"dry_run": True}, format="json")
    assert inline.status_code == 200 and inline.json() == done["result"]


def test_a_pairing_job_creates_the_games_as_the_request_would(
    api_as: Any, director: Any, tournament: Any, congress: Any
) -> None:
    started = api_as(director).post(url(tournament), {"explain": True}, format="json")
    assert started.status_code == 202
    assert not Game.objects.exists()  # nothing written before the worker runs it
    job = _run(started.json()["job"])
    assert Game.objects.filter(tournament=tournament, round__number=1).count() == 3
    assert all(g["explanation"] for g in job.result["games"])
    paired = AuditEntry.objects.get(action="round.paired")
    assert paired.actor == director  # the job acts as the director who asked


def test_one_pairing_job_per_tournament_at_a_time(
    api_as: Any, director: Any, tournament: Any, congress: Any
) -> None:
    first = api_as(director).post(url(tournament), {"dry_run": True}, format="json")
    second = api_as(director).post(url(tournament), {"dry_run": True}, format="json")
    assert_error(second, 409)
    assert f"job {first.json()['job']}" in second.json()["message"]
    Job.objects.filter(pk=first.json()["job"]).update(state=JobState.RUNNING)
    assert_error(api_as(director).post(url(tournament), {}, format="json"), 409)
    _run(first.json()["job"])
    assert api_as(director).post(url(tournament), {}, format="json").status_code == 202


def test_a_job_left_by_a_dead_worker_does_not_block_the_tournament(
    api_as: Any, director: Any, tournament: Any, congress: Any
) -> None:
    first = api_as(director).post(url(tournament), {"dry_run": True}, format="json").json()
    Job.objects.filter(pk=first["job"]).update(
        state=JobState.RUNNING, created_at=timezone.now() - dt.timedelta(hours=1)
    )
    assert (
        api_as(director).post(url(tournament), {"dry_run": True}, format="json").status_code == 202
    )
    lost = Job.objects.get(pk=first["job"])
    assert lost.state == JobState.FAILED and "no worker" in lost.error


def test_a_refused_pairing_fails_its_job_with_the_reason(
    api_as: Any, director: Any, tournament: Any, congress: Any
) -> None:
    started = api_as(director).post(url(tournament), {}, format="json").json()
    _run(started["job"])
    game = Game.objects.filter(tournament=tournament).first()
    assert game is not None
    game_result_enter(actor=director, game=game, result="B+R")
    again = api_as(director).post(url(tournament), {}, format="json").json()
    job = _run(again["job"])
    assert job.state == JobState.FAILED and "already has results" in job.error
    assert api_as(director).get(again["url"]).json()["result"] == {
        "message": job.error,
        "extra": {},
    }


def test_only_its_directors_start_or_see_a_pairing_job(
    api_as: Any, director: Any, outsider: Any, tournament: Any, congress: Any
) -> None:
    assert_error(api_as(outsider).post(url(tournament), {"dry_run": True}, format="json"), 403)
    assert not Job.objects.filter(kind=JOB_KIND).exists()
    started = api_as(director).post(url(tournament), {"dry_run": True}, format="json").json()
    assert_error(api_as(outsider).get(started["url"]), 404)


def test_a_small_field_is_still_paired_in_the_request(
    api_as: Any, director: Any, tournament: Any, congress: Any
) -> None:
    two = [p.pk for p in congress[:2]]
    answer = api_as(director).post(
        url(tournament), {"players": two, "dry_run": True}, format="json"
    )
    assert answer.status_code == 200 and len(answer.json()["games"]) == 1


def test_the_admin_preview_of_a_congress_follows_its_job(
    director: Any, tournament: Any, congress: Any
) -> None:
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    pair = reverse("admin:games_tournament_pair", args=[tournament.pk, 1])
    asked = client.post(pair, {"step": "preview", "bye": "auto"})
    job = Job.objects.get(kind=JOB_KIND)
    page = reverse("admin:games_tournament_pair_job", args=[tournament.pk, 1, job.pk])
    assert asked.status_code == 302 and asked["Location"] == page
    waiting = client.get(page)
    assert waiting.status_code == 200
    assert b"step 0 of 2" in waiting.content and b'http-equiv="refresh"' in waiting.content
    _run(job.pk)
    ready = client.get(page)
    assert ready.status_code == 200 and b'name="games_text"' in ready.content
    proposed = [r for r in ready.context["rows"] if r["black"] and r["white"]]
    assert len(proposed) == 3 and all(r["words"] for r in proposed)
    assert not Game.objects.exists()
    # Another round's page does not show this round's job.
    other = reverse("admin:games_tournament_pair_job", args=[tournament.pk, 2, job.pk])
    assert client.get(other).status_code == 404


def test_a_refused_preview_job_shows_its_reason_on_the_pairing_page(
    director: Any, outsider: Any, tournament: Any, congress: Any
) -> None:
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    client.post(
        reverse("admin:games_tournament_pair", args=[tournament.pk, 1]),
        {"step": "preview", "bye": "auto"},
    )
    job = Job.objects.get(kind=JOB_KIND)
    # A result comes in by hand while the job waits: the round can no longer be paired.
    game = game_create(
        actor=None, tournament=tournament, round_number=1, black=congress[0], white=congress[1]
    )
    game_result_enter(actor=director, game=game, result="B+R")
    assert _run(job.pk).state == JobState.FAILED
    page = client.get(reverse("admin:games_tournament_pair_job", args=[tournament.pk, 1, job.pk]))
    assert page.status_code == 200 and "already has results" in " ".join(page.context["errors"])
    director_grant_admin(user=outsider)
    other = Client()
    other.force_login(outsider)
    url = reverse("admin:games_tournament_pair_job", args=[tournament.pk, 1, job.pk])
    assert other.get(url).status_code == 403
