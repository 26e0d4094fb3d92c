"""Board mechanics: drawing, chains, liberties, captures, ko and superko, hashing."""

from __future__ import annotations

import pytest

from games.engine.board import Board, IllegalMove
from games.engine.rules import KoRule
from games.engine.types import Color, Setup

from .engine_helpers import pt

B, W = Color.BLACK, Color.WHITE


def test_a_drawing_reads_back_the_same():
    drawing = "x.o\n.X.\nO+#"
    board = Board.from_ascii(drawing)
    assert board.size == 3
    assert board.to_ascii() == "x.o\n.x.\no.x"
    assert board.get((0, 0)) is B and board.get((2, 0)) is W and board.get((1, 0)) is None


def test_a_drawing_may_separate_points_with_spaces():
    assert Board.from_ascii("x . o\n. . .\n. . .") == Board.from_ascii("x.o\n...\n...")


def test_a_drawing_with_rows_of_different_lengths_is_refused():
    with pytest.raises(ValueError, match="rows differ in length"):
        Board.from_ascii("x..\n..")
    assert (Board.from_ascii("x..\n...").size, Board.from_ascii("x..\n...").height) == (3, 2)


def test_a_drawing_with_a_captured_chain_is_refused():
    with pytest.raises(ValueError, match="no liberty"):
        Board.from_ascii("xo.\no..\n...")


def test_sizes_outside_2_to_25_are_refused():
    with pytest.raises(ValueError):
        Board(1)
    with pytest.raises(ValueError):
        Board(26)
    assert Board(25).size == 25 and Board(2).size == 2


def test_chain_and_liberties_follow_the_stones():
    board = Board.from_ascii(
        """
        .....
        .xx..
        .x.o.
        .....
        .....
        """
    )
    assert board.chain((1, 1)) == {(1, 1), (2, 1), (1, 2)}
    assert board.liberties((1, 1)) == 7
    assert board.liberties((3, 2)) == 4
    assert board.chain((0, 0)) == frozenset() and board.liberties((0, 0)) == 0


def test_playing_between_two_chains_merges_them_and_their_liberties():
    board = Board.from_ascii(".....\nx.x..\n.....\n.....\n.....")
    board.play((1, 1), B)
    assert board.chain((0, 1)) == {(0, 1), (1, 1), (2, 1)}
    assert board.liberties((2, 1)) == 7


def test_a_capture_removes_the_chain_and_gives_liberties_back():
    board = Board.from_ascii(
        """
        .xo..
        xo...
        .x...
        .....
        .....
        """
    )
    played = board.play((2, 1), B)
    assert played.captured == {(1, 1)}
    assert board.get((1, 1)) is None
    assert board.liberties((1, 0)) == 2  # (0, 0) and the freed (1, 1)
    assert board.liberties((0, 1)) == 3  # (0, 0), (0, 2) and the freed (1, 1)


def test_snapback_retakes_three_stones_under_every_ko_rule():
    # Snapback (docs/rules.md, "Legality"), top three rows of a 5x5 board.
    drawing = ".ox..\n.ox..\nxx...\n.....\n....."
    for ko in KoRule:
        board = Board.from_ascii(drawing)
        board.record_position(B)
        assert board.play(pt("A5", 5), B, ko=ko).captured == set()
        assert board.play(pt("A4", 5), W, ko=ko).captured == {pt("A5", 5)}
        retake = board.play(pt("A5", 5), B, ko=ko)
        assert retake.captured == {pt("B5", 5), pt("B4", 5), pt("A4", 5)}


def simple_ko_board() -> Board:
    # Simple ko (docs/rules.md, "Legality"): Black A1, B2, A3; White B1; White A2 captures A1.
    board = Board(9)
    board.place_setup(
        Setup(
            black=frozenset({pt("A1", 9), pt("B2", 9), pt("A3", 9)}),
            white=frozenset({pt("B1", 9)}),
        )
    )
    board.record_position(W)
    assert board.play(pt("A2", 9), W).captured == {pt("A1", 9)}
    return board


@pytest.mark.parametrize("ko", list(KoRule))
def test_black_may_not_retake_the_ko_at_once(ko):
    board = simple_ko_board()
    assert board.check(pt("A1", 9), B, ko=ko) == "ko"
    with pytest.raises(IllegalMove) as err:
        board.play(pt("A1", 9), B, ko=ko)
    assert err.value.reason == "ko"


def test_black_may_retake_the_ko_after_a_move_elsewhere():
    board = simple_ko_board()
    board.play(pt("J9", 9), B)
    board.play(pt("H9", 9), W)
    assert board.check(pt("A1", 9), B, ko=KoRule.SIMPLE) is None
    assert board.play(pt("A1", 9), B, ko=KoRule.SIMPLE).captured == {pt("A2", 9)}


def test_a_pass_clears_the_simple_ko():
    board = simple_ko_board()
    board.pass_move(B)
    board.pass_move(W)
    assert board.check(pt("A1", 9), B, ko=KoRule.SIMPLE) is None


def test_occupied_points_are_refused():
    board = Board.from_ascii("x..\n...\n...")
    assert board.check((0, 0), W) == "occupied"
    with pytest.raises(IllegalMove, match="occupied"):
        board.play((0, 0), W)


def test_suicide_is_refused_when_not_allowed_and_removes_the_chain_when_allowed():
    drawing = ".x...\nox...\nx....\n.....\n....."  # multi-stone suicide (docs/rules.md)
    board = Board.from_ascii(drawing)
    assert board.check(pt("A5", 5), W, suicide=False) == "suicide"
    played = board.play(pt("A5", 5), W, suicide=True)
    assert played.suicide and played.captured == {pt("A5", 5), pt("A4", 5)}
    assert board.get(pt("A4", 5)) is None and board.get(pt("A5", 5)) is None


def test_a_single_stone_suicide_repeats_the_board_under_positional_superko():
    board = Board.from_ascii(".x...\nx....\n.....\n.....\n.....")  # docs/rules.md, Legality
    board.record_position(W)
    assert board.check(pt("A5", 5), W, ko=KoRule.POSITIONAL, suicide=True) == "superko"
    assert board.check(pt("A5", 5), W, ko=KoRule.SITUATIONAL, suicide=True) is None


def test_the_hash_depends_only_on_the_stones():
    a = Board.from_ascii("x.o\n...\n.x.")
    b = Board(3)
    b.play((1, 2), B)
    b.play((2, 0), W)
    b.play((0, 0), B)
    assert a.hash == b.hash and a == b
    b.play((1, 1), W)
    assert a.hash != b.hash


def test_a_copy_does_not_share_chains_with_the_original():
    board = Board.from_ascii("x..\n...\n...")
    other = board.copy()
    other.play((1, 0), B)
    assert board.chain((0, 0)) == {(0, 0)}
    assert other.chain((0, 0)) == {(0, 0), (1, 0)}
    assert board.liberties((0, 0)) == 2


def test_illegal_points_lists_ko_and_suicide():
    board = simple_ko_board()
    bad = board.illegal_points(B, ko=KoRule.SIMPLE)
    assert bad == {pt("A1", 9): "ko"}
    board = Board.from_ascii(".x.\nx..\n...")
    assert board.illegal_points(W) == {(0, 0): "suicide"}


def test_a_set_up_after_the_empty_board_was_recorded_is_a_new_position():
    board = Board(5)
    board.record_position(B)
    board.place_setup(Setup(black=frozenset({(1, 1)}), white=frozenset({(3, 3)})))
    assert not board.seen() and board.check((0, 0), B, ko=KoRule.POSITIONAL) is None
    board.place_setup(Setup(empty=frozenset({(1, 1), (3, 3)})))
    assert board.seen() and board.hash == Board(5).hash


def test_a_set_up_board_and_its_copy_hash_as_the_same_stones_played():
    board = Board.from_ascii("xo...\n.....\n..x..\n.....\n....o")
    played = Board(5)
    for point, color in board.stones().items():
        played.play(point, color)
    assert board.copy().hash == board.hash == played.hash
    board.play((1, 1), W)
    played.play((1, 1), W)
    assert board.hash == played.hash
    assert board.chain((1, 0)) == played.chain((1, 0)) == {(1, 0), (1, 1)}
