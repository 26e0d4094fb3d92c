"""Public pages: every page with every role, 404s on bad ids, pinned query counts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.tournament import services as tournament_services
from tests.factories import entered_player
from tests.games import sgf_samples
from tests.games.web_helpers import ROLES, client_for

pytestmark = pytest.mark.django_db


def _finish(game: Game, director: Any, result: str = "B+R", sgf: str | None = None) -> Game:
    services.game_result_enter(actor=director, game=game, result=result, sgf=sgf)
    return services.game_finalise(actor=director, game=game)


@pytest.fixture
def finished(game: Game, director: Any) -> Game:
    return _finish(game, director, "B+R", sgf_samples.SIMPLE)


@pytest.mark.parametrize("role", ROLES)
def test_home_lists_recent_tournaments(
    request: pytest.FixtureRequest, role: str, tournament: Any
) -> None:
    response = client_for(request, role).get(reverse("games:home"))
    assert response.status_code == 200
    assert "Wellington Open" in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_tournament_list(request: pytest.FixtureRequest, role: str, tournament: Any) -> None:
    response = client_for(request, role).get(reverse("games:tournaments"))
    assert response.status_code == 200
    assert reverse("games:tournament", args=[tournament.pk]) in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_tournament_page_shows_rounds_results_and_standings(
    request: pytest.FixtureRequest, role: str, finished: Game
) -> None:
    url = reverse("games:tournament", args=[finished.tournament_id])
    body = client_for(request, role).get(url).content.decode()
    assert "Standings after round 1" in body
    assert "Round 1" in body
    assert "B+R" in body
    # McMahon: Alice (3k) won with Black against Bob (2k): 27 + 1 = 28 + 0, so they share
    # first place, listed in name order (Builder, then Liddell).
    assert "2-/w" in body and "1+/b" in body
    assert ("edit in admin" in body) == (role == "director")


@pytest.mark.parametrize("role", ROLES)
def test_round_page(request: pytest.FixtureRequest, role: str, finished: Game) -> None:
    url = reverse("games:round", args=[finished.tournament_id, 1])
    response = client_for(request, role).get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Liddell Alice" in body and "Builder Bob" in body and "B+R" in body


@pytest.mark.parametrize("role", ROLES)
def test_game_page_draws_the_final_position(
    request: pytest.FixtureRequest, role: str, finished: Game
) -> None:
    response = client_for(request, role).get(reverse("games:game", args=[finished.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<svg" in body
    assert body.count('class="stone ') == 6  # SIMPLE has six moves, no captures
    assert 'class="last-move"' in body
    assert "Final position after 6 moves" in body


@pytest.mark.parametrize(
    ("role", "sees_history"),
    [
        ("public", False),
        ("outsider", False),
        ("player", True),
        ("director", True),
        ("referee", True),
    ],
)
def test_the_result_history_is_for_players_directors_and_referees(
    request: pytest.FixtureRequest, role: str, sees_history: bool, finished: Game
) -> None:
    body = client_for(request, role).get(reverse("games:game", args=[finished.pk])).content.decode()
    assert ("Result history" in body) == sees_history


@pytest.mark.parametrize("role", ROLES)
def test_player_page_lists_his_games(
    request: pytest.FixtureRequest, role: str, finished: Game
) -> None:
    response = client_for(request, role).get(reverse("games:player", args=[finished.black_id]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Liddell Alice" in body and "Builder Bob" in body and "win" in body


def test_a_game_without_a_record_draws_no_board(client: Client, game: Game) -> None:
    body = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "<svg" not in body
    assert "No game record was sent for this game, so there is no board to show." in body
    assert "About the record" not in body


def test_a_record_with_an_illegal_move_shows_the_warning_naming_the_move(
    client: Client, game: Game, director: Any
) -> None:
    services.game_result_enter(actor=director, game=game, result="B+R", sgf=sgf_samples.ILLEGAL)
    body = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "About the record" in body
    assert "move 2" in body


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/999999/",
        "/tournaments/999999/rounds/1/",
        "/games/999999/",
        "/games/999999/submit/",
        "/games/999999/enter/",
        "/players/999999/",
    ],
)
def test_bad_ids_are_404_not_500(admin_client: Client, url: str) -> None:
    assert admin_client.get(url).status_code == 404


def test_a_round_that_does_not_exist_is_404(client: Client, game: Game) -> None:
    assert client.get(reverse("games:round", args=[game.tournament_id, 7])).status_code == 404


def _more_games(tournament: Any, director: Any, rounds: int, per_round: int) -> None:
    for number in range(1, rounds + 1):
        for _ in range(per_round):
            b, w = entered_player(tournament), entered_player(tournament)
            g = tournament_services.game_create(
                actor=None, tournament=tournament, round_number=number, black=b, white=w
            )
            _finish(g, director, "W+3.5")


def test_the_tournament_page_query_count_does_not_grow_with_games(
    client: Client, finished: Game, director: Any, django_assert_num_queries: Any
) -> None:
    url = reverse("games:tournament", args=[finished.tournament_id])
    # tournament and its directors (kept for the signed-in pages), rounds, games, their
    # players (each once); the entries (for the games' ranks and the standings both) and
    # the standings' games
    with django_assert_num_queries(7):
        client.get(url)
    _more_games(finished.tournament, director, rounds=3, per_round=4)
    with django_assert_num_queries(7):
        response = client.get(url)
    # The current round's 4 games; the earlier rounds are links to their own pages.
    body = response.content.decode()
    assert body.count("W+3.5") == 4
    for number in (1, 2):
        assert f'href="{reverse("games:round", args=[finished.tournament_id, number])}"' in body


def test_the_round_page_query_count_is_pinned(
    client: Client, finished: Game, director: Any, django_assert_num_queries: Any
) -> None:
    _more_games(finished.tournament, director, rounds=1, per_round=5)
    # round with tournament, games with players, entry ranks
    with django_assert_num_queries(3):
        client.get(reverse("games:round", args=[finished.tournament_id, 1]))


def test_the_player_games_list_query_count_is_pinned(
    client: Client, finished: Game, director: Any, alice: Any, django_assert_num_queries: Any
) -> None:
    for number in (2, 3, 4):
        g = tournament_services.game_create(
            actor=None,
            tournament=finished.tournament,
            round_number=number,
            black=alice,
            white=entered_player(finished.tournament),
        )
        _finish(g, director, "B+R")
    # player with club, games with tournament, round and players; rating, honorary title,
    # rating history, rank history, the names events gave him
    with django_assert_num_queries(7):
        response = client.get(reverse("games:player", args=[alice.pk]))
    assert response.content.decode().count(">win<") == 4


def test_the_game_page_query_count_is_pinned(
    client: Client, finished: Game, django_assert_num_queries: Any
) -> None:
    # The game with its players, the engine's check of the record, its public disputes.
    with django_assert_num_queries(3):
        client.get(reverse("games:game", args=[finished.pk]))


def test_a_long_career_is_paged_on_the_player_page(
    client: Client, game: Game, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.views import players as player_views

    monkeypatch.setattr(player_views, "PAGE_GAMES", 3)
    game.tournament.number_of_rounds = 7
    game.tournament.save(update_fields=["number_of_rounds"])
    for number in range(2, 8):  # 7 games in all
        tournament_services.game_create(
            actor=None,
            tournament=game.tournament,
            round_number=number,
            black=alice,
            white=entered_player(game.tournament),
        )
    url = reverse("games:player", args=[alice.pk])
    pages = [client.get(url, {"page": n}) for n in (1, 2, 3)]
    rows = [p.content.decode().count("head to head") for p in pages]
    assert rows == [3, 3, 1]
    assert 'href="?page=2">older' in pages[0].content.decode()
    assert 'href="?page=1">newer' in pages[1].content.decode()
    assert "older games" not in pages[2].content.decode()
    for bad in ("4", "0", "x", "99999"):
        assert client.get(url, {"page": bad}).status_code == 404
