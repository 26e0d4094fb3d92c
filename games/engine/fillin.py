"""Fill-in counting (WMSG 2008 rules, Appendix 1): every step of the procedure, for the
referee sheet, from five numbers, so the six worked games can be checked from their
published figures.  The rules, the procedure and the games: docs/rules.md, "Fill-in
counting".
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

    ``black_empty`` / ``white_empty``: empty points left in each area after the
    filling; negative means that many losing stones.
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
    """Every step of the fill-in procedure (docs/rules.md, "Fill-in counting", steps
    1-6); ``procedure_margin`` always equals the formula's ``margin``."""
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
