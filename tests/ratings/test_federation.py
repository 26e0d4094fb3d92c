"""Federation officials are a group of their own: admin access as a director grants none of
their powers (promotion policies and the default, other tournaments' candidates, the
honorary 9p+, full recomputes); recomputes coalesce into one waiting job; a job is seen by
its starter and its tournament's directors only."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from config.jobs import can_see_job
from games.people.services.grants import (
    FEDERATION_GROUP,
    director_grant_admin,
    federation_official_grant,
)
from games.permissions import is_federation_official
from ops.models import Job, JobState
from ratings.models import PromotionPolicy
from ratings.services import player_award_honorary, ratings_recompute_start
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

POLICIES = "/api/v1/promotions/policies/"


@pytest.fixture(autouse=True)
def _fixed_dates(settings: Any) -> None:
    """The personas' tournament ended in March 2026: how far back a director reaches is
    tests/games/test_director_reach.py's business, not these."""
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000


@pytest.fixture
def admin_director(db: Any) -> Any:
    """A director of his own tournament, let into the admin (staff, Directors group)."""
    user = UserFactory(username="adm")
    director_grant_admin(user=user)
    TournamentFactory(name="His Own Cup").directors.add(user)
    return user


@pytest.fixture
def quiet_broker(monkeypatch: Any) -> list[int]:
    import ratings.tasks

    sent: list[int] = []
    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", sent.append)
    return sent


def test_the_admin_grant_makes_no_federation_official(admin_director: Any) -> None:
    assert admin_director.is_staff
    assert not admin_director.groups.filter(name=FEDERATION_GROUP).exists()
    assert not is_federation_official(admin_director)


def test_an_admin_director_cannot_replace_the_federation_default(
    api_as: Any, admin_director: Any, tournament: Any
) -> None:
    client = api_as(admin_director)
    default = PromotionPolicy.objects.get(tournament=None)
    assert client.post(POLICIES, {"name": "Mine", "params": {}}, format="json").status_code == 403
    assert client.patch(f"{POLICIES}{default.pk}/", {"name": "x"}, format="json").status_code == 403
    # Another tournament's policy is not his either.
    other = client.post(
        POLICIES,
        {"name": "Theirs", "tournament": tournament.pk, "params": {}, "active": True},
        format="json",
    )
    assert other.status_code == 403


def test_an_admin_director_cannot_award_the_honorary_title(admin_director: Any, alice: Any) -> None:
    with pytest.raises(PermissionDenied, match="federation officials"):
        player_award_honorary(actor=admin_director, player=alice, reason="friend of mine")


def test_a_federation_official_named_by_a_superuser_can(
    superuser: Any, admin_director: Any, alice: Any, api_as: Any
) -> None:
    with pytest.raises(PermissionDenied):
        federation_official_grant(actor=admin_director, user=admin_director)
    federation_official_grant(actor=superuser, user=admin_director)
    assert is_federation_official(admin_director)
    player_award_honorary(actor=admin_director, player=alice, reason="A lifetime of teaching")
    created = api_as(admin_director).post(POLICIES, {"name": "Fed", "params": {}}, format="json")
    assert created.status_code == 201


def test_an_admin_director_cannot_queue_a_full_recompute(admin_director: Any) -> None:
    with pytest.raises(PermissionDenied):
        ratings_recompute_start(actor=admin_director)
    assert not Job.objects.exists()


def test_thirty_requests_make_one_waiting_job(
    director: Any, tournament: Any, quiet_broker: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        jobs = {
            ratings_recompute_start(actor=director, from_tournament=tournament).pk
            for _ in range(30)
        }
    assert len(jobs) == 1 and Job.objects.filter(kind="ratings").count() == 1
    assert quiet_broker == list(jobs)  # published once


def test_a_request_while_one_runs_queues_one_more_and_the_earlier_start_wins(
    director: Any, tournament: Any, superuser: Any, quiet_broker: list[int]
) -> None:
    running = ratings_recompute_start(actor=director, from_tournament=tournament)
    Job.objects.filter(pk=running.pk).update(state=JobState.RUNNING)
    waiting = ratings_recompute_start(actor=director, from_tournament=tournament)
    assert waiting.pk != running.pk
    again = ratings_recompute_start(actor=superuser)  # a full recompute
    assert again.pk == waiting.pk
    waiting.refresh_from_db()
    assert waiting.params["from_tournament"] is None  # widened to cover the full request
    assert Job.objects.filter(kind="ratings", state=JobState.PENDING).count() == 1


def test_staff_does_not_see_another_tournaments_job(
    admin_director: Any, director: Any, tournament: Any, quiet_broker: list[int]
) -> None:
    job = ratings_recompute_start(actor=director, from_tournament=tournament)
    rescore = Job.objects.create(kind="rescore", params={"tournament": tournament.pk})
    assert can_see_job(director, job) and can_see_job(director, rescore)
    assert not can_see_job(admin_director, job)
    assert not can_see_job(admin_director, rescore)


def test_the_job_api_answers_404_to_another_director(
    api_as: Any, admin_director: Any, tournament: Any
) -> None:
    rescore = Job.objects.create(kind="rescore", params={"tournament": tournament.pk})
    assert api_as(admin_director).get(f"/api/v1/jobs/{rescore.pk}/").status_code == 404


def test_the_admins_job_list_shows_a_director_his_own_jobs(
    client: Any, admin_director: Any, tournament: Any
) -> None:
    Job.objects.create(kind="rescore", params={"tournament": tournament.pk})
    mine = Job.objects.create(kind="rescore", params={}, created_by=admin_director)
    client.force_login(admin_director)
    page = client.get("/admin/ops/job/")
    assert page.status_code == 200
    assert list(page.context["cl"].queryset) == [mine]
