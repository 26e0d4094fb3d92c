"""Coordinates: SGF letters and letters-and-numbers, docs/rules.md, "Points and coordinates"."""

from __future__ import annotations

import pytest

from games.engine.coords import (
    GTP_COLUMNS,
    CoordinateError,
    expand_sgf_points,
    gtp_to_point,
    is_sgf_pass,
    parse_point,
    parse_points,
    point_to_gtp,
    point_to_sgf,
    sgf_to_point,
)

ALL_SIZES = range(2, 26)


@pytest.mark.parametrize(
    ("size", "gtp", "sgf"),
    [(19, "D4", "dp"), (19, "Q16", "pd"), (19, "K10", "jj"), (13, "K10", "jd"), (9, "E5", "ee")],
)
def test_the_rules_md_examples_convert_both_ways(size: int, gtp: str, sgf: str) -> None:
    assert gtp_to_point(gtp, size) == sgf_to_point(sgf, size)
    assert point_to_sgf(gtp_to_point(gtp, size)) == sgf
    assert point_to_gtp(sgf_to_point(sgf, size), size) == gtp


@pytest.mark.parametrize("size", ALL_SIZES)
def test_every_point_of_every_size_round_trips_through_both_forms(size: int) -> None:
    for x in range(size):
        for y in range(size):
            p = (x, y)
            assert sgf_to_point(point_to_sgf(p), size) == p
            assert gtp_to_point(point_to_gtp(p, size), size) == p
            assert parse_point(point_to_gtp(p, size).lower(), size) == p
            assert parse_point(point_to_sgf(p), size) == p


def test_the_column_letters_skip_i_and_reach_25() -> None:
    assert "I" not in GTP_COLUMNS
    assert len(GTP_COLUMNS) == 25
    assert point_to_gtp((24, 0), 25) == "Z25"
    assert point_to_gtp((8, 18), 19) == "J1"


def test_row_one_is_the_bottom_row() -> None:
    assert gtp_to_point("A1", 9) == (0, 8)
    assert gtp_to_point("J9", 9) == (8, 0)


@pytest.mark.parametrize(
    ("text", "size"),
    [("Z9", 19), ("T20", 19), ("A0", 9), ("I5", 19), ("jj", 9), ("DD", 19), ("d", 19), ("", 9)],
)
def test_bad_points_raise_a_coordinate_error_naming_text_and_size(text: str, size: int) -> None:
    with pytest.raises(CoordinateError) as err:
        parse_point(text, size)
    assert repr(text) in str(err.value)
    assert f"{size}x{size}" in str(err.value)
    assert isinstance(err.value, ValueError)


def test_parse_points_accepts_commas_spaces_and_mixed_forms() -> None:
    assert parse_points("D4,E5 q16", 19) == ((3, 15), (4, 14), (15, 3))
    assert parse_points(" dd , D4 ;pp ", 19) == ((3, 3), (3, 15), (15, 15))
    assert parse_points("", 19) == ()


def test_parse_points_drops_repeats_and_keeps_order() -> None:
    assert parse_points("D4 dp Q16", 19) == ((3, 15), (15, 3))


def test_tt_is_a_pass_only_up_to_19x19() -> None:
    assert is_sgf_pass("", 25)
    assert is_sgf_pass("tt", 19)
    assert not is_sgf_pass("tt", 21)
    assert sgf_to_point("tt", 21) == (19, 19)


def test_a_compressed_point_list_expands_to_its_rectangle() -> None:
    assert set(expand_sgf_points("aa:bc", 9)) == {(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)}
    assert expand_sgf_points("cc:aa", 9) == expand_sgf_points("aa:cc", 9)
    assert expand_sgf_points("ee", 9) == ((4, 4),)
    with pytest.raises(CoordinateError):
        expand_sgf_points("aa:zz", 9)


def test_a_board_size_out_of_range_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="26"):
        sgf_to_point("aa", 26)
