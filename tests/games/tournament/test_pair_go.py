"""Pair go and rengo end to end: pairs entered through the API, paired and placed like
players, their games never rated, the .h9 export saying so."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, PairMember, Player
from games.selectors import rated_games
from games.services import game_finalise, game_result_enter
from games.tournament.services.pairs import pair_rank
from tests.factories import PlayerFactory


def test_a_pairs_rank_is_its_members_average_rounded_toward_the_weaker_or_the_rule() -> None:
    assert pair_rank([2, -3]) == -1  # 3d and 3k: 1k (the mean -0.5 rounded down)
    assert pair_rank([0, 0]) == 0
    assert pair_rank([4, 1, -2, -5], "strongest") == 4
    assert pair_rank([4, 1, -2, -5], "weakest") == -5


@pytest.mark.django_db
def test_a_pair_go_event_runs_and_is_never_rated(
    api_as: Any, director: Any, outsider: Any, tournament: Any
) -> None:
    people = [
        PlayerFactory(family_name=f"Go{i}", given_name=f"P{i}", declared_rank=3 - i)
        for i in range(8)
    ]
    api = api_as(director)
    base = f"/api/v1/tournaments/{tournament.pk}"
    for n in range(4):
        made = api.post(
            f"{base}/entries/pair/",
            {"members": [people[n].pk, people[7 - n].pk]},
            format="json",
        )
        assert made.status_code == 201, made.content
    again = api.post(
        f"{base}/entries/pair/", {"members": [people[0].pk, people[1].pk]}, format="json"
    )
    assert again.status_code == 400  # Go0 already plays in a pair here
    assert (
        api_as(outsider)
        .post(f"{base}/entries/pair/", {"members": [people[2].pk, people[3].pk]}, format="json")
        .status_code
        == 403
    )
    api = api_as(director)  # the same client, signed in again
    pairs = Player.objects.filter(is_pair=True)
    assert pairs.count() == 4 and PairMember.objects.count() == 8
    assert pairs.get(pair_members__member=people[0]).family_name == "Go0 / Go7"
    paired = api.post(f"{base}/rounds/1/pairing/", {}, format="json")
    assert paired.status_code == 201, paired.content
    games = Game.objects.filter(tournament=tournament, round__number=1)
    assert games.count() == 2
    for game in games:
        assert game.black.is_pair and game.white.is_pair
        game_result_enter(actor=director, game=game, result="W+R")
        game_finalise(actor=director, game=game)
        assert game.not_rated_reason == "a pair go or rengo game is not rated"
    standings = api.get(f"{base}/standings/").json()
    assert len(standings["rows"]) == 4 and " / " in standings["rows"][0]["player"]["family_name"]
    tournament.rated = True
    tournament.closed_at = (
        tournament.start_date and __import__("django.utils.timezone").utils.timezone.now()
    )
    tournament.save()
    assert not rated_games().filter(tournament=tournament).exists()
    h9 = api.get(f"{base}/export/?format=egf")
    assert h9.status_code == 200 and b"the EGD rates none of these games" in h9.content


@pytest.mark.django_db
def test_the_same_pair_is_one_record_across_events(director: Any, tournament: Any) -> None:
    from games.tournament.services.pairs import pair_enter
    from tests.factories import TournamentFactory

    a, b = PlayerFactory(), PlayerFactory()
    first = pair_enter(actor=director, tournament=tournament, members=[a, b])
    other = TournamentFactory()
    other.directors.add(director)
    second = pair_enter(actor=director, tournament=other, members=[a, b])
    assert first.player_id == second.player_id
