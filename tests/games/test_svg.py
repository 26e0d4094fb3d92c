"""The SVG board: valid XML, one circle per stone, labels without I, row 1 at the bottom."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from games.engine.types import Color
from games.svg import board_svg, star_points

NS = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_it_is_valid_xml_with_an_svg_root() -> None:
    root = _parse(board_svg(19, {}))
    assert root.tag == f"{NS}svg"


def test_it_draws_one_circle_per_stone() -> None:
    stones = {(3, 15): Color.BLACK, (15, 3): Color.WHITE, (9, 9): Color.BLACK}
    root = _parse(board_svg(19, stones))
    assert len(_by_class(root, "stone")) == 3
    assert len(_by_class(root, "black")) == 2
    assert len(_by_class(root, "white")) == 1


def test_an_empty_board_has_no_stones_but_its_grid_and_hoshi() -> None:
    root = _parse(board_svg(19, {}))
    assert _by_class(root, "stone") == []
    assert len(root.findall(f".//{NS}g[@class='grid']/{NS}line")) == 38
    assert len(root.findall(f".//{NS}g[@class='hoshi']/{NS}circle")) == 9


def test_the_column_labels_skip_i() -> None:
    root = _parse(board_svg(19, {}))
    letters = [e.text for e in _by_class(root, "col")]
    assert "I" not in letters
    assert letters[::2] == list("ABCDEFGHJKLMNOPQRST")


def test_row_one_is_at_the_bottom() -> None:
    root = _parse(board_svg(9, {}))
    rows = _by_class(root, "row")[::2]
    by_label = {e.text: float(e.get("y") or 0) for e in rows}
    assert by_label["1"] > by_label["9"]


def test_a_stone_at_d4_sits_on_the_d_column_and_the_4th_row() -> None:
    root = _parse(board_svg(19, {(3, 15): Color.BLACK}))
    stone = _by_class(root, "stone")[0]
    col_d = next(e for e in _by_class(root, "col") if e.text == "D")
    row_4 = next(e for e in _by_class(root, "row") if e.text == "4")
    assert stone.get("cx") == col_d.get("x")
    assert stone.get("cy") == row_4.get("y")


def test_the_last_move_is_marked_on_its_stone() -> None:
    root = _parse(board_svg(9, {(4, 4): Color.WHITE}, last_move=(4, 4)))
    (mark,) = _by_class(root, "last-move")
    (stone,) = _by_class(root, "stone")
    assert (mark.get("cx"), mark.get("cy")) == (stone.get("cx"), stone.get("cy"))


def test_no_last_move_no_marker() -> None:
    assert _by_class(_parse(board_svg(9, {(4, 4): Color.WHITE})), "last-move") == []


def test_dead_stones_get_a_cross_each() -> None:
    stones = {(0, 0): Color.BLACK, (1, 1): Color.BLACK, (5, 5): Color.WHITE}
    root = _parse(board_svg(9, stones, dead=[(0, 0), (1, 1), (1, 1)]))
    assert len(_by_class(root, "dead-mark")) == 2


def test_without_coordinates_there_are_no_labels() -> None:
    root = _parse(board_svg(13, {}, coordinates=False))
    assert _by_class(root, "col") == [] and _by_class(root, "row") == []


def test_star_points_of_the_usual_boards() -> None:
    assert len(star_points(19)) == 9
    assert len(star_points(13)) == 9
    assert set(star_points(9)) == {(2, 2), (6, 2), (2, 6), (6, 6), (4, 4)}
    assert star_points(5) == ()


@pytest.mark.parametrize("size", [2, 5, 9, 13, 19, 25])
def test_every_size_draws(size: int) -> None:
    root = _parse(board_svg(size, {(0, 0): Color.BLACK}, last_move=(0, 0)))
    assert len(_by_class(root, "stone")) == 1


def test_a_point_off_the_board_is_an_error() -> None:
    with pytest.raises(ValueError, match="not on a 9x9 board"):
        board_svg(9, {(9, 0): Color.BLACK})
    with pytest.raises(ValueError):
        board_svg(30, {})


def test_unsure_stones_get_a_square_each() -> None:
    stones = {(2, 4): Color.WHITE, (7, 4): Color.BLACK}
    root = _parse(board_svg(9, stones, unsure=[(2, 4), (2, 4)], dead=[(2, 4)]))
    (square,) = _by_class(root, "unsure-mark")
    (stone,) = _by_class(root, "white")
    half = float(square.get("width") or 0) / 2
    centre = (float(square.get("x") or 0) + half, float(square.get("y") or 0) + half)
    assert centre == pytest.approx((float(stone.get("cx") or 0), float(stone.get("cy") or 0)))
    assert len(_by_class(root, "dead-mark")) == 1  # the cross still shows inside the square


def test_no_unsure_stones_no_squares() -> None:
    assert _by_class(_parse(board_svg(9, {(4, 4): Color.WHITE})), "unsure-mark") == []


def test_clickable_stones_carry_their_point_for_the_page_script() -> None:
    stones = {(3, 15): Color.BLACK, (15, 3): Color.WHITE}
    root = _parse(board_svg(19, stones, clickable=True))
    assert {s.get("data-point") for s in _by_class(root, "clickable")} == {"D4", "Q16"}
    assert len(_by_class(root, "clickable")) == len(_by_class(root, "stone")) == 2


def test_stones_are_not_clickable_unless_asked() -> None:
    root = _parse(board_svg(19, {(3, 15): Color.BLACK}))
    assert _by_class(root, "clickable") == []
    assert all(e.get("data-point") is None for e in root.iter())


def test_the_marks_over_a_stone_let_a_click_through_to_it() -> None:
    root = _parse(
        board_svg(9, {(4, 4): Color.WHITE}, dead=[(4, 4)], unsure=[(4, 4)], last_move=(4, 4))
    )
    for cls in ("dead", "unsure", "last-move"):
        (mark,) = _by_class(root, cls)
        assert mark.get("pointer-events") == "none", cls


def test_an_unsure_point_off_the_board_is_an_error() -> None:
    with pytest.raises(ValueError, match="unsure stone"):
        board_svg(9, {}, unsure=[(0, 9)])


def test_a_rectangular_board_is_drawn_with_its_own_columns_and_rows() -> None:
    root = _parse(board_svg(9, {(0, 0): Color.BLACK}, height=5, clickable=True))
    assert root.get("aria-label") == "9x5 Go board, 1 stones"
    assert float(root.get("width") or 0) > float(root.get("height") or 0)
    assert len(root.findall(f".//{NS}g[@class='grid']/{NS}line")) == 9 + 5
    assert [e.text for e in _by_class(root, "row")][::2] == ["5", "4", "3", "2", "1"]
    assert _by_class(root, "stone")[0].get("data-point") == "A5"
    assert root.findall(f".//{NS}g[@class='hoshi']/{NS}circle") == []
    with pytest.raises(ValueError, match="not on a 9x5 board"):
        board_svg(9, {(0, 5): Color.WHITE}, height=5)
