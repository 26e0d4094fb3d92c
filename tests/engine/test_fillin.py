"""Fill-in counting: the six worked games of the WMSG 2008 rules, Appendix 1 (docs/rules.md)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.engine.fillin import fill_in
from games.engine.types import Color

B, W = Color.BLACK, Color.WHITE
KOMI = Decimal("6.5")

GAMES = [
    # game, points, B area, W area, White passed first, losing (n, colour), WT (n, owner), B-W
    (1, 361, "184", "177", True, (0, None), (1, B), "-0.5"),
    (2, 361, "184", "177", False, (0, None), (1, B), "0.5"),
    (3, 361, "188", "173", True, (4, W), (9, B), "7.5"),
    (4, 361, "180", "181", False, (3, B), (7, W), "-7.5"),
    (5, 81, "43.5", "37.5", False, (0, None), (0, None), "-0.5"),
    (6, 81, "44.5", "36.5", True, (1, W), (2, B), "0.5"),
]


@pytest.mark.parametrize(("game", "points", "ba", "wa", "wpf", "losing", "wt", "margin"), GAMES)
def test_each_worked_game_gives_the_published_result(game, points, ba, wa, wpf, losing, wt, margin):
    f = fill_in(points, Decimal(ba), Decimal(wa), KOMI, wpf)
    assert (f.losing_stones, f.losing_color) == losing
    assert (f.winning_territory, f.winning_territory_owner) == wt
    assert f.margin == Decimal(margin)
    assert f.procedure_margin == f.margin  # the procedure always equals the formula


def test_game_3_has_four_white_losing_stones_not_three():
    # WMSG 2008 rules, Appendix 1: the text says 3, its numbers give 4 (WT 9 needs 4).
    f = fill_in(361, Decimal(188), Decimal(173), KOMI, True)
    assert f.losing_stones == 4 and f.empty_left == 1 and f.winning_territory == 9


def test_stones_and_komi_stones_follow_the_board_and_komi():
    f = fill_in(361, Decimal(184), Decimal(177), KOMI, False)
    assert (f.stones_per_side, f.komi_stones, f.komi_remainder) == (180, 3, Decimal("0.5"))
    assert fill_in(81, Decimal(41), Decimal(40), KOMI, False).stones_per_side == 40


def test_on_19x19_without_seki_one_empty_point_is_left():
    f = fill_in(361, Decimal(190), Decimal(171), KOMI, False)
    assert f.empty_left == 1 and f.winning_territory == 1 + 2 * f.losing_stones


def test_the_breakdown_is_json_ready():
    d = fill_in(81, Decimal("44.5"), Decimal("36.5"), KOMI, True).to_dict()
    assert d["black_area"] == 44.5 and d["losing_color"] == "W" and d["margin"] == 0.5
    assert d["winning_territory_owner"] == "B"
