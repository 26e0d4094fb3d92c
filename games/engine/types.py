"""Core value types shared by every part of the rules engine.

Points are ``(x, y)`` tuples, zero-based, ``x`` the column from the left and ``y`` the
row from the top (SGF's orientation: ``"aa"`` is ``(0, 0)``); ``None`` is a pass.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from decimal import Decimal

Point = tuple[int, int]

MIN_SIZE = 2
MAX_SIZE = 25


class Color(enum.IntEnum):
    """A stone colour.  ``int(Color.BLACK) == 1`` and ``int(Color.WHITE) == 2``."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``"B"`` or ``"W"``, as in SGF and in result strings."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        up = letter.upper()
        if up == "B":
            return cls.BLACK
        if up == "W":
            return cls.WHITE
        raise ValueError(f"not a colour: {letter!r} (expected B or W)")


@dataclass(frozen=True, slots=True)
class Move:
    """One move of a game record.  ``point is None`` is a pass."""

    color: Color
    point: Point | None

    @property
    def is_pass(self) -> bool:
        return self.point is None


@dataclass(frozen=True, slots=True)
class Setup:
    """Stones put on or taken off the board without a move (SGF AB/AW/AE)."""

    black: frozenset[Point] = frozenset()
    white: frozenset[Point] = frozenset()
    empty: frozenset[Point] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.black or self.white or self.empty)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The main line of one game, as the engine replays it.

    ``setup`` is the root node's AB/AW/AE (handicap stones included).
    ``actions`` is the main line after the root in order: a ``Move`` per
    move node and a ``Setup`` where a later node adds or removes stones.
    Only ``Move`` items are numbered (1-based, passes count).
    ``komi`` is ``None`` when the record does not give it.  ``info`` holds
    the root's game-info properties (PB, PW, RE, RU, DT, ...) as text.
    ``territory_black`` / ``territory_white`` are the final node's TB/TW
    markup, used to read dead stones.  ``warnings`` are the reader's notes
    on quirks it corrected (``record.parse_record``).
    """

    size: int = 19
    # Rows of a rectangular board (SGF SZ[columns:rows]); None when square.
    height: int | None = None
    komi: Decimal | None = None
    handicap: int = 0
    setup: Setup = field(default_factory=Setup)
    actions: tuple[Move | Setup, ...] = ()
    first_player: Color | None = None  # SGF PL on the root, if given
    info: dict[str, str] = field(default_factory=dict)
    territory_black: frozenset[Point] = frozenset()
    territory_white: frozenset[Point] = frozenset()
    # Things the reader noticed and worked around (Fox komi, HA[1], KM[0]
    # with a half-point RE, ...): shown to the referee, never fatal.
    warnings: tuple[str, ...] = ()
    charset: str | None = None  # how the file's bytes were read ("UTF-8", "GB18030", ...)

    @property
    def rows(self) -> int:
        return self.size if self.height is None else self.height

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(a for a in self.actions if isinstance(a, Move))
