"""The cup's draw: seeds down the bracket, byes, who goes through, third place,
consolation, places."""

from __future__ import annotations

import pytest

from games.tournament.engine.cup import (
    CONSOLATION,
    THIRD,
    Cup,
    CupError,
    draw,
    draw_order,
    places,
    round_pairs,
    rounds_needed,
)
from games.tournament.engine.model import GameRec, Outcome


def won(round_number: int, winner: int, loser: int) -> GameRec:
    return GameRec(round_number, winner, loser, outcome=Outcome.BLACK)


def test_seeds_go_down_the_bracket_so_that_1_and_2_meet_only_in_the_final() -> None:
    assert draw_order(2) == [1, 2]
    assert draw_order(4) == [1, 4, 2, 3]
    assert draw_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert sorted(draw_order(16)) == list(range(1, 17))
    assert [rounds_needed(n) for n in (2, 3, 4, 5, 8, 9, 128)] == [1, 2, 2, 3, 3, 4, 7]


def test_the_top_seeds_get_the_byes_and_play_from_round_2() -> None:
    cup = Cup(seeds=(11, 12, 13, 14, 15, 16))  # six players in a bracket of eight
    assert round_pairs(cup, [], 1) == [(14, 15), (13, 16)]
    with pytest.raises(CupError, match="no result yet"):
        round_pairs(cup, [], 2)
    games = [won(1, 14, 15), won(1, 16, 13)]
    assert round_pairs(cup, games, 2) == [(11, 14), (12, 16)]


def test_a_cup_of_eight_runs_to_its_winner_and_places() -> None:
    seeds = tuple(range(1, 9))
    cup = Cup(seeds=seeds, third_place=True)
    games: list[GameRec] = []
    for r in (1, 2, 3):
        for a, b in round_pairs(cup, games, r):
            games.append(won(r, a, b))  # the better seed always wins
    final = [m for m in draw(cup, games) if m.round == 3 and m.bracket != THIRD]
    assert [(m.a, m.b, m.winner) for m in final] == [(1, 2, 1)]
    assert round_pairs(cup, games[:6], 3) == [(1, 2), (3, 4)]  # the final and third place
    assert places(cup, games) == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5}
    with pytest.raises(CupError, match="3 rounds"):
        round_pairs(cup, games, 4)


def test_a_jigo_asks_who_goes_through_until_the_director_chooses() -> None:
    games = [GameRec(1, 1, 4, outcome=Outcome.JIGO), won(1, 2, 3)]
    cup = Cup(seeds=(1, 2, 3, 4))
    with pytest.raises(CupError, match="choose who goes through: round 1 1 v 4"):
        round_pairs(cup, games, 2)
    chosen = Cup(seeds=(1, 2, 3, 4), through={(1, 1, 4): 4})
    assert round_pairs(chosen, games, 2) == [(4, 2)]


def test_the_first_rounds_losers_play_a_consolation_cup_from_round_2() -> None:
    cup = Cup(seeds=tuple(range(1, 9)), consolation=True)
    games = [won(1, a, b) for a, b in round_pairs(cup, [], 1)]
    pairs = round_pairs(cup, games, 2)
    consolation = [m for m in draw(cup, games) if m.bracket == CONSOLATION and m.round == 2]
    assert [(m.a, m.b) for m in consolation] == [(5, 8), (6, 7)]
    assert (5, 8) in pairs and (1, 4) in pairs


def test_a_cup_needs_two_players() -> None:
    with pytest.raises(CupError, match="two players"):
        round_pairs(Cup(seeds=(1,)), [], 1)
