"""Pairing a whole round: the service and ``/api/v1/tournaments/{id}/rounds/{R}/pairing/``."""

from __future__ import annotations

import pytest

from games.models import Game, GameState, TournamentEntry
from games.services import game_finalise, game_result_enter
from games.tournament.engine.pairing import COST_NAMES
from games.tournament.services.rounds import round_pair
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter
from tests.games.api_helpers import assert_error


def url(tournament, r: int = 1) -> str:  # type: ignore[no-untyped-def]
    return f"/api/v1/tournaments/{tournament.pk}/rounds/{r}/pairing/"


@pytest.fixture
def field(tournament):  # type: ignore[no-untyped-def]
    """Seven players entered (3d down to 3k, two of one club): an odd field."""
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([2, 1, 0, -1, -1, -2, -3], start=1)
    ]
    tournament.system = "mcmahon"
    tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 5
    tournament.save()
    enter(tournament, *players)
    return players


def test_a_dry_run_answers_games_with_opengothas_costs_and_writes_nothing(
    api_as, director, tournament, field
):
    response = api_as(director).post(url(tournament), {"dry_run": True}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["round"] == 1 and body["bye"] in {p.pk for p in field}
    assert len(body["games"]) == 3
    assert [g["table"] for g in body["games"]] == [1, 2, 3]
    assert set(body["games"][0]["costs"]) == set(COST_NAMES)
    assert body["total_cost"] == sum(g["costs"]["totalCost"] for g in body["games"])
    assert "pairs" not in body and "explanation" not in body["games"][0]
    assert not Game.objects.exists()


def test_pairing_creates_the_games_and_records_the_bye(api_as, director, tournament, field):
    response = api_as(director).post(url(tournament), {"explain": True}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert Game.objects.filter(tournament=tournament, round__number=1).count() == 3
    assert all(isinstance(g["explanation"], list) for g in body["games"])
    bye = TournamentEntry.objects.get(tournament=tournament, player_id=body["bye"])
    assert bye.presence(1) == "b"
    assert AuditEntry.objects.filter(action="round.paired").count() == 1
    # Pairing again replaces the games while no result is in.
    again = api_as(director).post(url(tournament), {}, format="json")
    assert again.status_code == 201
    assert Game.objects.filter(tournament=tournament, round__number=1).count() == 3


def test_explain_all_gives_every_pair(api_as, director, tournament, field):
    players = [p.pk for p in field[:4]]
    body = (
        api_as(director)
        .post(
            url(tournament), {"players": players, "dry_run": True, "explain": "all"}, format="json"
        )
        .json()
    )
    assert len(body["pairs"]) == 6 and body["bye"] is None and body["pairs_total"] == 6
    assert {(p["a"], p["b"]) for p in body["pairs"]} >= {(players[0], players[1])}


def test_explain_all_is_paged_or_per_player(api_as, director, tournament, field):
    """Six players to pair: 15 pairs in all, answered a page at a time."""
    players = [p.pk for p in field[:6]]
    client = api_as(director)
    ask = {"players": players, "dry_run": True, "explain": "all"}
    whole = client.post(url(tournament), {**ask, "pairs_limit": 100}, format="json").json()
    page = client.post(
        url(tournament), {**ask, "pairs_offset": 4, "pairs_limit": 5}, format="json"
    ).json()
    assert whole["pairs_total"] == page["pairs_total"] == 15
    assert page["pairs"] == whole["pairs"][4:9]
    one = client.post(url(tournament), {**ask, "pairs_of": [players[2]]}, format="json").json()
    assert one["pairs_total"] == 5 and len(one["pairs"]) == 5
    assert all(players[2] in (p["a"], p["b"]) for p in one["pairs"])
    too_many = client.post(url(tournament), {**ask, "pairs_limit": 100000}, format="json")
    assert_error(too_many, 400, "pairs_limit")


def test_a_round_with_a_result_cannot_be_paired_again_or_undone(
    api_as, director, tournament, field
):
    api_as(director).post(url(tournament), {}, format="json")
    Game.objects.filter(tournament=tournament).update(state=GameState.SUBMITTED)
    assert_error(api_as(director).post(url(tournament), {}, format="json"), 409)
    assert_error(api_as(director).delete(url(tournament)), 409)


def test_undo_removes_the_games_and_the_bye(api_as, director, tournament, field):
    api_as(director).post(url(tournament), {}, format="json")
    response = api_as(director).delete(url(tournament))
    assert response.status_code == 200 and response.json() == {"round": 1, "removed": 3}
    assert not Game.objects.exists()
    assert all(e.presence(1) == "p" for e in TournamentEntry.objects.all())


def test_players_not_entered_and_bad_requests_are_refused(api_as, director, tournament, field):
    stranger = PlayerFactory()
    client = api_as(director)
    assert_error(
        client.post(url(tournament), {"players": [field[0].pk, stranger.pk]}, format="json"),
        400,
        "players",
    )
    assert_error(client.post(url(tournament), {"bye": stranger.pk}, format="json"), 400, "bye")
    assert_error(client.post(url(tournament), {"explain": "some"}, format="json"), 400, "explain")
    assert_error(client.post(url(tournament, 9), {}, format="json"), 400, "round")
    # Seven players and no bye cannot all be paired.
    assert_error(client.post(url(tournament), {"bye": None}, format="json"), 400, "players")
    assert not Game.objects.exists()


def test_only_its_directors_pair_a_round(api, api_as, outsider, tournament, field):
    assert_error(api.post(url(tournament), {}, format="json"), 401)
    assert_error(api_as(outsider).post(url(tournament), {}, format="json"), 403)
    assert_error(api_as(outsider).post("/api/v1/tournaments/424242/rounds/1/pairing/", {}), 404)


def test_a_director_pairs_every_round_of_a_mcmahon_tournament(director, tournament, field):
    """Five rounds, each paired from the results before: no repeat game."""
    met: set[frozenset[int]] = set()
    for r in range(1, 6):
        result = round_pair(actor=director, tournament=tournament, round_number=r)
        assert len(result.created) == 3
        for game in result.created:
            pair = frozenset((game.black_id, game.white_id))
            assert pair not in met
            met.add(pair)
            text = "B+R" if game.black_id < game.white_id else "W+R"
            game_result_enter(actor=director, game=game, result=text)
            game_finalise(actor=director, game=game)
    # Seven players, five rounds: each sat out at most once.
    byes = [e.participation.count("b") for e in TournamentEntry.objects.all()]
    assert sum(byes) == 5 and max(byes) == 1


def test_a_round_paired_meanwhile_is_a_conflict_not_a_second_game(director, tournament, field):
    """Two directors confirming at once: the second finds the first's games under the
    round's lock and is refused with 409, nothing written."""
    from decimal import Decimal

    from games.tournament.services.pairings import games_create_round
    from ops.services import StateConflict

    a, b, c, d = (p.pk for p in field[:4])
    games_create_round(
        actor=director, tournament=tournament, round_number=1, games=[(a, b, 0, Decimal(7), 1)]
    )
    with pytest.raises(StateConflict, match="paired meanwhile"):
        games_create_round(
            actor=director,
            tournament=tournament,
            round_number=1,
            games=[(c, d, 0, Decimal(7), 1), (a, b, 0, Decimal(7), 2)],
        )
    assert Game.objects.filter(round__number=1).count() == 1
