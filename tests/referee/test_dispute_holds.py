"""A dispute holds its game: no bulk path (the round's "Finalise the known results", the
result sheet, the close, the ratings) locks a game under an open dispute; each says which
game it left, and the referee's ruling still applies afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games import services as games
from games.models import Game, GameState
from games.people.services.grants import director_grant_admin, federation_official_grant
from games.selectors import rated_games
from games.tournament import services as tournament_services
from ops.models import AuditAction, AuditEntry
from referee import services as referee_services
from referee.models import DisputeState
from tests.factories import PlayerFactory, UserFactory, enter


@pytest.fixture
def other_game(nz: Any) -> Game:
    carol = PlayerFactory(family_name="Carol", given_name="Cee")
    dave = PlayerFactory(family_name="Dave", given_name="Dee")
    enter(nz, carol, dave)
    return tournament_services.game_create(
        actor=None, tournament=nz, round_number=1, black=carol, white=dave, table=2
    )


@pytest.fixture
def disputed(nz_game: Game, alice: Any, bob: Any, other_game: Game, director: Any) -> Any:
    """Round 1: table 1 contested by White, table 2 entered by the director."""
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    games.game_result_contest(actor=bob.user, game=nz_game, reason="I never resigned")
    games.game_result_enter(actor=director, game=other_game, result="W+R")
    return nz_game.disputes.get()  # type: ignore[attr-defined]


def page_messages(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_finalising_the_known_results_leaves_the_disputed_game_and_says_so(
    disputed: Any, nz_game: Game, other_game: Game, director: Any, referee: Any
) -> None:
    c = Client()
    c.force_login(director)
    page = c.get(f"/tournaments/{nz_game.tournament_id}/rounds/1/results/")
    assert page.context["to_finalise"] == 1 and page.context["disputed"] == 1
    assert b"1</span> disputed game(s) wait for the referee" in page.content
    response = c.post(
        f"/tournaments/{nz_game.tournament_id}/rounds/1/results/", {"action": "finalise"}
    )
    assert response.status_code == 302
    said = " ".join(page_messages(response))
    assert "1 result(s) of round 1 are final." in said
    assert "table 1 (" in said and "under an open dispute: the referee rules first" in said
    nz_game.refresh_from_db()
    other_game.refresh_from_db()
    assert other_game.state == GameState.FINAL
    assert nz_game.state == GameState.DISPUTED and nz_game.locked_at is None
    # The referee's ruling is not refused: the game waited for it.
    ruled = referee_services.dispute_rule(
        actor=referee, dispute=disputed, decision="dismissed", reasons="He resigned", result=""
    )
    assert ruled.state == DisputeState.RULED


def test_a_single_finalise_of_a_disputed_game_is_a_409(
    disputed: Any, nz_game: Game, director: Any, api_as: Any
) -> None:
    response = api_as(director).post(f"/api/v1/games/{nz_game.pk}/finalise/")
    assert response.status_code == 409
    assert "the referee rules first" in str(response.json())
    assert Game.objects.get(pk=nz_game.pk).state == GameState.DISPUTED


def test_a_directors_correction_keeps_the_game_disputed(
    disputed: Any, nz_game: Game, director: Any
) -> None:
    games.game_result_enter(actor=director, game=nz_game, result="W+R")
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.DISPUTED and nz_game.result_display == "W+R"
    assert games.games_finalise(actor=director, games=[nz_game]).held == [(nz_game, "disputed")]


def test_the_result_sheet_finalise_leaves_the_disputed_game(
    disputed: Any, nz_game: Game, other_game: Game, director: Any
) -> None:
    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    response = c.post(
        f"/admin/games/round/{nz_game.round_id}/results/",
        {f"game_{nz_game.pk}": "W+R", f"game_{other_game.pk}": "B+R", "finalise": "on"},
    )
    assert response.status_code == 302
    assert "Left as they are: table 1" in " ".join(page_messages(response))
    assert Game.objects.get(pk=nz_game.pk).state == GameState.DISPUTED
    assert Game.objects.get(pk=other_game.pk).state == GameState.FINAL


def test_closing_with_an_open_dispute_is_refused_naming_it(
    disputed: Any, nz_game: Game, other_game: Game, director: Any
) -> None:
    games.game_finalise(actor=director, game=other_game)
    c = Client()
    c.force_login(director)
    response = c.post(f"/tournaments/{nz_game.tournament_id}/close/", {"reason": "late"})
    said = " ".join(page_messages(response))
    assert "1 game under an open dispute; a referee rules first" in said
    assert "Liddell" in said  # the game, by its players
    nz_game.tournament.refresh_from_db()
    assert nz_game.tournament.closed_at is None


def test_an_official_closes_over_an_open_dispute_only_with_a_reason(
    disputed: Any, nz_game: Game, other_game: Game, director: Any, api_as: Any
) -> None:
    games.game_finalise(actor=director, game=other_game)
    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    nz_game.tournament.directors.add(official)
    url = f"/api/v1/tournaments/{nz_game.tournament_id}/close/"
    response = api_as(official).post(url, {}, format="json")
    assert response.status_code == 409 and "close it with your reason" in str(response.json())
    response = api_as(official).post(url, {"reason": "Referee ill; rule next week"}, format="json")
    assert response.status_code == 200, response.json()
    entry = AuditEntry.objects.get(action=AuditAction.TOURNAMENT_CLOSED)
    assert entry.actor == official
    assert entry.new_value["reason"] == "Referee ill; rule next week"
    assert entry.new_value["disputed_left_open"] == [nz_game.pk]
    # The game is not locked: it waits for its ruling, and is not rated before it.
    assert Game.objects.get(pk=nz_game.pk).state == GameState.DISPUTED
    assert not rated_games().filter(pk=nz_game.pk).exists()


def test_a_director_cannot_close_over_an_open_dispute_even_with_a_reason(
    disputed: Any, nz_game: Game, other_game: Game, director: Any, api_as: Any
) -> None:
    games.game_finalise(actor=director, game=other_game)
    response = api_as(director).post(
        f"/api/v1/tournaments/{nz_game.tournament_id}/close/", {"reason": "x"}, format="json"
    )
    assert response.status_code == 409
    assert "a federation official closes it with a reason" in str(response.json())


def test_on_the_page_the_refusal_offers_an_official_the_reason_form(
    disputed: Any, nz_game: Game, other_game: Game, director: Any
) -> None:
    games.game_finalise(actor=director, game=other_game)
    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    nz_game.tournament.directors.add(official)
    url = f"/tournaments/{nz_game.tournament_id}/close/"
    c = Client()
    c.force_login(director)
    assert "close-over-disputes" not in page_messages(c.post(url)).__str__()
    c.force_login(official)
    said = " ".join(page_messages(c.post(url)))
    assert 'id="close-over-disputes"' in said and 'name="reason"' in said
    closed = c.post(url, {"reason": "Referee ill; rule next week"})
    assert "The tournament is closed" in " ".join(page_messages(closed))


def test_the_bulk_finalise_leaves_a_game_whose_players_are_marking_dead_stones(
    nz_game: Game, director: Any
) -> None:
    from games.models import DeadStoneReview

    games.game_result_enter(actor=director, game=nz_game, result="B+R")
    DeadStoneReview.objects.create(game=nz_game)
    done = games.games_finalise(actor=director, games=[nz_game])
    assert done.games == [] and done.held == [(nz_game, "marking")]
    assert Game.objects.get(pk=nz_game.pk).state == GameState.SUBMITTED
