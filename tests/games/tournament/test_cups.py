"""A cup end to end: entries, the options on the bracket page, rounds paired through the
API from the draw, a jigo that asks who goes through, the final, places."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import game_finalise, game_result_enter
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter


@pytest.fixture
def cup(tournament: Any) -> Any:
    """Six players, 5d down to 1k: a bracket of eight with two byes."""
    players = [
        PlayerFactory(family_name=f"Seed{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([4, 3, 2, 1, 0, -1], start=1)
    ]
    tournament.system = "cup"
    tournament.number_of_rounds = 3
    tournament.save()
    enter(tournament, *players)
    return players


def _pair(api: Any, tournament: Any, r: int) -> Any:
    return api.post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/{r}/pairing/",
        {"accept_unfinished": False},
        format="json",
    )


def _play(director: Any, tournament: Any, r: int, result: str = "B+R") -> None:
    for game in Game.objects.filter(tournament=tournament, round__number=r):
        game_result_enter(actor=director, game=game, result=result)
        game_finalise(actor=director, game=game)


def test_a_cup_is_drawn_paired_decided_and_placed(
    api_as: Any, director: Any, tournament: Any, cup: Any
) -> None:
    seeds = cup
    client = Client()
    client.force_login(director)
    page_url = reverse("games:cup", args=[tournament.pk])
    saved = client.post(
        page_url, {"action": "options", "seeding": "rank", "third_place": "on"}, follow=True
    )
    assert b"Saved: the bracket follows." in saved.content
    assert AuditEntry.objects.filter(action="tournament.cup_set").count() == 1
    api = api_as(director)
    first = _pair(api, tournament, 1)
    assert first.status_code == 201, first.content
    pairs = {frozenset((g["black"], g["white"])) for g in first.json()["games"]}
    # Seeds 1 and 2 have byes; 3 v 6 and 4 v 5 play.
    assert pairs == {frozenset((seeds[3].pk, seeds[4].pk)), frozenset((seeds[2].pk, seeds[5].pk))}
    # One game ends in jigo: round 2 waits for the director's choice.
    jigo, other = Game.objects.filter(tournament=tournament, round__number=1).order_by("table")
    game_result_enter(actor=director, game=other, result="B+R")
    game_finalise(actor=director, game=other)
    jigo.komi = 7
    jigo.save()
    game_result_enter(actor=director, game=jigo, result="0")
    game_finalise(actor=director, game=jigo)
    waiting = _pair(api, tournament, 2)
    assert waiting.status_code == 400 and "goes through" in waiting.content.decode()
    bracket = client.get(page_url)
    assert b"No winner: the director chooses who goes through." in bracket.content
    through = jigo.white_id
    client.post(page_url, {"action": "through", "game": jigo.pk, "player": through})
    second = _pair(api, tournament, 2)
    assert second.status_code == 201, second.content
    in_round_2 = {p for g in second.json()["games"] for p in (g["black"], g["white"])}
    assert through in in_round_2 and seeds[0].pk in in_round_2 and seeds[1].pk in in_round_2
    _play(director, tournament, 2)
    third = _pair(api, tournament, 3)
    assert third.status_code == 201 and len(third.json()["games"]) == 2  # final, third place
    _play(director, tournament, 3)
    page = client.get(page_url)
    assert b"Places so far" in page.content and b"third place" in page.content
    public = Client().get(page_url)
    assert public.status_code == 200 and b"The cup&#x27;s options" not in public.content
    refused = client.post(page_url, {"action": "options", "seeding": "rating"}, follow=True)
    assert b"seeding can no longer change" in refused.content


def test_a_tournament_that_is_not_a_cup_has_no_bracket(client: Any, tournament: Any) -> None:
    assert client.get(reverse("games:cup", args=[tournament.pk])).status_code == 404
