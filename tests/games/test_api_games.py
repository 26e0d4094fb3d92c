"""/api/v1/games/: lists, filters, details, pairing by directors."""

from __future__ import annotations

from games import services
from games.models import Game
from games.tournament import services as tournament_services
from tests.factories import PlayerFactory, TournamentFactory, entered_player
from tests.games.api_helpers import assert_error

URL = "/api/v1/games/"


def _pair(tournament, round_number, n):  # type: ignore[no-untyped-def]
    return [
        tournament_services.game_create(
            actor=None,
            tournament=tournament,
            round_number=round_number,
            black=entered_player(tournament),
            white=entered_player(tournament),
        )
        for _ in range(n)
    ]


def test_anyone_reads_a_game(api, game, alice, bob):
    body = api.get(f"{URL}{game.pk}/").json()
    assert body["black"] == {"id": alice.pk, "name": "Liddell Alice"}
    assert body["white"] == {"id": bob.pk, "name": "Builder Bob"}
    assert (body["state"], body["result"], body["winner"], body["margin"]) == (
        "scheduled",
        None,
        None,
        None,
    )
    assert (body["round"], body["table"], body["komi"], body["rules"]) == (1, 1, "6.5", "japanese")
    assert body["sgf"] == "" and body["sgf_warnings"] == [] and body["dead_stones"] == []


def test_an_unknown_game_is_a_404(api, db):
    assert_error(api.get(f"{URL}999999/"), 404)


def test_the_games_list_costs_two_queries_however_long(api, tournament, django_assert_num_queries):
    _pair(tournament, 1, 12)
    with django_assert_num_queries(2):
        response = api.get(URL)
    assert response.json()["count"] == 12


def test_games_filter_by_tournament_round_player_and_state(api, tournament, game, alice, bob):
    _pair(tournament, 2, 2)
    _pair(TournamentFactory(), 1, 1)
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    assert api.get(URL, {"tournament": tournament.pk}).json()["count"] == 3
    assert api.get(URL, {"tournament": tournament.pk, "round": 2}).json()["count"] == 2
    assert api.get(URL, {"player": bob.pk}).json()["count"] == 1
    assert [g["id"] for g in api.get(URL, {"state": "submitted"}).json()["results"]] == [game.pk]


def test_bad_filters_are_named(api, db):
    assert_error(api.get(URL, {"round": "first"}), 400, "round")
    assert_error(api.get(URL, {"state": "won"}), 400, "state")


def test_a_director_pairs_a_game_with_the_presets_handicap_komi(api_as, director, tournament):
    black, white = entered_player(tournament), entered_player(tournament)
    response = api_as(director).post(
        URL,
        {
            "tournament": tournament.pk,
            "round": 2,
            "black": black.pk,
            "white": white.pk,
            "handicap": 4,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert (response.json()["komi"], response.json()["round"]) == ("0.5", 2)


def test_pairing_errors_name_their_fields(api_as, director, tournament, game, alice):
    client = api_as(director)
    other = entered_player(tournament)
    base = {"tournament": tournament.pk, "round": 1, "black": other.pk}
    assert_error(client.post(URL, {**base, "white": other.pk}, format="json"), 400, "white")
    assert_error(client.post(URL, {**base, "white": alice.pk}, format="json"), 400, "white")
    assert_error(client.post(URL, {**base, "white": 999999}, format="json"), 400, "white")
    assert_error(client.post(URL, {**base, "white": "bob"}, format="json"), 400, "white")
    assert_error(
        client.post(URL, {**base, "tournament": 999999, "white": 1}, format="json"),
        400,
        "tournament",
    )
    assert_error(client.post(URL, {**base, "round": 0, "white": 1}, format="json"), 400, "round")
    assert_error(
        client.post(
            URL, {**base, "white": entered_player(tournament).pk, "komi": "6.3"}, format="json"
        ),
        400,
        "komi",
    )
    assert Game.objects.count() == 1


def test_only_the_tournaments_directors_pair_games(api_as, outsider, referee, tournament):
    data = {
        "tournament": tournament.pk,
        "round": 1,
        "black": PlayerFactory().pk,
        "white": PlayerFactory().pk,
    }
    assert_error(api_as(outsider).post(URL, data, format="json"), 403)
    assert_error(api_as(referee).post(URL, data, format="json"), 403)


def test_a_director_changes_the_komi_of_a_game(api_as, director, game):
    response = api_as(director).patch(
        f"{URL}{game.pk}/", {"komi": "7.5", "table": 4}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["komi"], response.json()["table"]) == ("7.5", 4)


def test_the_players_may_not_change_their_pairing(api_as, alice, game):
    assert_error(api_as(alice).patch(f"{URL}{game.pk}/", {"komi": "0.5"}, format="json"), 403)


def test_a_game_says_whether_it_is_rated_and_why_not(api, game):
    body = api.get(f"{URL}{game.pk}/").json()
    assert (body["rated"], body["not_rated_reason"]) == (True, None)
    Game.objects.filter(pk=game.pk).update(handicap=13)
    body = api.get(f"{URL}{game.pk}/").json()
    assert body["rated"] is False
    assert body["not_rated_reason"] == "13 handicap stones: no game with more than 9 is rated"
    game.tournament.rated = False
    game.tournament.save(update_fields=["rated"])
    assert api.get(f"{URL}{game.pk}/").json()["not_rated_reason"] == "the tournament is not rated"
