"""The day's reads: only locked results count in the standings."""

from __future__ import annotations

from games import services
from games.tournament import selectors as day_selectors


def _wins(tournament, player) -> float:
    rows = {r.player.pk: r for r in day_selectors.standings_of(tournament, criteria=["NBW"]).rows}
    return rows[player.pk].values["NBW"]


def test_only_locked_results_count(tournament, game, alice, director):
    services.game_result_enter(actor=director, game=game, result="B+R")
    assert _wins(tournament, alice) == 0
    services.game_finalise(actor=director, game=game)
    assert _wins(tournament, alice) == 1


def test_a_disputed_result_does_not_count(tournament, game, alice, bob):
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    services.game_result_contest(actor=bob.user, game=game)
    assert _wins(tournament, alice) == 0
