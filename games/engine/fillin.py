"""WMSG 2008 fill-in counting (seed 003, Appendix 1; rules.md (b)).

The margin is a plain area count, B_area - W_area - komi - (1 if White made
the first pass of the game), each area holding half of the shared seki
points.  The referee also reads out the fill-in procedure; ``fill_in``
computes every step of it from five numbers so the six worked games of the
seed can be checked from their published figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .types import Color


@dataclass(frozen=True, slots=True)
class FillIn:
    """The fill-in breakdown.  Counts are stones or points; ``margin`` is B - W.

    ``black_empty`` / ``white_empty``: empty points left in each area once
    Black has filled its S stones (and White's K komi stones sit in Black's
    area) and White its S - K stones; negative means that many losing stones.
    """

    board_points: int
    black_area: Decimal
    white_area: Decimal
    komi: Decimal
    white_passed_first: bool
    stones_per_side: int
    komi_stones: int
    komi_remainder: Decimal
    black_empty: int
    white_empty: int
    losing_stones: int
    losing_color: Color | None
    empty_left: int
    winning_territory: int
    winning_territory_owner: Color | None
    margin: Decimal
    procedure_margin: Decimal

    def to_dict(self) -> dict[str, Any]:
        return {
            "board_points": self.board_points,
            "black_area": _num(self.black_area),
            "white_area": _num(self.white_area),
            "komi": _num(self.komi),
            "white_passed_first": self.white_passed_first,
            "stones_per_side": self.stones_per_side,
            "komi_stones": self.komi_stones,
            "komi_remainder": _num(self.komi_remainder),
            "losing_stones": self.losing_stones,
            "losing_color": self.losing_color.letter if self.losing_color else None,
            "empty_left": self.empty_left,
            "winning_territory": self.winning_territory,
            "winning_territory_owner": (
                self.winning_territory_owner.letter if self.winning_territory_owner else None
            ),
            "margin": _num(self.margin),
        }


def _num(d: Decimal) -> int | float:
    """JSON number: an int when whole, else a float (values are in half points)."""
    return int(d) if d == d.to_integral_value() else float(d)


def fill_in(
    board_points: int,
    black_area: Decimal,
    white_area: Decimal,
    komi: Decimal,
    white_passed_first: bool,
) -> FillIn:
    """Every step of the fill-in procedure (rules.md (b), steps 1-6).

    1. S = floor(P/2) stones per side.  2. K = floor(komi/2) White komi
    stones go into Black's area; r = komi - 2K is left.  3. Black fills
    its area with S stones, White its area with S - K.  4. Stones that do
    not fit are losing stones, put in the opponent's remaining empty points.
    5. WT = empty points left in the winner's area + 2 per losing stone.
    6. Black owns WT: margin WT - r - p; White: -(WT + r + p); nobody: -r - p.
    An odd number of seki points leaves one empty, worth half to each side:
    the areas' half points are not filled.
    """
    black_area = Decimal(black_area)
    white_area = Decimal(white_area)
    komi = Decimal(komi)
    p = 1 if white_passed_first else 0
    stones = board_points // 2
    k = math.floor(komi / 2)
    r = komi - 2 * k
    e_black = math.floor(black_area) - k - stones
    e_white = math.floor(white_area) - (stones - k)
    black_losing = max(0, -e_black)
    white_losing = max(0, -e_white)
    wt = e_black - e_white
    owner: Color | None
    if wt > 0:
        owner = Color.BLACK
        empty_left = max(0, e_black) - white_losing
        procedure = Decimal(wt) - r - p
        losing, losing_color = white_losing, (Color.WHITE if white_losing else None)
    elif wt < 0:
        owner = Color.WHITE
        empty_left = max(0, e_white) - black_losing
        procedure = -(Decimal(-wt) + r + p)
        losing, losing_color = black_losing, (Color.BLACK if black_losing else None)
    else:
        owner = None
        empty_left = 0
        procedure = -r - p
        losing, losing_color = 0, None
    return FillIn(
        board_points=board_points,
        black_area=black_area,
        white_area=white_area,
        komi=komi,
        white_passed_first=white_passed_first,
        stones_per_side=stones,
        komi_stones=k,
        komi_remainder=r,
        black_empty=e_black,
        white_empty=e_white,
        losing_stones=losing,
        losing_color=losing_color,
        empty_left=empty_left,
        winning_territory=abs(wt),
        winning_territory_owner=owner,
        margin=black_area - white_area - komi - p,
        procedure_margin=procedure,
    )
