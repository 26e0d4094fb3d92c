"""Reads: filtered lists and a player's games."""

from __future__ import annotations

import pytest

from games import selectors
from games.models import Game, GameState


def test_game_list_filters(tournament, game, alice, bob):
    assert list(selectors.game_list(player=alice)) == [game]
    assert list(selectors.game_list(tournament=tournament, round_number=2)) == []
    assert list(selectors.game_list(state=GameState.SCHEDULED)) == [game]


@pytest.mark.parametrize(
    ("reason", "winner", "side", "expected"),
    [
        ("", "", "B", ""),
        ("score", "B", "B", "win"),
        ("resignation", "W", "B", "loss"),
        ("forfeit", "W", "W", "win by forfeit"),
        ("forfeit", "W", "B", "loss by forfeit"),
        ("draw", "", "W", "jigo"),
        ("void", "", "B", "void"),
    ],
)
def test_outcome_for_reads_the_result_from_one_players_side(
    reason: str, winner: str, side: str, expected: str
) -> None:
    game = Game(
        black_id=1,
        white_id=2,
        result_reason=reason,
        result_winner=winner,
        state=GameState.FINAL,
    )
    assert selectors.outcome_for(game, 1 if side == "B" else 2) == expected


@pytest.mark.parametrize(
    ("state", "expected"),
    [(GameState.SUBMITTED, "not confirmed yet"), (GameState.DISPUTED, "disputed")],
)
def test_a_result_not_locked_is_no_win_or_loss(state: str, expected: str) -> None:
    game = Game(black_id=1, white_id=2, result_reason="resignation", result_winner="B", state=state)
    assert selectors.outcome_for(game, 1) == expected
