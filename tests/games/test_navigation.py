"""Finding one's way: the header's links, a player's own games, players chosen by name, and
results that are not final shown as such."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import services
from games.tournament import services as tournament_services
from ratings.selectors import head_to_head
from tests.factories import PlayerFactory, enter

pytestmark = pytest.mark.django_db


def _header(client: Client) -> str:
    html = client.get("/").content.decode()
    match = re.search(r"<header>(.*?)</header>", html, re.S)
    assert match is not None
    return match.group(1)


def test_the_header_links_tournaments_ratings_and_promotions_for_everyone(client: Client) -> None:
    header = _header(client)
    for href in ('href="/tournaments/"', 'href="/ratings/"', 'href="/ratings/promotions/"'):
        assert href in header
    assert "Referee desk" not in header and "My games" not in header


def test_officials_see_the_referee_desk_in_the_header(client: Client, referee: Any, game: Any):  # type: ignore[no-untyped-def]
    client.force_login(referee)
    assert 'href="/referee/"' in _header(client)


def test_a_player_sees_what_waits_for_his_confirmation(
    client: Client, game: Any, alice: Any, bob: Any
) -> None:
    services.game_result_submit(actor=bob.user, game=game, result="W+R")
    client.force_login(alice.user)
    header = _header(client)
    assert 'href="/my-games/"' in header and "1 to confirm" in header
    page = client.get("/my-games/").content.decode()
    waiting = page[page.index("Waiting for you to confirm") : page.index("My latest games")]
    assert f'href="/games/{game.pk}/"' in waiting and "White wins by resignation" in waiting
    client.force_login(bob.user)  # his own claim waits for Alice, not for him
    assert "to confirm" not in _header(client)


def test_a_submitted_result_is_not_listed_as_a_win(client: Client, game: Any, alice: Any) -> None:
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    html = client.get(f"/players/{alice.pk}/").content.decode()
    row = html[html.index(f'href="/games/{game.pk}/"') :]
    row = row[: row.index("</tr>")]
    assert "<td>win</td>" not in row and "not confirmed yet" in row


def test_head_to_head_takes_players_by_name(client: Client, game: Any, alice: Any, bob: Any):  # type: ignore[no-untyped-def]
    html = client.get(
        "/ratings/head-to-head/", {"black": "Liddell Alice", "white": "builder"}
    ).content.decode()
    assert "Liddell Alice</a> 0 – 0" in html and 'list="player-names"' in html
    PlayerFactory(family_name="Liddell", given_name="Lorina")
    html = client.get(
        "/ratings/head-to-head/", {"black": "Liddell", "white": "Builder Bob"}
    ).content.decode()
    assert "Several players match" in html and "Liddell Lorina" in html


def test_the_handicap_and_what_if_forms_take_names(client: Client, alice: Any, bob: Any):  # type: ignore[no-untyped-def]
    html = client.get(
        "/ratings/handicap/", {"black": "Liddell Alice", "white": "Builder Bob"}
    ).content.decode()
    assert "<h2>1 stone" in html and 'class="errorlist' not in html
    html = client.get(
        "/ratings/what-if/", {"black": "Alice", "white": "Bob", "winner": "black"}
    ).content.decode()
    assert 'class="errorlist' not in html and "<th>Black</th><td>Liddell Alice" in html


def test_head_to_head_counts_exactly_the_games_it_lists(
    tournament: Any, alice: Any, bob: Any, director: Any
) -> None:
    enter(tournament, alice, bob)
    final = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=alice, white=bob
    )
    services.game_result_enter(actor=director, game=final, result="B+R")
    services.game_finalise(actor=director, game=final)
    pending = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=2, black=bob, white=alice
    )
    services.game_result_submit(actor=bob.user, game=pending, result="B+R")
    h2h = head_to_head(alice, bob)
    assert [g.pk for g in h2h.games] == [final.pk]
    assert h2h.a_wins + h2h.b_wins == len(h2h.games) and h2h.uncounted == 1
