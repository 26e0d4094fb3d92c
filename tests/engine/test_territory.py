"""Japanese territory on drawn positions: seki by the groups in seki, and the points
that must still be filled inside territory (teire, false eyes)."""

from __future__ import annotations

from decimal import Decimal

from games.engine.board import Board
from games.engine.coords import point_to_gtp
from games.engine.rules import get_rules
from games.engine.scoring import score_position
from games.engine.territory import japanese_territory
from games.engine.types import Point

from .test_scoring import SEKI

JAPANESE = get_rules("japanese")


def names(points: frozenset[Point], size: int) -> list[str]:
    return sorted(point_to_gtp(p, size) for p in points)


def test_a_dame_that_puts_a_chain_in_atari_costs_the_point_where_it_must_connect():
    # White fills the dame D4; Black D5 is then in atari and must connect at C5,
    # inside Black's territory: 7 points less that one.
    drawing = """
    ..xo...
    ..xo...
    ...xo..
    xxx.o..
    ooooo..
    .......
    .......
    """
    board = Board.from_ascii(drawing)
    territory = japanese_territory(board)
    assert names(territory.teire[1], 7) == ["C5"] and territory.teire[2] == frozenset()
    s = score_position(board, JAPANESE, komi=Decimal(0))
    assert (s.black_territory, s.white_territory, s.teire_points) == (6, 26, 1)
    assert s.to_dict()["teire_points"] == 1
    # Once Black has connected there is nothing left to fill, and the count is the same.
    connected = drawing.replace("...xo..", "..xxo..")
    again = score_position(Board.from_ascii(connected), JAPANESE, komi=Decimal(0))
    assert (again.black_territory, again.teire_points) == (6, 0)


def test_a_false_eye_on_the_edge_is_not_territory():
    # D7 lies between two Black chains and White holds its diagonal E6: the lone
    # Black E7 has D7 as its only liberty, so Black must fill D7.
    drawing = """
    ..x.xo.
    ..xxoo.
    xxxoo..
    oooo...
    .......
    .......
    .......
    """
    board = Board.from_ascii(drawing)
    assert names(japanese_territory(board).teire[1], 7) == ["D7"]
    s = score_position(board, JAPANESE, komi=Decimal(0))
    assert (s.black_territory, s.white_territory) == (5 - 1, 28)


def test_open_dame_that_threaten_nothing_cost_nothing():
    drawing = """
    ..xo...
    ..xo...
    ..xo...
    xxx.o..
    ooooo..
    .......
    .......
    """
    s = score_position(Board.from_ascii(drawing), JAPANESE, komi=Decimal(0))
    assert s.teire_points == 0 and s.dame == 1
    assert (s.black_territory, s.white_territory) == (6, 27)


def test_seki_voids_the_eye_of_the_group_in_seki_not_the_territory_it_touches():
    # C7 is shared by Black's corner group (one eye, A7) and the lone White D7,
    # whose other liberty E7 is inside White's territory: neither side can fill
    # C7.  Black's corner is alive in seki and its eye counts nothing; the lone
    # White stone is joined to White's living group through that territory,
    # which still counts all 35 points (a rule spreading from the shared liberty
    # through the regions that touch it zeroed all of them).
    drawing = """
    .x.o...
    xxxxo..
    ooooo..
    .......
    .......
    .......
    .......
    """
    board = Board.from_ascii(drawing)
    territory = japanese_territory(board)
    assert names(territory.seki_points, 7) == ["C7"]
    assert names(territory.seki_stones, 7) == ["A6", "B6", "B7", "C6", "D6"]
    s = score_position(board, JAPANESE, komi=Decimal(0))
    assert (s.black_territory, s.white_territory, s.seki_points) == (0, 35, 1)


def test_the_seki_groups_of_the_katago_board_are_the_four_chains_in_seki():
    territory = japanese_territory(Board.from_ascii(SEKI))
    white_top = ["E8", "E9", "F8", "G8", "G9"]
    white_right = ["H5", "H6", "H7", "J5", "J7"]
    black = ["H8", "J9"]
    assert names(territory.seki_stones, 9) == sorted(white_top + white_right + black)
    assert territory.seki_lost == (0, 0, 2)  # White's eyes F9 and J6
    assert territory.teire == (frozenset(), frozenset(), frozenset())


def test_a_lost_position_is_not_a_teire():
    # White's corner chain has one liberty, its own eye: it is dead, to be
    # marked, and playing in the eye would save nothing, so it is no teire.
    drawing = """
    .oxxx
    ooxxx
    xxxxx
    .....
    .....
    """
    territory = japanese_territory(Board.from_ascii(drawing))
    assert territory.teire == (frozenset(), frozenset(), frozenset())
