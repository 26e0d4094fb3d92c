"""The disputes API: who may see and do what, bad input, states, pinned queries."""

from __future__ import annotations

import pytest
from django.core import mail

from games import services as games
from games.models import GameState
from games.tournament import services as tournament_services
from ops.services import StateConflict
from referee import services
from referee.models import Dispute
from tests.factories import UserFactory, entered_player
from tests.games.api_helpers import assert_error
from tests.referee.test_kinds import open_, rule

LIST = "/api/v1/disputes/"


@pytest.fixture
def dispute(nz_game, alice):  # type: ignore[no-untyped-def]
    return services.dispute_open(actor=alice.user, game=nz_game, kind="other", claim="x")


def test_outsider_gets_404_for_an_open_dispute_and_does_not_see_it_listed(
    api_as, dispute, outsider
):
    assert_error(api_as(outsider).get(f"{LIST}{dispute.pk}/"), 404)
    assert api_as(outsider).get(LIST).json()["count"] == 0


def test_outsider_may_not_raise_a_dispute_on_someone_elses_game(api_as, nz_game, outsider):
    assert_error(open_(api_as(outsider), nz_game, kind="other", claim="x"), 403)


def test_anonymous_sees_only_closed_disputes(api, dispute, referee):
    assert api.get(LIST).json()["count"] == 0
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No")
    services.dispute_close(actor=referee, dispute=dispute)
    assert api.get(LIST).json()["count"] == 1
    assert api.get(f"{LIST}{dispute.pk}/").status_code == 200


@pytest.mark.parametrize("who", ["alice", "bob", "referee", "director", "chief", "member1"])
def test_parties_and_officials_see_the_open_dispute(api_as, dispute, who, request):
    user = (
        request.getfixturevalue(who) if who != "member1" else request.getfixturevalue("members")[0]
    )
    response = api_as(user).get(f"{LIST}{dispute.pk}/")
    assert (
        response.status_code == 200 and response.json()["evidence"]["game"]["state"] == "scheduled"
    )
    assert api_as(user).get(LIST).json()["count"] == 1


@pytest.mark.parametrize("who", ["alice", "bob", "director", "chief", "member1"])
def test_only_the_referee_rules_at_the_first_level_the_others_get_403(
    api_as, dispute, who, request
):
    user = (
        request.getfixturevalue(who) if who != "member1" else request.getfixturevalue("members")[0]
    )
    body = assert_error(rule(api_as(user), dispute.pk, decision="dismissed", reasons="x"), 403)
    if who in ("alice", "bob"):  # the parties are told why they cannot rule
        assert "You play in this game" in body["message"]
    else:
        assert "Only the tournament's referee" in body["message"]  # says who rules instead


def test_only_the_chief_rules_at_the_second_level(api_as, dispute, alice, referee, chief):
    rule(api_as(referee), dispute.pk, decision="dismissed", reasons="x")
    api_as(alice).post(f"{LIST}{dispute.pk}/appeal/")
    body = assert_error(
        rule(api_as(referee), dispute.pk, decision="upheld", reasons="x", result="B+F"), 403
    )
    assert "Only the tournament's chief referee" in body["message"]
    assert rule(api_as(chief), dispute.pk, decision="dismissed", reasons="x").status_code == 201


def test_officials_and_outsiders_may_not_appeal(api_as, dispute, referee, director, outsider):
    rule(api_as(referee), dispute.pk, decision="dismissed", reasons="x")
    assert_error(api_as(referee).post(f"{LIST}{dispute.pk}/appeal/"), 403)
    assert_error(api_as(director).post(f"{LIST}{dispute.pk}/appeal/"), 403)
    assert_error(api_as(outsider).post(f"{LIST}{dispute.pk}/appeal/"), 404)


def test_bad_input_comes_back_in_the_error_shape(api_as, nz_game, alice, referee, dispute):
    other = tournament_services.game_create(
        actor=None,
        tournament=nz_game.tournament,
        round_number=2,
        black=alice,
        white=entered_player(nz_game.tournament),
    )
    assert_error(open_(api_as(alice), other, kind="ko-fight"), 400, "kind")
    assert_error(open_(api_as(alice), other, kind="repetition"), 400, "sgf")
    assert_error(open_(api_as(alice), other, kind="other", move_number=0), 400, "move_number")
    assert_error(api_as(alice).post(f"/api/v1/games/{other.pk}/disputes/", [1], format="json"), 400)
    assert_error(rule(api_as(referee), dispute.pk, decision="maybe", reasons="x"), 400, "decision")
    assert_error(rule(api_as(referee), dispute.pk, decision="upheld", reasons=""), 400, "reasons")
    body = assert_error(
        rule(api_as(referee), dispute.pk, decision="upheld", reasons="x"), 400, "result"
    )
    assert "names the result" in body["extra"]["fields"]["result"]
    assert_error(
        rule(api_as(referee), dispute.pk, decision="upheld", reasons="x", result="B+X"),
        400,
        "result",
    )
    assert_error(api_as(alice).get(f"{LIST}?state=nonsense"), 400, "state")
    assert_error(api_as(alice).get(f"{LIST}999999/"), 404)
    assert_error(api_as(alice).post("/api/v1/games/999999/disputes/", {"kind": "other"}), 404)


def test_a_second_dispute_on_the_same_game_waits_for_the_first(api_as, dispute, nz_game, bob):
    assert_error(open_(api_as(bob), nz_game, kind="time", claim="x"), 409)


def test_a_dispute_is_refused_on_a_locked_game(api_as, nz_game, alice, bob):
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    games.game_result_confirm(actor=bob.user, game=nz_game)
    body = assert_error(open_(api_as(bob), nz_game, kind="result", claim="x"), 409)
    assert "can no longer be changed" in body["message"]
    assert not Dispute.objects.exists()


def test_a_disputed_game_cannot_be_confirmed_until_the_dispute_closes(
    api_as, nz_game, alice, bob, referee
):
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    pk = open_(api_as(bob), nz_game, kind="resignation", claim="I did not resign").json()["id"]
    assert_error(api_as(bob).post(f"/api/v1/games/{nz_game.pk}/confirm/"), 409)
    with pytest.raises(StateConflict):
        games.game_result_confirm(actor=bob.user, game=nz_game)
    rule(api_as(referee), pk, decision="dismissed", reasons="He resigned")
    assert_error(api_as(bob).post(f"/api/v1/games/{nz_game.pk}/confirm/"), 409)  # ruled, not closed
    api_as(referee).post(f"{LIST}{pk}/close/")
    claim = api_as(bob).get(f"/api/v1/games/{nz_game.pk}/").json()["claim"]
    response = api_as(bob).post(
        f"/api/v1/games/{nz_game.pk}/confirm/", {"claim": claim}, format="json"
    )
    assert response.status_code == 200 and response.json()["state"] == GameState.CONFIRMED


def test_the_dispute_list_costs_two_queries_however_long(
    api_as, nz, director, django_assert_num_queries
):
    nz.number_of_rounds = 7
    nz.save(update_fields=["number_of_rounds"])
    for number in range(1, 8):
        g = tournament_services.game_create(
            actor=None,
            tournament=nz,
            round_number=number,
            black=entered_player(nz),
            white=entered_player(nz),
        )
        services.dispute_open(actor=director, game=g, kind="other", claim=str(number))
    client = api_as(director)
    with django_assert_num_queries(2):
        response = client.get(LIST)
    assert response.json()["count"] == 7


def test_the_list_filters_by_game_tournament_and_state(api_as, dispute, nz_game, director):
    client = api_as(director)
    assert client.get(f"{LIST}?game={nz_game.pk}").json()["count"] == 1
    assert client.get(f"{LIST}?tournament={nz_game.tournament_id}&state=open").json()["count"] == 1
    assert client.get(f"{LIST}?state=closed").json()["count"] == 0


def test_closed_rulings_are_public_on_the_game(api, dispute, nz_game, referee):
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No case")
    assert api.get(f"/api/v1/games/{nz_game.pk}/").json()["disputes"] == []
    services.dispute_close(actor=referee, dispute=dispute)
    public = api.get(f"/api/v1/games/{nz_game.pk}/").json()["disputes"]
    assert (
        public[0]["rulings"][0]["reasons"] == "No case" and "effect" not in public[0]["rulings"][0]
    )


def test_emails_go_to_both_players_and_the_referee_on_commit(
    api_as, nz_game, alice, bob, referee, chief, django_capture_on_commit_callbacks
):
    referee.email, chief.email = "rex@example.org", "chen@example.org"
    referee.save()
    chief.save()
    with django_capture_on_commit_callbacks(execute=True):
        pk = open_(api_as(alice), nz_game, kind="other", claim="x").json()["id"]
    assert sorted(m.to[0] for m in mail.outbox) == [
        "alice@example.org",
        "bob@example.org",
        "rex@example.org",
    ]
    assert "A dispute was raised" in mail.outbox[0].subject
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rule(api_as(referee), pk, decision="dismissed", reasons="Nothing to see")
    assert len(mail.outbox) == 3 and "Nothing to see" in mail.outbox[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        api_as(bob).post(f"{LIST}{pk}/appeal/")
    assert "chen@example.org" in {m.to[0] for m in mail.outbox}
    assert "appealed" in mail.outbox[0].subject


def test_nothing_is_mailed_when_the_opening_fails(
    api_as, nz_game, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        open_(api_as(alice), nz_game, kind="repetition")
    assert mail.outbox == []


def test_a_user_without_a_player_is_not_a_party(api_as, dispute):
    assert_error(api_as(UserFactory()).post(f"{LIST}{dispute.pk}/appeal/"), 404)
