"""The stone scale and AGA rank numbers (docs/ratings.md §2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.ranks import Rank
from ratings.stones import (
    AgaRatingError,
    aga_rank,
    aga_rank_centre,
    aga_to_stones,
    format_stones,
    gor_to_stones,
    stones_to_aga,
    stones_to_gor,
)


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


@pytest.mark.parametrize(
    ("rating", "rank"),
    [(5.5, "5d"), (5.01, "5d"), (1.0, "1d"), (-1.0, "1k"), (-1.99, "1k"), (-5.5, "5k")],
)
def test_aga_rank_vectors(rating: float, rank: str) -> None:
    assert aga_rank(rating) == Rank.parse(rank)


@pytest.mark.parametrize("rating", [0.0, 0.5, -0.99, 0.999, float("nan"), 10.0, -31.0])
def test_aga_refuses_the_gap_and_the_ends_of_the_ladder(rating: float) -> None:
    with pytest.raises(AgaRatingError):
        aga_rank(rating)


def test_aga_rank_centres() -> None:
    assert aga_rank_centre(Rank.parse("3d")) == 3.5
    assert aga_rank_centre(Rank.parse("1d")) == 1.5
    assert aga_rank_centre(Rank.parse("1k")) == -1.5
    assert aga_rank_centre(Rank.parse("5k")) == -5.5


def test_aga_centres_land_on_their_rank_on_the_stone_scale() -> None:
    # docs/ratings.md §2: close the gap (x = r − 1 or r + 1), then stones = x − 0.5.
    assert aga_to_stones(3.5) == 2.0  # a declared 3d is 3d
    for index in range(-30, 9):
        rank = Rank(index)
        assert aga_to_stones(aga_rank_centre(rank)) == pytest.approx(rank.stones)
        assert aga_rank(aga_rank_centre(rank)) == rank


@given(st.one_of(st.floats(1.0, 9.9), st.floats(-30.9, -1.0, exclude_max=True)))
def test_stones_to_aga_inverts_aga_to_stones(rating: float) -> None:
    assert stones_to_aga(aga_to_stones(rating)) == pytest.approx(rating, abs=1e-12)


def test_both_edges_of_the_gap_meet_and_go_back_to_1d() -> None:
    # 1.0 and -1.0 both close to x = 0 (docs/ratings.md §2); goref reads x = 0 as 1d.
    assert aga_to_stones(1.0) == aga_to_stones(-1.0) == -0.5
    assert stones_to_aga(-0.5) == 1.0
