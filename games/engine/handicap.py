"""Where handicap stones go: the fixed points in their order, or a plan for free placement.

The table (19x19, 13x13, 9x9), the order that leaves the far-left corner empty, the
WGA and NZ points, the choice for other board sizes, and nz's White passes:
docs/rules.md, "Handicap placement".
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Placement
from .types import MAX_SIZE, Point

MIN_FIXED_SIZE = 7


@dataclass(frozen=True, slots=True)
class HandicapPlan:
    """What Black does with ``stones`` handicap stones under a placement.

    ``points``: the fixed points in order.  ``white_passes``: White's passes while
    Black plays the stones (nz: N-1).  ``suggested``: the fixed points, offered under
    free placement when the board has them.  Handicap 0 or 1 places no stone.
    """

    stones: int
    placement: Placement
    points: tuple[Point, ...] = ()
    white_passes: int = 0
    suggested: tuple[Point, ...] = ()

    @property
    def is_free(self) -> bool:
        return self.placement in (Placement.FREE, Placement.FREE_WHITE_PASSES)


def max_fixed_stones(size: int) -> int:
    """The largest fixed handicap on a ``size`` board (0 if none)."""
    if not MIN_FIXED_SIZE <= size <= MAX_SIZE:
        return 0
    if size % 2 == 0:
        return 4
    return 9 if size >= 13 else 5


def fixed_points(size: int, stones: int) -> tuple[Point, ...]:
    """The fixed handicap points for ``stones`` on a ``size`` board, in placing order;
    ``ValueError`` naming the size and count when there are none (1 stone included)."""
    most = max_fixed_stones(size)
    if most == 0:
        raise ValueError(
            f"no fixed handicap placement on a {size}x{size} board "
            f"(boards {MIN_FIXED_SIZE}x{MIN_FIXED_SIZE} to {MAX_SIZE}x{MAX_SIZE})"
        )
    if not 2 <= stones <= most:
        raise ValueError(
            f"no fixed placement for {stones} handicap stones on a {size}x{size} board "
            f"(2-{most} stones)"
        )
    line = 3 if size < 13 else 4
    lo, hi, mid = line - 1, size - line, size // 2
    top_right, bottom_left, bottom_right, top_left = (hi, lo), (lo, hi), (hi, hi), (lo, lo)
    right, left, top, bottom, centre = (hi, mid), (lo, mid), (mid, lo), (mid, hi), (mid, mid)
    corners = [top_right, bottom_left, bottom_right, top_left]
    if stones <= 4:
        return tuple(corners[:stones])
    by_count: dict[int, list[Point]] = {
        5: [centre],
        6: [right, left],
        7: [right, left, centre],
        8: [right, left, top, bottom],
        9: [right, left, top, bottom, centre],
    }
    return tuple(corners + by_count[stones])


def setup_for(placement: Placement | str, size: int, stones: int) -> HandicapPlan:
    """How ``stones`` handicap stones are placed under ``placement`` (a ``Placement`` or
    its value).  ``ValueError`` for an unknown placement, a negative count, a count
    that does not fit the board, and fixed counts the board has no points for.
    """
    try:
        how = Placement(placement)
    except ValueError:
        known = ", ".join(p.value for p in Placement)
        raise ValueError(f"unknown handicap placement {placement!r} (one of {known})") from None
    if stones < 0:
        raise ValueError(f"a handicap cannot be negative ({stones})")
    if stones <= 1:
        return HandicapPlan(stones=stones, placement=how)
    if how is Placement.NONE:
        raise ValueError(f"these rules have no handicap, but {stones} stones were asked for")
    if how is Placement.FIXED:
        return HandicapPlan(stones=stones, placement=how, points=fixed_points(size, stones))
    if stones >= size * size:
        raise ValueError(f"{stones} handicap stones do not fit on a {size}x{size} board")
    suggested = fixed_points(size, stones) if 2 <= stones <= max_fixed_stones(size) else ()
    passes = stones - 1 if how is Placement.FREE_WHITE_PASSES else 0
    return HandicapPlan(stones=stones, placement=how, white_passes=passes, suggested=suggested)
