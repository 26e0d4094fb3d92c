"""The stone scale (docs/ratings.md §2)."""

from __future__ import annotations

import pytest

from ratings.ranks import Rank
from ratings.stones import format_stones, gor_to_stones, stones_to_gor


@pytest.mark.parametrize(
    ("gor", "stones"), [(2100, 0), (2000, -1), (2200, 1), (-900, -30), (2050, -0.5), (2130, 0.3)]
)
def test_gor_on_the_stone_scale(gor: float, stones: float) -> None:
    assert gor_to_stones(gor) == pytest.approx(stones)
    assert stones_to_gor(stones) == pytest.approx(gor)


def test_a_ranks_index_is_its_place_on_the_stone_scale() -> None:
    for rank in (Rank.parse("1d"), Rank.parse("1k"), Rank.parse("2d"), Rank.parse("30k")):
        assert rank.stones == gor_to_stones(rank.nominal_gor)


def test_strength_is_shown_to_one_decimal() -> None:
    assert format_stones(1.26) == "+1.3"
    assert format_stones(-0.5) == "-0.5"
    assert format_stones(-0.01) == "+0.0"
