"""Shared helpers for the engine tests: records from GTP moves.

Random games come from ``games.engine.randgame.random_moves`` (shared with the benchmarks).
"""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from games.engine.board import Board
from games.engine.types import Color, GameRecord, Move, Point, Setup

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

# The keys of a count as JSON (``Score.to_dict``, the command line's ``score --json``).
SCORE_KEYS = (
    "rules",
    "komi",
    "result",
    "winner",
    "margin",
    "black_area",
    "white_area",
    "black_territory",
    "white_territory",
    "black_prisoners",
    "white_prisoners",
    "dame",
    "white_passed_first",
)


ROOT = Path(__file__).resolve().parents[2]


def run_engine(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m games.engine ARGS`` in a subprocess from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def pt(name: str, height: int) -> Point:
    """A GTP point on a drawing ``height`` rows tall (row 1 at its bottom).

    Points are (x, y) from the top-left, so a drawing may be padded with
    empty rows at the bottom to make a square board without moving its points.
    """
    return (COLUMNS.index(name[0].upper()), height - int(name[1:]))


def setup_from(board: Board) -> Setup:
    stones = board.stones()
    return Setup(
        black=frozenset(p for p, c in stones.items() if c is Color.BLACK),
        white=frozenset(p for p, c in stones.items() if c is Color.WHITE),
    )


def record(
    drawing: str,
    moves: str,
    *,
    height: int | None = None,
    first: Color | None = None,
    komi: Decimal | None = None,
) -> GameRecord:
    """A record from an ASCII start position and moves like ``"B A5 W A4 B pass"``."""
    board = Board.from_ascii(drawing)
    h = height or board.size
    tokens = moves.split()
    acts = []
    for color, where in zip(tokens[::2], tokens[1::2], strict=True):
        c = Color.from_letter(color)
        acts.append(Move(c, None if where.lower() == "pass" else pt(where, h)))
    return GameRecord(
        size=board.size, komi=komi, setup=setup_from(board), actions=tuple(acts), first_player=first
    )
