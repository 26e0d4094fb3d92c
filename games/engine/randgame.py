"""Seeded random legal games, for benchmarks and tests (``bench.engine``,
``bench.rescore``, ``tests/engine``); the application itself never plays one.

Situational superko, never filling one's own true eye (a side with no other move
passes); the same arguments always give the same game.
"""

from __future__ import annotations

import random

from games.engine.board import Board
from games.engine.types import Color, Move


def random_moves(size: int, count: int, seed: int, *, suicide: bool = False) -> list[Move]:
    """``count`` moves (passes included) of a random game on a ``size`` board.

    ``suicide=True`` lets a move take its own last liberty (multi-stone suicide).
    """
    rng = random.Random(seed)
    board = Board(size)
    board.record_position(1)
    t = board._t
    moves: list[Move] = []
    color = 1
    empties = set(range(size * size))
    while len(moves) < count:
        cand = sorted(empties)
        rng.shuffle(cand)
        for i in cand:
            if board._check(i, color, 2, suicide):
                continue
            if all(
                board._cells[n] == color and board._libs[board._head[n]] != t.bit[i]
                for n in t.neigh[i]
            ):
                continue  # an own eye: filling it is pointless
            board._place(i, color)
            empties.discard(i)
            for m in board.last_captured:
                empties.update(m)
            moves.append(Move(Color(color), (i % size, i // size)))
            break
        else:
            board.ko_point = -1
            moves.append(Move(Color(color), None))
        color = 3 - color
        board.record_position(color)
    return moves
