"""Ranks: parse, format, order, EGF grade bands, integer indexes (docs/ratings.md §1, §3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.ranks import ALL_RANKS, Rank, RankError


@pytest.mark.parametrize(
    ("text", "index", "shown"),
    [
        ("30k", -30, "30k"),
        ("1k", -1, "1k"),
        ("1d", 0, "1d"),
        ("9d", 8, "9d"),
        ("3 kyu", -3, "3k"),
        ("2 Dan", 1, "2d"),
        (" 15K ", -15, "15k"),
        ("9p+", 9, "9p+"),
    ],
)
def test_it_parses_and_formats(text: str, index: int, shown: str) -> None:
    rank = Rank.parse(text)
    assert rank.index == index
    assert str(rank) == shown
    assert Rank.parse(str(rank)) == rank


@pytest.mark.parametrize("text", ["", "0k", "31k", "10d", "1p", "3x", "k3", "1.5k"])
def test_it_refuses_what_is_not_a_rank(text: str) -> None:
    with pytest.raises(RankError):
        Rank.parse(text)


def test_ranks_are_ordered_weakest_first_with_the_honorary_title_on_top() -> None:
    assert Rank.parse("30k") < Rank.parse("1k") < Rank.parse("1d") < Rank.parse("9d")
    assert Rank.parse("9d") < Rank.parse("9p+")
    assert list(ALL_RANKS) == sorted(ALL_RANKS)
    assert len(ALL_RANKS) == 40


@pytest.mark.parametrize(
    ("gor", "grade"),
    [
        (2049, "1k"),
        (2050, "1d"),
        (2150, "2d"),
        (1549, "6k"),
        (1550, "5k"),
        (-900, "30k"),
        (2700, "7d"),
        (-2000, "30k"),
        (3200, "9d"),
    ],
)
def test_grade_from_gor_vectors(gor: float, grade: str) -> None:
    assert Rank.from_gor(gor) == Rank.parse(grade)


def test_a_gor_is_never_the_honorary_title() -> None:
    assert not Rank.from_gor(float("inf")).is_honorary
    with pytest.raises(RankError):
        Rank.from_gor(float("nan"))


@pytest.mark.parametrize(
    ("grade", "gor"),
    [("1d", 2100), ("1k", 2000), ("20k", 100), ("30k", -900), ("3d", 2300), ("9d", 2900)],
)
def test_nominal_gor(grade: str, gor: int) -> None:
    assert Rank.parse(grade).nominal_gor == gor


def test_the_honorary_title_has_no_numbers() -> None:
    with pytest.raises(RankError):
        _ = Rank.parse("9p+").nominal_gor
    with pytest.raises(RankError):
        _ = Rank.parse("9p+").ogs_index


def test_ogs_and_mcmahon_index() -> None:
    assert Rank.parse("30k").ogs_index == 0
    assert Rank.parse("20k").ogs_index == 10
    assert Rank.parse("1d").ogs_index == 30
    assert Rank.parse("9d").ogs_index == 38


@given(st.integers(-30, 8))
def test_the_nominal_gor_falls_in_its_own_band(index: int) -> None:
    rank = Rank(index)
    g = rank.nominal_gor
    assert Rank.from_gor(g) == rank
    assert Rank.from_gor(g - 50) == rank or index == -30
    assert Rank.from_gor(g + 49.999) == rank
