"""Re-scoring from the outside: the API, the job page, the admin action, the command."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games import tasks
from games.models import GameState, ScoringRun
from ops.models import Job
from tests.factories import GameFactory, TournamentFactory, UserFactory
from tests.games.api_helpers import assert_error
from tests.games.rescore_helpers import FINISHED, MARKED, Broker, count


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    b = Broker()
    b.patch(monkeypatch)
    return b


def _games(tournament: Any, n: int) -> list[Any]:
    return [
        GameFactory(
            tournament=tournament,
            sgf=FINISHED,
            table=i + 1,
            result_winner="W",
            result_reason="score",
            result_margin=6.5,
            state=GameState.SUBMITTED,
        )
        for i in range(n)
    ]


def rescore_url(tournament: Any) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/rescore/"


def test_a_director_rescores_his_tournament_and_gets_the_job(
    api_as, tournament, director, broker, django_capture_on_commit_callbacks
):
    _games(tournament, 3)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as(director).post(rescore_url(tournament))
    assert response.status_code == 202, response.content
    body = response.json()
    job = Job.objects.get()
    assert {k: body[k] for k in ("id", "state", "done", "total", "failed")} == {
        "id": job.pk,
        "state": "running",
        "done": 0,
        "total": 3,
        "failed": 0,
    }
    assert body["url"] == f"http://testserver/api/v1/jobs/{job.pk}/"
    broker.deliver()
    progress = api_as(director).get(f"/api/v1/jobs/{job.pk}/").json()
    assert (progress["state"], progress["done"], progress["total"]) == ("done", 3, 3)


def test_an_outsider_may_not_rescore(api_as, tournament, outsider):
    assert_error(api_as(outsider).post(rescore_url(tournament)), 403)
    assert not Job.objects.exists()


def test_rescoring_needs_a_login(api, tournament):
    assert_error(api.post(rescore_url(tournament)), 401)


def test_an_unknown_tournament_is_404(api_as, director, db):
    assert_error(api_as(director).post("/api/v1/tournaments/99999/rescore/"), 404)


def test_a_job_is_seen_by_its_creator_staff_and_the_tournaments_directors(
    api_as, tournament, director, outsider, superuser, broker
):
    other_director = UserFactory(username="codirector")
    tournament.directors.add(other_director)
    elsewhere = UserFactory(username="elsewhere")
    TournamentFactory().directors.add(elsewhere)
    job = api_as(director).post(rescore_url(tournament)).json()
    url = f"/api/v1/jobs/{job['id']}/"
    for user in (director, other_director, superuser):
        assert api_as(user).get(url).status_code == 200
    for user in (outsider, elsewhere):
        assert_error(api_as(user).get(url), 404)


def test_an_anonymous_visitor_and_an_unknown_job_get_404(api, api_as, director, db):
    job = Job.objects.create(kind="rescore", created_by=director)
    assert_error(api.get(f"/api/v1/jobs/{job.pk}/"), 404)
    assert_error(api_as(director).get("/api/v1/jobs/99999/"), 404)


def test_the_game_shows_its_latest_verification(api, game, alice, broker):
    from games import services

    services.game_result_submit(actor=alice.user, game=game, result="B+6.5", sgf=FINISHED)
    assert api.get(f"/api/v1/games/{game.pk}/").json()["verification"]["state"] == "pending"
    tasks.rescore_game(ScoringRun.objects.get().pk)
    body = api.get(f"/api/v1/games/{game.pk}/").json()["verification"]
    # No dead stones given or marked: the estimate's count is not the claim, so the
    # players are asked to mark the dead stones (no verification, no dispute yet).
    assert (body["state"], body["computed_result"], body["matches"]) == (
        "done",
        count(FINISHED),
        None,
    )
    assert (body["dead_source"], body["step"], body["dead_stones"]) == ("estimated", "removal", [])
    assert body["first_illegal"] is None and body["breakdown"]["rules"] == "japanese"
    assert body["queued"] is True and "marking of the dead stones" in body["message"]


def test_the_verification_says_the_markup_decided(api, game, alice, broker):
    from games import services

    services.game_result_submit(actor=alice.user, game=game, result="B+6.5", sgf=MARKED)
    tasks.rescore_game(ScoringRun.objects.get().pk)
    body = api.get(f"/api/v1/games/{game.pk}/").json()["verification"]
    assert (body["matches"], body["dead_source"], body["step"]) == (False, "markup", "mismatch")
    assert body["message"] is None


def test_a_game_without_a_record_has_no_verification(api, game):
    assert api.get(f"/api/v1/games/{game.pk}/").json()["verification"] is None


# --------------------------------------------------------------------------- admin, command


def test_the_admin_action_queues_a_job_and_links_it(
    client, tournament, director, broker, django_capture_on_commit_callbacks
):
    director.is_staff = True
    director.save()
    from django.contrib.auth.models import Permission

    director.user_permissions.add(*Permission.objects.filter(codename__endswith="_tournament"))
    client.force_login(director)
    _games(tournament, 2)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/games/tournament/",
            {"action": "rescore", "_selected_action": [tournament.pk]},
            follow=True,
        )
    assert response.status_code == 200
    job = Job.objects.get()
    assert f"re-scoring job #{job.pk}</a> queued (2 games, 0 already scored)" in (
        response.content.decode()
    )
    assert len(broker.run_ids()) == 2


def test_the_job_admin_shows_a_progress_bar(client, superuser):
    job = Job.objects.create(kind="rescore", total=4, done=1, failed=1, created_by=superuser)
    client.force_login(superuser)
    html = client.get("/admin/ops/job/").content.decode()
    assert '<progress max="100" value="50">50%</progress> 2/4' in html
    assert client.get(f"/admin/ops/job/{job.pk}/change/").status_code == 200


def test_the_command_rescores_and_waits_for_the_job(transactional_db, broker):
    tournament = TournamentFactory()  # committed: the publish runs on commit, at once
    _games(tournament, 3)
    broker.execute = True  # a worker that answers at once
    out = StringIO()
    call_command(
        "rescore",
        "--tournament",
        str(tournament.pk),
        "--wait",
        "--interval",
        "0",
        "--chunk-size",
        "2",
        "--timeout",
        "10",
        stdout=out,
    )
    text = out.getvalue()
    job = Job.objects.get()
    assert text.startswith(f"job {job.pk}: ")  # the job as queued (here answered at once)
    assert f"job {job.pk} done: done, 3/3 done, 0 failed" in text


def test_the_command_refuses_an_unknown_tournament(db):
    with pytest.raises(CommandError, match="no tournament 404"):
        call_command("rescore", "--tournament", "404")
    with pytest.raises(CommandError, match="--tournament ID or --rules"):
        call_command("rescore")
