"""Captures cross-checked against an independent implementation (sgfmill).

sgfmill's ``Board.play`` allows self-capture and enforces no ko rule, so the
random games here include suicides; both boards must hold the same stones
after every sequence.  sgfmill rows count from the bottom: (x, y) -> (size-1-y, x).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards

from games.engine.board import Board
from games.engine.types import Point, Setup


def sgfmill_stones(sb: boards.Board, size: int) -> dict[tuple[int, int], int]:
    occupied = sb.list_occupied_points()
    return {(c, size - 1 - r): (1 if col == "b" else 2) for col, (r, c) in occupied}


def ours(board: Board) -> dict[tuple[int, int], int]:
    return {p: int(c) for p, c in board.stones().items()}


def _play_at_random(board: Board, sb: boards.Board, size: int, rng: random.Random) -> bool:
    """A stone of a random colour on a random point of both boards, unless the point is
    taken (colours at random: any order is a legal board sequence); whether one was played."""
    color = rng.choice((1, 2))
    i = rng.randrange(size * size)
    if board._cells[i]:
        return False
    board._place(i, color)
    sb.play(size - 1 - i // size, i % size, "b" if color == 1 else "w")
    return True


@settings(max_examples=2000, deadline=None)
@given(
    size=st.sampled_from([2, 3, 4, 5, 7, 9, 13, 19]),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(1, 200),
)
def test_random_games_leave_the_same_stones_as_sgfmill(size, seed, length):
    rng = random.Random(seed)
    board = Board(size)
    sb = boards.Board(size)
    for _ in range(length):
        _play_at_random(board, sb, size, rng)
    assert ours(board) == sgfmill_stones(sb, size)
    # The incremental chains and hash agree with a board rebuilt from scratch.
    _agrees_with_a_fresh_board(board, size)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_area_score_matches_sgfmill_without_neutral_points(seed):
    # sgfmill credits a neutral region to both players, which cancels out of B-W.
    from games.engine.rules import get_rules
    from games.engine.scoring import score_position

    rng = random.Random(seed)
    size = rng.choice([5, 9, 13])
    board = Board(size)
    sb = boards.Board(size)
    for _ in range(rng.randint(0, 3 * size * size)):
        _play_at_random(board, sb, size, rng)
    s = score_position(board, get_rules("chinese"), komi=0)  # type: ignore[arg-type]
    assert s.black_area - s.white_area == sb.area_score()


@settings(max_examples=500, deadline=None)
@given(
    size=st.sampled_from([3, 5, 9, 13, 19]),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(0, 60),
)
def test_set_up_chains_built_when_first_touched_capture_as_sgfmill(size, seed, length):
    # A legal position set up at once (its chains left to be built by the moves that
    # touch them), a second set-up midway (stones added and taken off), random plays.
    rng = random.Random(seed)
    scratch = Board(size)
    for _ in range(rng.randint(0, 2 * size * size)):
        i = rng.randrange(size * size)
        if not scratch._cells[i]:
            scratch._place(i, rng.choice((1, 2)))
    stones = scratch.stones()
    board = _set_up(stones, size)
    sb = boards.Board(size)
    sb.apply_setup(
        [(size - 1 - y, x) for (x, y), c in stones.items() if c == 1],
        [(size - 1 - y, x) for (x, y), c in stones.items() if c == 2],
        [],
    )
    for step in range(length):
        if step == length // 2:
            points = [(x, y) for x in range(size) for y in range(size)]
            empty = frozenset(rng.sample(points, size))
            black = frozenset(rng.sample(points, size)) - empty
            board.place_setup(Setup(black=black, empty=empty))
            sb.apply_setup(
                [(size - 1 - y, x) for x, y in black], [], [(size - 1 - y, x) for x, y in empty]
            )
            # sgfmill takes off the chains the set-up left with no liberty: so do we.
            board.remove(set(ours(board)) - set(sgfmill_stones(sb, size)))
            assert ours(board) == sgfmill_stones(sb, size)
        if _play_at_random(board, sb, size, rng):
            assert ours(board) == sgfmill_stones(sb, size)
    # The chains built on the way, and those never touched, agree with a fresh board's.
    _agrees_with_a_fresh_board(board, size)


def _set_up(stones: Mapping[Point, int], size: int) -> Board:
    """A ``size`` board with ``stones`` (1 Black, 2 White) set up at once."""
    board = Board(size)
    board.place_setup(
        Setup(
            black=frozenset(p for p, c in stones.items() if c == 1),
            white=frozenset(p for p, c in stones.items() if c == 2),
        )
    )
    return board


def _agrees_with_a_fresh_board(board: Board, size: int) -> None:
    """Hash, chains and liberties equal those of a board set up afresh with its stones."""
    stones = board.stones()
    fresh = _set_up(stones, size)
    assert fresh.hash == board.hash
    for p in stones:
        assert board.chain(p) == fresh.chain(p) and board.liberties(p) == fresh.liberties(p)
