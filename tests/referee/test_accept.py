"""A party accepts a ruling (``dispute_accept``, ``POST /api/v1/disputes/{id}/accept/``, the
desk's button): the dispute closes when both have, or when one has and no appeal is left."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game, GameState, SubmissionKind
from games.services.common import ACCEPTED_FINAL_MESSAGE
from ops.models import AuditAction, AuditEntry
from referee import services
from referee.models import DisputeState, RulingAcceptance
from tests.factories import TournamentFactory, enter
from tests.games.api_helpers import assert_error


def accept(api, dispute):  # type: ignore[no-untyped-def]
    return api.post(f"/api/v1/disputes/{dispute.pk}/accept/")


@pytest.fixture
def dispute(nz_game, alice):  # type: ignore[no-untyped-def]
    return services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")


@pytest.fixture
def ruled(dispute, referee):  # type: ignore[no-untyped-def]
    """The referee upholds alice's claim: Black wins on time."""
    return services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Flag fell", result="B+T"
    )


@pytest.fixture
def as_(client):  # type: ignore[no-untyped-def]
    def login(user):  # type: ignore[no-untyped-def]
        client.force_login(getattr(user, "user", user))
        return client

    return login


def actions(dispute):  # type: ignore[no-untyped-def]
    return list(
        AuditEntry.objects.filter(object_type="referee.dispute", object_id=str(dispute.pk))
        .order_by("id")
        .values_list("action", flat=True)
    )


# --------------------------------------------------------------------------- the rule


def test_both_parties_accepting_closes_the_dispute_with_the_ruled_result(
    api_as, ruled, alice, bob, nz_game
):
    response = accept(api_as(alice), ruled)
    assert response.status_code == 200 and response.json()["state"] == "ruled"
    assert response.json()["rulings"][0]["acceptances"][0]["player"] == alice.pk
    response = accept(api_as(bob), ruled)
    assert response.status_code == 200 and response.json()["state"] == "closed"
    assert [a["player"] for a in response.json()["rulings"][0]["acceptances"]] == [alice.pk, bob.pk]
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.FINAL and nz_game.result_display == "B+T"
    assert actions(ruled)[-3:] == ["dispute.accepted", "dispute.accepted", "dispute.closed"]
    closed = AuditEntry.objects.filter(action="dispute.closed").get()
    assert closed.actor == bob.user
    assert closed.new_value["why"] == "both parties accepted the ruling"
    first = AuditEntry.objects.filter(action="dispute.accepted").order_by("id").first()
    assert first is not None and first.actor == alice.user
    assert first.new_value["player"] == alice.pk and first.new_value["level"] == 1


def test_a_ruling_both_parties_accepted_finalises_the_game_for_good(
    api_as, ruled, alice, bob, director, nz_game
):
    accept(api_as(alice), ruled)
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.DISPUTED  # one acceptance: the other may appeal
    accept(api_as(bob), ruled)
    game = Game.objects.get(pk=nz_game.pk)
    assert game.state == GameState.FINAL and game.is_locked and game.locked_at is not None
    assert game.result_submitted_by is None  # the ruling's result, not a player's claim
    final = game.submissions.get(kind=SubmissionKind.FINALISE)
    assert (final.result, final.comment) == ("B+T", ACCEPTED_FINAL_MESSAGE)
    settled = AuditEntry.objects.get(action=AuditAction.GAME_DISPUTE_SETTLED)
    assert settled.actor == bob.user
    assert settled.old_value == {"state": "disputed"}
    assert settled.new_value["state"] == "final" and settled.new_value["result"] == "B+T"
    assert settled.new_value["final"] == ACCEPTED_FINAL_MESSAGE
    # Locked: no new claim, no correction, no new dispute, and the refusal says why.
    body = assert_error(
        api_as(alice).post(f"/api/v1/games/{game.pk}/result/", {"result": "W+R"}, format="json"),
        409,
    )
    assert body["message"] == ACCEPTED_FINAL_MESSAGE
    body = assert_error(
        api_as(director).post(f"/api/v1/games/{game.pk}/result/", {"result": "W+R"}, format="json"),
        409,
    )
    assert body["message"] == ACCEPTED_FINAL_MESSAGE
    body = assert_error(
        api_as(bob).post(
            f"/api/v1/games/{game.pk}/disputes/", {"kind": "time", "claim": "x"}, format="json"
        ),
        409,
    )
    assert Game.objects.get(pk=game.pk).result_display == "B+T"


def test_a_ruling_both_accepted_on_the_desk_leaves_the_game_final(as_, ruled, alice, bob):
    for party in (alice, bob):
        response = as_(party).post(reverse("referee:dispute-accept", args=[ruled.pk]))
        assert response.status_code == 302
    game = Game.objects.get(pk=ruled.game_id)
    assert game.state == GameState.FINAL
    page = as_(alice).get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="raise-dispute"' not in page


def test_ratings_hear_of_a_result_locked_by_the_acceptances(api_as, ruled, alice, bob, monkeypatch):
    from games.services import outbound

    heard: list[int] = []
    monkeypatch.setattr(outbound, "result_locked", lambda game: heard.append(game.pk))
    accept(api_as(alice), ruled)
    assert heard == []
    accept(api_as(bob), ruled)
    assert heard == [ruled.game_id]


def test_one_acceptance_with_no_appeal_left_leaves_the_result_to_a_director(
    api_as, director, referee, alice, bob
):
    """Only the other player has not agreed: the result waits for a director, as an
    official's close leaves it."""
    from games.tournament.services import game_create

    plain = TournamentFactory(name="No Chief Open", rules="nz", board_size=9)
    plain.directors.add(director)
    plain.referees.add(referee)
    enter(plain, alice, bob)
    game = game_create(actor=None, tournament=plain, round_number=1, black=alice, white=bob)
    dispute = services.dispute_open(actor=bob.user, game=game, kind="time", claim="flag")
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Flag", result="W+T"
    )
    accept(api_as(alice), dispute)
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED and game.result_display == "W+T"


def test_one_acceptance_leaves_the_other_party_his_appeal(api_as, ruled, alice, bob, chief):
    accept(api_as(alice), ruled)
    response = api_as(bob).post(f"/api/v1/disputes/{ruled.pk}/appeal/")
    assert response.status_code == 200 and response.json()["level"] == 2
    # the chief's ruling is a new one: nobody has accepted it yet
    ruled.refresh_from_db()
    services.dispute_rule(actor=chief, dispute=ruled, decision="dismissed", reasons="No")
    response = accept(api_as(alice), ruled)
    assert response.status_code == 200 and response.json()["state"] == "ruled"
    response = accept(api_as(bob), ruled)
    assert response.json()["state"] == "closed"
    assert RulingAcceptance.objects.filter(ruling__level=1).count() == 1
    assert RulingAcceptance.objects.filter(ruling__level=2).count() == 2


def test_who_accepted_may_not_appeal_that_ruling(api_as, ruled, alice):
    accept(api_as(alice), ruled)
    body = assert_error(api_as(alice).post(f"/api/v1/disputes/{ruled.pk}/appeal/"), 409)
    assert "accepted" in body["message"]
    ruled.refresh_from_db()
    assert ruled.state == DisputeState.RULED and ruled.level == 1


def test_with_no_chief_referee_one_acceptance_closes_it(api_as, director, referee, alice, bob):
    from games.tournament.services import game_create

    plain = TournamentFactory(name="No Chief Cup", rules="nz", board_size=9)
    plain.directors.add(director)
    plain.referees.add(referee)
    enter(plain, alice, bob)
    game = game_create(actor=None, tournament=plain, round_number=1, black=alice, white=bob)
    dispute = services.dispute_open(actor=bob.user, game=game, kind="time", claim="flag")
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No")
    response = accept(api_as(alice), dispute)
    assert response.status_code == 200 and response.json()["state"] == "closed"
    closed = AuditEntry.objects.get(action="dispute.closed")
    assert closed.new_value["why"] == "a party accepted the ruling; no appeal is left"


def test_with_no_committee_one_acceptance_of_the_chiefs_ruling_closes_it(
    api_as, nz, ruled, director, chief, alice, bob
):
    services.tournament_officials_set(
        actor=director, tournament=nz, chief_referee=chief, committee=[]
    )
    api_as(bob).post(f"/api/v1/disputes/{ruled.pk}/appeal/")
    ruled.refresh_from_db()
    services.dispute_rule(actor=chief, dispute=ruled, decision="dismissed", reasons="No")
    response = accept(api_as(bob), ruled)
    assert response.json()["state"] == "closed"


def test_the_service_says_whether_an_appeal_is_left(ruled, nz, director, chief):
    assert services.appeal_possible(ruled)
    services.tournament_officials_set(
        actor=director, tournament=nz, chief_referee=None, committee=[]
    )
    ruled.game.tournament.refresh_from_db()
    from referee.models import Dispute

    assert not services.appeal_possible(Dispute.objects.get(pk=ruled.pk))


# --------------------------------------------------------------------------- states


def test_nothing_to_accept_before_a_ruling_409(api_as, dispute, alice):
    body = assert_error(accept(api_as(alice), dispute), 409)
    assert "no ruling" in body["message"]


def test_accepting_twice_is_409(api_as, ruled, alice):
    accept(api_as(alice), ruled)
    body = assert_error(accept(api_as(alice), ruled), 409)
    assert "already" in body["message"]
    assert RulingAcceptance.objects.count() == 1


def test_an_appealed_ruling_is_not_accepted_409(api_as, ruled, alice, bob):
    api_as(bob).post(f"/api/v1/disputes/{ruled.pk}/appeal/")
    assert_error(accept(api_as(alice), ruled), 409)


def test_a_closed_dispute_is_not_accepted_409(api_as, ruled, alice, referee):
    services.dispute_close(actor=referee, dispute=ruled)
    assert_error(accept(api_as(alice), ruled), 409)


# --------------------------------------------------------------------------- who


@pytest.mark.parametrize("who", ["referee", "director", "chief", "member1"])
def test_officials_may_not_accept_for_the_parties_403(api_as, ruled, who, request):
    user = (
        request.getfixturevalue("members")[0] if who == "member1" else request.getfixturevalue(who)
    )
    assert_error(accept(api_as(user), ruled), 403)
    assert not RulingAcceptance.objects.exists()


def test_an_outsider_gets_404_and_anonymous_401(api, api_as, ruled, outsider):
    assert_error(accept(api, ruled), 401)
    assert_error(accept(api_as(outsider), ruled), 404)


def test_the_other_party_hears_of_an_acceptance(
    api_as, ruled, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        accept(api_as(alice), ruled)
    assert sorted(m.to[0] for m in mail.outbox) == [
        "alice@example.org",
        "bob@example.org",
        "referee@example.org",
    ]
    assert "A ruling was accepted" in mail.outbox[0].subject


def test_the_detail_with_its_acceptances_costs_four_queries(
    api, api_as, ruled, alice, bob, django_assert_num_queries
):
    accept(api_as(alice), ruled)
    accept(api_as(bob), ruled)  # closed: public
    api.force_authenticate(user=None)
    with django_assert_num_queries(4):  # dispute, rulings, their acceptances, votes
        response = api.get(f"/api/v1/disputes/{ruled.pk}/")
    assert len(response.json()["rulings"][0]["acceptances"]) == 2


# --------------------------------------------------------------------------- the desk


def test_the_parties_get_an_accept_button_the_officials_do_not(as_, ruled, alice, referee):
    url = reverse("referee:dispute", args=[ruled.pk])
    assert 'name="accept"' in as_(alice).get(url).content.decode()
    assert 'name="accept"' not in as_(referee).get(url).content.decode()


def test_accepting_on_the_desk_closes_the_dispute_when_both_have(as_, ruled, alice, bob):
    page = reverse("referee:dispute", args=[ruled.pk])
    response = as_(alice).post(reverse("referee:dispute-accept", args=[ruled.pk]))
    assert response.status_code == 302
    body = as_(alice).get(page).content.decode()
    assert 'name="accept"' not in body and "accepted by Liddell Alice" in body
    body = as_(bob).get(page).content.decode()
    assert 'name="accept"' in body
    as_(bob).post(reverse("referee:dispute-accept", args=[ruled.pk]))
    ruled.refresh_from_db()
    assert ruled.state == DisputeState.CLOSED


def test_the_desk_refuses_an_official_403_and_an_outsider_404(as_, ruled, referee, outsider):
    url = reverse("referee:dispute-accept", args=[ruled.pk])
    assert as_(referee).post(url).status_code == 403
    assert as_(outsider).post(url).status_code == 404
    assert not RulingAcceptance.objects.exists()
