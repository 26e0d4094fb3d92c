"""Results through the API: submit, confirm, contest, enter, finalise, submissions."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, GameState, ResultSubmission
from games.tournament import services as tournament_services
from ops.models import AuditEntry
from tests.games import sgf_samples
from tests.games.api_helpers import assert_error


def url(game, what=""):  # type: ignore[no-untyped-def]
    return f"/api/v1/games/{game.pk}/{what + '/' if what else ''}"


def test_alice_submits_and_bob_confirms(api_as, game, alice, bob):
    response = api_as(alice).post(
        url(game, "result"),
        {"result": "B+12.5", "sgf": sgf_samples.SIMPLE, "dead_stones": ["D4", "D3"]},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["state"], body["result"], body["winner"], body["margin"], body["reason"]) == (
        "submitted",
        "B+12.5",
        "B",
        "12.5",
        "score",
    )
    assert body["sgf"] == sgf_samples.SIMPLE and body["dead_stones"] == ["D4", "D3"]
    assert any("RE[B+R]" in w for w in body["sgf_warnings"])
    response = api_as(bob).post(url(game, "confirm"), {"claim": body["claim"]}, format="json")
    assert response.status_code == 200
    assert response.json()["state"] == "confirmed" and response.json()["locked_at"]


def test_bob_contests_with_a_reason(api_as, game, alice, bob):
    api_as(alice).post(url(game, "result"), {"result": "B+R"}, format="json")
    claim = api_as(bob).get(url(game)).json()["claim"]
    response = api_as(bob).post(
        url(game, "contest"), {"reason": "I never resigned", "claim": claim}, format="json"
    )
    assert response.status_code == 200 and response.json()["state"] == "disputed"


def test_an_illegal_move_is_reported_in_the_warnings(api_as, game, alice):
    response = api_as(alice).post(
        url(game, "result"), {"result": "B+R", "sgf": sgf_samples.ILLEGAL}, format="json"
    )
    assert response.json()["sgf_warnings"] == ["move 2, White Q16: occupied"]


def test_a_broken_sgf_names_line_and_property_and_saves_nothing(api_as, game, alice):
    before = (
        Game.objects.filter(state=GameState.SCHEDULED).count(),
        ResultSubmission.objects.count(),
    )
    response = api_as(alice).post(
        url(game, "result"), {"result": "B+R", "sgf": sgf_samples.BROKEN}, format="json"
    )
    body = assert_error(response, 400, "sgf")
    assert "line 3" in body["extra"]["fields"]["sgf"]
    assert "property W" in body["extra"]["fields"]["sgf"]
    assert (
        Game.objects.filter(state=GameState.SCHEDULED).count(),
        ResultSubmission.objects.count(),
    ) == before


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "result"),
        ({"result": "Black won"}, "result"),
        ({"result": "?"}, "result"),
        ({"result": 5}, "result"),
        ({"result": "B+R", "dead_stones": "D4"}, "dead_stones"),
        ({"result": "B+R", "dead_stones": ["Z99"]}, "dead_stones"),
        ({"result": "B+R", "dead_stones": [{"x": 1}]}, "dead_stones"),
        ({"result": "B+R", "sgf": ["(;)"]}, "sgf"),
        ({"result": "B+R", "sgf": sgf_samples.NINE}, "sgf"),
        ({"result": "B+R", "sgf": sgf_samples.SIMPLE, "dead_stones": ["K10"]}, "dead_stones"),
    ],
)
def test_bad_result_input_is_a_400_naming_the_field(api_as, game, alice, data, field):
    assert_error(api_as(alice).post(url(game, "result"), data, format="json"), 400, field)
    assert ResultSubmission.objects.count() == 0


def test_submitting_needs_login(api, game):
    assert_error(api.post(url(game, "result"), {"result": "B+R"}, format="json"), 401)


def test_outsider_may_see_the_game_but_not_record_its_result(api_as, outsider, game):
    client = api_as(outsider)
    assert client.get(url(game)).status_code == 200
    assert_error(client.post(url(game, "result"), {"result": "B+R"}, format="json"), 403)
    assert_error(client.post(url(game, "confirm")), 403)
    assert_error(client.post(url(game, "contest")), 403)
    assert_error(client.post(url(game, "finalise")), 403)


def test_someone_elses_game_is_not_yours(api_as, director, tournament, alice, game):
    from tests.factories import entered_player

    theirs = tournament_services.game_create(
        actor=None,
        tournament=tournament,
        round_number=2,
        black=entered_player(tournament),
        white=entered_player(tournament),
    )
    assert_error(api_as(alice).post(url(theirs, "result"), {"result": "B+R"}, format="json"), 403)


def test_results_for_unknown_games_are_404(api_as, alice, db):
    assert_error(
        api_as(alice).post("/api/v1/games/999999/result/", {"result": "B+R"}, format="json"), 404
    )


def test_the_submitter_cannot_confirm_himself(api_as, game, alice):
    api_as(alice).post(url(game, "result"), {"result": "B+R"}, format="json")
    assert_error(api_as(alice).post(url(game, "confirm")), 409)


def test_a_director_enters_a_result_through_the_same_endpoint(api_as, game, director):
    response = api_as(director).post(
        url(game, "result"), {"result": "W+T", "comment": "flag"}, format="json"
    )
    assert response.status_code == 200 and response.json()["result"] == "W+T"
    assert AuditEntry.objects.filter(action="game.result_entered", actor=director).exists()
    response = api_as(director).post(url(game, "finalise"))
    assert response.status_code == 200 and response.json()["state"] == "final"


def test_the_referee_cannot_finalise(api_as, game, referee, director):
    services.game_result_enter(actor=director, game=game, result="B+R")
    assert_error(api_as(referee).post(url(game, "finalise")), 403)


def test_finalising_without_a_result_is_a_conflict(api_as, game, director):
    assert_error(api_as(director).post(url(game, "finalise")), 409)


@pytest.fixture
def final_game(game, director):  # type: ignore[no-untyped-def]
    services.game_result_enter(actor=director, game=game, result="B+R")
    return services.game_finalise(actor=director, game=game)


def test_a_final_game_refuses_every_change_with_409(api_as, final_game, alice, bob, director):
    attempts = [
        (alice, "result", {"result": "W+R"}),
        (bob, "result", {"result": "W+R"}),
        (bob, "confirm", None),
        (bob, "contest", None),
        (director, "result", {"result": "W+R"}),
        (director, "finalise", None),
    ]
    for who, what, data in attempts:
        body = assert_error(api_as(who).post(url(final_game, what), data, format="json"), 409)
        assert body["message"] == services.LOCKED_MESSAGE, (who, what)
    body = assert_error(
        api_as(director).patch(url(final_game), {"komi": "0.5"}, format="json"), 409
    )
    final_game.refresh_from_db()
    assert final_game.result_display == "B+R" and final_game.komi == 6.5


def test_players_and_officials_see_the_submissions(api_as, game, alice, bob, director, referee):
    claim = (
        api_as(alice).post(url(game, "result"), {"result": "B+R"}, format="json").json()["claim"]
    )
    api_as(bob).post(url(game, "contest"), {"reason": "no", "claim": claim}, format="json")
    for who in (alice, bob, director, referee):
        response = api_as(who).get(url(game, "submissions"))
        assert response.status_code == 200
        assert [s["kind"] for s in response.json()] == ["submit", "contest"]


def test_outsider_gets_404_for_the_submissions(api_as, api, outsider, game):
    assert_error(api_as(outsider).get(url(game, "submissions")), 404)
    api.force_authenticate(user=None)
    assert_error(api.get(url(game, "submissions")), 404)


# --------------------------------------------------------------------------- never a 500


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"{not json", "application/json", 400),
        (b"[1, 2, 3]", "application/json", 400),
        (b'"B+R"', "application/json", 400),
        (b"null", "application/json", 400),
        (b"\xff\xfe\x00garbage", "application/json", 400),
        (b"result=B%2BR", "text/plain", 415),
        (b"<result>B+R</result>", "application/xml", 415),
    ],
)
def test_garbage_bodies_are_client_errors_never_500(
    api_as, alice, game, body, content_type, status
):
    client = api_as(alice)
    for path in (url(game, "result"), url(game, "contest"), "/api/v1/players/", "/api/v1/games/"):
        response = client.generic("POST", path, body, content_type=content_type)
        assert response.status_code in (status, 403), (path, response.status_code)
        assert_error(response, response.status_code)
    assert_error(
        api_as(alice).generic("POST", "/api/v1/auth/token/", b"{", content_type="application/json"),
        400,
    )


@pytest.mark.django_db(transaction=True)  # real commits: the on-commit publish is counted too
def test_a_submission_with_a_record_costs_at_most_12_queries_in_all(
    game, alice, monkeypatch, django_assert_max_num_queries
):
    from rest_framework.test import APIClient

    from games import tasks
    from games.models import ScoringRun
    from tests.factories import PASSWORD
    from tests.games.rescore_helpers import FINISHED, count

    sent: list[object] = []
    monkeypatch.setattr(tasks.rescore_game, "apply_async", lambda args, **kw: sent.append(args))
    client = APIClient()
    login = {"username": alice.user.username, "password": PASSWORD}
    token = client.post("/api/v1/auth/token/", login, format="json").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    # token and user, game, player; the locked game, its update, the submission,
    # the run (read, insert); the answer's disputes and run; BEGIN and COMMIT on SQLite.
    # The token comes with its user in one query (ops.auth), and the claim the answer
    # names is the submission just written.
    with django_assert_max_num_queries(12):
        response = client.post(
            url(game, "result"), {"result": count(FINISHED), "sgf": FINISHED}, format="json"
        )
    assert response.status_code == 200, response.content
    run = ScoringRun.objects.get(game=game)
    assert sent == [(run.pk,)] and run.queued_at is not None
    assert response.json()["verification"]["queued"] is True


def test_the_api_confirm_names_the_claim_and_a_stale_one_is_a_409(api_as, game, alice, bob):
    seen = api_as(alice).post(url(game, "result"), {"result": "W+R"}, format="json").json()["claim"]
    assert_error(api_as(bob).post(url(game, "confirm"), {}, format="json"), 400, "claim")
    api_as(alice).post(url(game, "result"), {"result": "B+R"}, format="json")
    body = assert_error(api_as(bob).post(url(game, "confirm"), {"claim": seen}, format="json"), 409)
    assert body["message"] == "The claim changed: look again."
    assert api_as(bob).get(url(game)).json()["state"] == "submitted"
    fresh = api_as(bob).get(url(game)).json()["claim"]
    done = api_as(bob).post(url(game, "confirm"), {"claim": fresh}, format="json")
    assert done.status_code == 200 and done.json()["result"] == "B+R"
