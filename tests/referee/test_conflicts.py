"""Conflicts of interest: nobody is an official of his own game (403 with the reason),
a director's assignment is not taken over by another referee, and the committee's seats
are frozen while it hears an appeal (a removed member's vote never counts)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from games import services as games
from games.models import GameState
from ops.services import StateConflict
from referee import services
from referee.models import CommitteeVote, DisputeState
from tests.factories import UserFactory
from tests.games.api_helpers import assert_error
from tests.referee.test_kinds import close, open_, rule


@pytest.fixture
def playing_referee(nz: Any, bob: Any) -> Any:
    """The tournament's referee who also plays: bob's account refereeing."""
    nz.referees.add(bob.user)
    return bob.user


@pytest.fixture
def playing_director(nz: Any, bob: Any) -> Any:
    nz.directors.add(bob.user)
    return bob.user


def test_a_director_who_plays_cannot_enter_or_finalise_his_own_result(
    nz_game: Any, playing_director: Any, api_as: Any
) -> None:
    response = api_as(playing_director).post(
        f"/api/v1/games/{nz_game.pk}/result/", {"result": "W+R"}, format="json"
    )
    # As a player he may submit (his opponent then confirms); never enter it as director.
    assert response.status_code == 200
    with pytest.raises(PermissionDenied, match="You play in this game"):
        games.game_result_enter(actor=playing_director, game=nz_game, result="W+R")
    with pytest.raises(PermissionDenied, match="You play in this game"):
        games.game_finalise(actor=playing_director, game=nz_game)
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.SUBMITTED and nz_game.locked_at is None


def test_the_director_pages_refuse_him_with_the_reason(nz_game: Any, playing_director: Any) -> None:
    c = Client()
    c.force_login(playing_director)
    page = c.get(f"/games/{nz_game.pk}/enter/")
    assert page.status_code == 403 and b"You play in this game" in page.content
    games.game_result_submit(actor=playing_director, game=nz_game, result="W+R")
    page = c.post(f"/games/{nz_game.pk}/finalise/")
    assert page.status_code == 403 and b"You play in this game" in page.content


def test_his_own_game_on_a_result_sheet_is_refused(nz_game: Any, playing_director: Any) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="You play in this game"):
        games.round_results_enter(
            actor=playing_director, round=nz_game.round, results=[(nz_game.pk, "W+R")]
        )


def test_a_referee_who_plays_is_neither_assigned_nor_rules_nor_closes(
    nz_game: Any, playing_referee: Any, referee: Any, api_as: Any
) -> None:
    games.game_result_submit(actor=nz_game.black.user, game=nz_game, result="B+R")
    opened = open_(api_as(playing_referee), nz_game, kind="time", claim="Black's flag fell")
    assert opened.status_code == 201
    body = opened.json()
    assert body["assigned_referee"] is None and body["state"] == "open"  # not auto-assigned
    response = rule(
        api_as(playing_referee), body["id"], decision="upheld", reasons="x", result="W+T"
    )
    assert_error(response, 403)
    assert "You play in this game" in response.json()["message"]
    # The other referee rules; the playing one cannot close it either.
    assert rule(api_as(referee), body["id"], decision="dismissed", reasons="No").status_code == 201
    assert_error(close(api_as(playing_referee), body["id"]), 403)


def test_a_playing_referee_cannot_take_the_dispute_nor_be_assigned(
    nz_game: Any, playing_referee: Any, director: Any, alice: Any
) -> None:
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    with pytest.raises(PermissionDenied):
        services.dispute_assign(actor=playing_referee, dispute=dispute, referee=playing_referee)
    with pytest.raises(Exception, match="plays in this game"):
        services.dispute_assign(actor=director, dispute=dispute, referee=playing_referee)


def test_a_referee_cannot_take_a_dispute_a_director_assigned_to_another(
    nz: Any, nz_game: Any, director: Any, referee: Any, alice: Any, api_as: Any
) -> None:
    other = UserFactory(username="ref2")
    nz.referees.add(other)
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    services.dispute_assign(actor=director, dispute=dispute, referee=referee)
    with pytest.raises(PermissionDenied, match="assigned this dispute to another referee"):
        services.dispute_assign(actor=other, dispute=dispute, referee=other)
    response = rule(api_as(other), dispute.pk, decision="upheld", reasons="x", result="W+T")
    assert_error(response, 403)
    dispute.refresh_from_db()
    assert dispute.assigned_referee == referee
    # A director may still reassign.
    services.dispute_assign(actor=director, dispute=dispute, referee=other)


def _to_committee(api_as: Any, nz_game: Any, alice: Any, referee: Any, chief: Any) -> int:
    pk = open_(api_as(alice), nz_game, kind="conduct", claim="Phone rang").json()["id"]
    rule(api_as(referee), pk, decision="dismissed", reasons="No")
    api_as(alice).post(f"/api/v1/disputes/{pk}/appeal/", {"reason": "w"}, format="json")
    rule(api_as(chief), pk, decision="dismissed", reasons="No")
    api_as(alice).post(f"/api/v1/disputes/{pk}/appeal/", {"reason": "w"}, format="json")
    return int(pk)


def test_the_committee_cannot_be_replaced_while_it_hears_an_appeal(
    api_as: Any,
    nz: Any,
    nz_game: Any,
    alice: Any,
    referee: Any,
    chief: Any,
    members: Any,
    director: Any,
) -> None:
    pk = _to_committee(api_as, nz_game, alice, referee, chief)
    assert (
        rule(api_as(members[0]), pk, decision="upheld", reasons="Yes", result="B+F").status_code
        == 202
    )
    with pytest.raises(StateConflict, match="hearing an appeal"):
        services.tournament_officials_set(
            actor=director, tournament=nz, chief_referee=chief, committee=[director, *members[1:]]
        )
    response = api_as(members[1]).post(
        f"/api/v1/disputes/{pk}/rulings/",
        {"decision": "upheld", "reasons": "Yes", "result": "B+F"},
        format="json",
    )
    assert response.status_code == 201  # the seated committee decides


def test_a_removed_members_vote_never_counts(
    api_as: Any,
    nz: Any,
    nz_game: Any,
    alice: Any,
    referee: Any,
    chief: Any,
    members: Any,
    director: Any,
) -> None:
    pk = _to_committee(api_as, nz_game, alice, referee, chief)
    rule(api_as(members[0]), pk, decision="upheld", reasons="Yes", result="B+F")
    # A vote left over from a member who is no longer seated (changed by the operator).
    replacement = UserFactory(username="member4")
    officials = nz.officials
    officials.committee_1 = replacement
    officials.save()
    response = rule(api_as(members[1]), pk, decision="upheld", reasons="Yes", result="B+F")
    assert response.status_code == 202  # one seated vote only: no majority yet
    assert CommitteeVote.objects.count() == 2
    assert response.json()["state"] == DisputeState.APPEALED
    final = rule(api_as(replacement), pk, decision="upheld", reasons="Yes", result="B+F")
    assert final.status_code == 201
