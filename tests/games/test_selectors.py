"""Reads: filtered lists and the crosstable."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games import selectors, services
from games.models import Game, GameState
from tests.factories import entered_player


def test_the_crosstable_counts_wins_losses_draws_and_points(
    tournament, game, alice, bob, director, django_assert_num_queries
):
    carol = entered_player(tournament, family_name="Carroll")
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_confirm(actor=bob.user, game=game)
    g2 = services.game_create(
        actor=director, tournament=tournament, round_number=2, black=bob, white=carol
    )
    services.game_result_enter(actor=director, game=g2, result="0")
    services.game_finalise(actor=director, game=g2)
    services.game_create(
        actor=director,
        tournament=tournament,
        round_number=2,
        black=alice,
        white=entered_player(tournament, family_name="Zed"),
    )
    with django_assert_num_queries(1):
        rows = selectors.crosstable(tournament)
    by_name = {r.player.family_name: r for r in rows}
    assert rows[0].player == alice
    assert (by_name["Liddell"].wins, by_name["Liddell"].points) == (1, Decimal(1))
    assert (by_name["Builder"].losses, by_name["Builder"].draws) == (1, 1)
    assert by_name["Builder"].points == Decimal("0.5")
    assert by_name["Builder"].rounds[1].outcome == "-"
    assert by_name["Builder"].rounds[2].outcome == "="
    assert by_name["Liddell"].rounds[1].locked
    assert by_name["Liddell"].rounds[2].outcome == "?"
    assert by_name["Liddell"].number == 1 and by_name["Builder"].cells == ["1-/w", "3=/b"]


def test_only_locked_results_count(tournament, game, alice, bob, director):
    services.game_result_enter(actor=director, game=game, result="B+R")
    rows = {r.player.pk: r for r in selectors.crosstable(tournament)}
    assert rows[alice.pk].points == 0 and rows[alice.pk].rounds[1].outcome == "?"
    assert rows[alice.pk].cells == [f"{rows[bob.pk].number}?/b"]
    services.game_finalise(actor=director, game=game)
    rows = {r.player.pk: r for r in selectors.crosstable(tournament)}
    assert rows[alice.pk].points == 1 and rows[alice.pk].cells == ["2+/b"]


def test_a_disputed_result_does_not_count(tournament, game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_contest(actor=bob.user, game=game)
    rows = {r.player.pk: r for r in selectors.crosstable(tournament)}
    assert rows[alice.pk].wins == 0 and rows[alice.pk].rounds[1].outcome == "?"


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
