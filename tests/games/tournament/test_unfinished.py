"""Pairing over earlier games without a final result: named on "Pair round R" (with the
absent players), refused by the service and the API (409 naming them) until accepted."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games.models import Game, Presence
from games.people.services.grants import director_grant_admin
from games.services import game_finalise, game_result_enter
from games.tournament.services import entry_participation_set
from games.tournament.services.rounds import round_games_set, round_pair
from ops.services import StateConflict
from tests.factories import PlayerFactory, enter
from tests.games.api_helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(tournament: Any) -> list[Any]:
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([2, 1, 0, -1, -2, -3], start=1)
    ]
    tournament.system = "mcmahon"
    tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 3
    tournament.save()
    enter(tournament, *players)
    return players


@pytest.fixture
def round_one(director: Any, tournament: Any, field: Any) -> list[Game]:
    """Round 1 paired; two results final, the third only entered (not final)."""
    games = round_pair(actor=director, tournament=tournament, round_number=1).created
    for game in games:
        game_result_enter(actor=director, game=game, result="B+R")
    for game in games[:2]:
        game_finalise(actor=director, game=game)
    return games


def url(tournament: Any, r: int = 2) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/rounds/{r}/pairing/"


def test_the_service_refuses_to_pair_over_an_unfinished_game_naming_it(
    director, tournament, round_one
):
    open_game = round_one[2]
    with pytest.raises(StateConflict) as raised:
        round_pair(actor=director, tournament=tournament, round_number=2)
    text = " ".join(raised.value.messages)
    assert f"game {open_game.pk}" in text and "round 1" in text and str(open_game.black) in text
    assert f"game {round_one[0].pk}" not in text
    assert not Game.objects.filter(round__number=2).exists()
    # A dry run answers; accepting pairs.
    assert round_pair(actor=director, tournament=tournament, round_number=2, dry_run=True).games
    done = round_pair(actor=director, tournament=tournament, round_number=2, accept_unfinished=True)
    assert len(done.created) == 3


def test_a_hand_edited_round_is_refused_too(director, tournament, field, round_one):
    with pytest.raises(ValidationError) as refused:
        round_games_set(
            actor=director,
            tournament=tournament,
            round_number=2,
            games=[(field[0].pk, field[1].pk, 0)],
        )
    assert isinstance(refused.value, StateConflict) and refused.value.code == "unfinished"
    assert not Game.objects.filter(round__number=2).exists()
    created = round_games_set(
        actor=director,
        tournament=tournament,
        round_number=2,
        games=[(field[0].pk, field[1].pk, 0)],
        accept_unfinished=True,
    )
    assert len(created) == 1


def test_the_api_answers_409_naming_the_games_unless_accepted(
    api_as, director, tournament, round_one
):
    client = api_as(director)
    dry = client.post(url(tournament), {"dry_run": True}, format="json")
    assert dry.status_code == 200
    assert [g["id"] for g in dry.json()["unfinished"]] == [round_one[2].pk]
    refused = client.post(url(tournament), {}, format="json")
    assert_error(refused, 409)
    assert f"game {round_one[2].pk}" in refused.content.decode()
    assert not Game.objects.filter(round__number=2).exists()
    accepted = client.post(url(tournament), {"accept_unfinished": True}, format="json")
    assert accepted.status_code == 201, accepted.content


def test_with_every_result_final_nothing_is_asked(api_as, director, tournament, round_one):
    game_finalise(actor=director, game=round_one[2])
    response = api_as(director).post(url(tournament), {}, format="json")
    assert response.status_code == 201 and response.json()["unfinished"] == []


def test_the_pairing_page_names_the_games_with_links_and_the_absent_first(
    director, tournament, field, round_one
):
    entry = tournament.entries.get(player=field[5])
    entry_participation_set(actor=director, entry=entry, round_number=2, presence=Presence.ABSENT)
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    pair_url = reverse("admin:games_tournament_pair", args=[tournament.pk, 2])
    page = client.get(pair_url).content.decode()
    warning = page.index('id="unfinished"')
    assert warning < page.index("Who plays")
    link = reverse("admin:games_game_change", args=[round_one[2].pk])
    words = " ".join(page.split())
    assert f'href="{link}"' in page and "1 game of earlier rounds has no final result" in words
    assert 'id="absent"' in page and str(field[5]) in page
    # Confirming without the box is refused, with the box it pairs.
    ids = [p.pk for p in field[:4]]
    text = f"#{ids[1]} #{ids[0]} 0\n#{ids[3]} #{ids[2]} 0"
    data = {"step": "confirm", "bye": "", "games_text": text}
    refused = client.post(pair_url, data)
    assert refused.status_code == 200 and "no final result" in " ".join(refused.context["errors"])
    assert not Game.objects.filter(round__number=2).exists()
    assert client.post(pair_url, {**data, "accept_unfinished": "on"}).status_code == 302
    assert Game.objects.filter(round__number=2).count() == 2


def test_the_close_names_the_games_that_block_it(director, tournament, round_one):
    from games.tournament.services import tournament_close

    with pytest.raises(StateConflict) as raised:
        tournament_close(actor=director, tournament=tournament)
    text = " ".join(raised.value.messages)
    assert text.startswith("1 game of this tournament has no final result yet: round 1")
    assert f"game {round_one[2].pk}" in text and f"game {round_one[0].pk}" not in text
