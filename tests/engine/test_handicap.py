"""Handicap placement against the table of docs/rules.md, "Handicap placement"."""

from __future__ import annotations

import pytest

from games.engine.coords import parse_points
from games.engine.handicap import (
    Placement,
    fixed_points,
    max_fixed_stones,
    setup_for,
)

# docs/rules.md's table, written out in full (5 = 4 + centre, and so on).
TABLE = {
    19: {
        2: "Q16 D4",
        3: "Q16 D4 Q4",
        4: "Q16 D4 Q4 D16",
        5: "Q16 D4 Q4 D16 K10",
        6: "Q16 D4 Q4 D16 Q10 D10",
        7: "Q16 D4 Q4 D16 Q10 D10 K10",
        8: "Q16 D4 Q4 D16 Q10 D10 K16 K4",
        9: "Q16 D4 Q4 D16 Q10 D10 K16 K4 K10",
    },
    13: {
        2: "K10 D4",
        3: "K10 D4 K4",
        4: "K10 D4 K4 D10",
        5: "K10 D4 K4 D10 G7",
        6: "K10 D4 K4 D10 K7 D7",
        7: "K10 D4 K4 D10 K7 D7 G7",
        8: "K10 D4 K4 D10 K7 D7 G10 G4",
        9: "K10 D4 K4 D10 K7 D7 G10 G4 G7",
    },
    9: {2: "G7 C3", 3: "G7 C3 G3", 4: "G7 C3 G3 C7", 5: "G7 C3 G3 C7 E5"},
}
CASES = [(size, n, pts) for size, rows in TABLE.items() for n, pts in rows.items()]


@pytest.mark.parametrize(("size", "stones", "points"), CASES)
def test_fixed_points_match_the_ratings_table_in_order(size: int, stones: int, points: str) -> None:
    assert fixed_points(size, stones) == parse_points(points, size)


def test_the_sgf_equivalents_in_the_table_agree() -> None:
    assert fixed_points(19, 9) == parse_points("pd dp pp dd pj dj jd jp jj", 19)
    assert fixed_points(13, 9) == parse_points("jd dj jj dd jg dg gd gj gg", 13)
    assert fixed_points(9, 5) == parse_points("gc cg gg cc ee", 9)


def test_the_aga_order_is_the_table_order() -> None:
    # AGA Concise Rules order (docs/rules.md, aga): Q16, D4, Q4, D16, ...
    assert fixed_points(19, 4) == parse_points("Q16 D4 Q4 D16", 19)


def test_three_stones_leave_the_far_left_corner_empty_not_the_lower_right() -> None:
    assert parse_points("D16", 19)[0] not in fixed_points(19, 3)
    assert parse_points("Q4", 19)[0] in fixed_points(19, 3)


@pytest.mark.parametrize("size", range(7, 26))
def test_every_supported_size_and_count_gives_distinct_points_on_the_board(size: int) -> None:
    for stones in range(2, max_fixed_stones(size) + 1):
        points = fixed_points(size, stones)
        assert len(set(points)) == stones
        assert all(0 <= x < size and 0 <= y < size for x, y in points)
        if stones > 2:
            assert points[: stones - 1] == fixed_points(size, stones - 1) or stones in (6, 8)


@pytest.mark.parametrize(
    ("size", "most"), [(7, 5), (8, 4), (9, 5), (11, 5), (12, 4), (13, 9), (19, 9), (25, 9)]
)
def test_the_largest_fixed_handicap_depends_on_the_board(size: int, most: int) -> None:
    assert max_fixed_stones(size) == most
    with pytest.raises(ValueError, match=f"{most + 1} handicap stones on a {size}x{size}"):
        fixed_points(size, most + 1)


@pytest.mark.parametrize("size", [2, 5, 6, 26])
def test_boards_without_fixed_points_raise_a_clear_error(size: int) -> None:
    with pytest.raises(ValueError, match=f"{size}x{size}"):
        fixed_points(size, 2)


def test_one_stone_has_no_fixed_placement() -> None:
    with pytest.raises(ValueError, match="1 handicap stones"):
        fixed_points(19, 1)


def test_nz_free_placement_has_white_pass_n_minus_one_times() -> None:
    plan = setup_for("free-white-passes", 19, 4)
    assert plan.is_free
    assert plan.points == ()
    assert plan.white_passes == 3
    assert plan.suggested == fixed_points(19, 4)


def test_free_placement_allows_counts_beyond_the_fixed_table() -> None:
    plan = setup_for(Placement.FREE, 19, 12)
    assert plan.is_free and plan.white_passes == 0 and plan.suggested == ()


def test_fixed_placement_gives_the_points() -> None:
    plan = setup_for("fixed", 9, 5)
    assert not plan.is_free
    assert plan.points == parse_points("G7 C3 G3 C7 E5", 9)


@pytest.mark.parametrize("stones", [0, 1])
def test_a_handicap_of_zero_or_one_places_no_stones(stones: int) -> None:
    for how in Placement:
        plan = setup_for(how, 19, stones)
        assert plan.points == () and plan.white_passes == 0


def test_bad_placement_requests_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="unknown handicap placement"):
        setup_for("sideways", 19, 2)
    with pytest.raises(ValueError, match="negative"):
        setup_for("free", 19, -1)
    with pytest.raises(ValueError, match="no handicap"):
        setup_for("none", 9, 2)
    with pytest.raises(ValueError, match="do not fit"):
        setup_for("free", 3, 9)


def test_a_presets_placement_setting_is_accepted() -> None:
    from games.engine.rules import get_rules

    assert setup_for(get_rules("japanese").placement, 19, 3).points == fixed_points(19, 3)
    assert setup_for(get_rules("chinese").placement, 19, 3).is_free
    assert setup_for(get_rules("first-capture").placement, 9, 0).stones == 0


def test_the_nz_preset_places_freely_with_white_passes() -> None:
    from games.engine.rules import Placement as RulesPlacement
    from games.engine.rules import get_rules

    nz = get_rules("nz")
    assert nz.placement is RulesPlacement.FREE_WHITE_PASSES
    plan = setup_for(nz.placement, 19, 4)
    assert plan.is_free and plan.white_passes == 3 and plan.points == ()
    assert setup_for(nz.placement, 9, 1).white_passes == 0


@pytest.mark.parametrize(
    "name", ["chinese", "japanese", "nz", "aga", "wmsg", "wga", "tromp-taylor"]
)
def test_every_presets_placement_enum_is_accepted(name: str) -> None:
    from games.engine.rules import get_rules

    rules = get_rules(name)
    size = 9
    plan = setup_for(rules.placement, size, 2)
    assert plan.placement == rules.placement.value
    assert plan.is_free == (rules.placement.value.startswith("free"))
    assert plan.white_passes == (1 if name == "nz" else 0)


def test_placement_is_one_enum_shared_with_the_rules() -> None:
    from games.engine import rules

    assert Placement is rules.Placement
