"""Where handicap stones go.

Fixed placement follows ratings.md section 5 (seen from Black, top of the
diagram = far side):

* 19x19 and 13x13, 2-9 stones, star points on the 4th line; 9x9, 2-5
  stones, points on the 3rd line.  Order: top-right, bottom-left,
  bottom-right, top-left (2-3 stones leave the far-left corner empty);
  5 = four corners + centre; 6 = four + right and left sides; 7 = six +
  centre; 8 = four + all four sides; 9 = eight + centre.
* The AGA order (rules.md, ``aga`` row: Q16, D4, Q4, D16, ...) is this same
  order, so there is one table.  GTP's ``fixed_handicap`` differs at 3
  stones (it leaves the lower-right corner empty) and is not used.
* WGA 9x9 points A-E (seed 000) are assumed to be the 3-3 points plus
  tengen in the table's order (ratings.md 5 marks this unverified).
* NZ's traditional points (seed 001: 2-4, 6, 8-9 in order; 5 = a-d + i;
  7 = a-f + i) are taken to be the same points in the same order.

Other sizes (goref's decision; the sources cover 9, 13 and 19 only): the
same pattern on the 3rd line for boards 7-12 and on the 4th line for 13-25.
Odd boards of 13 and more take 2-9 stones; odd boards of 7-11 take 2-5 (as
9x9); even boards have no centre or side midpoints and take 2-4.  Boards
below 7 have no fixed placement.

Free placement (chinese, tromp-taylor) lets Black put the stones anywhere
before White's first move.  Under nz Black plays them as moves while White
passes the first N-1 times (rules.md, ``nz`` row).
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Placement
from .types import MAX_SIZE, Point

MIN_FIXED_SIZE = 7


@dataclass(frozen=True, slots=True)
class HandicapPlan:
    """What Black does with ``stones`` handicap stones under a placement.

    ``points`` are the fixed points, in order (empty for free placement).
    ``white_passes`` is how many times White passes while Black places the
    stones as moves (nz: N-1).  ``suggested`` are the traditional points a
    player may choose under free placement, when the board has them.
    A handicap of 0 or 1 means no stones: Black simply moves first.
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
    """The fixed handicap points for ``stones`` on a ``size`` board, in placing order.

    Raises ``ValueError`` naming the size and count when there is no fixed
    placement for them (fewer than 2 stones included: a handicap of 1 places
    no stone).
    """
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
    """How ``stones`` handicap stones are placed under ``placement``.

    ``placement`` is a ruleset's ``Rules.placement`` (``rules.Placement``,
    which every preset sets, nz included: ``FREE_WHITE_PASSES``) or its
    value (``"fixed"``, ``"free"``, ``"free-white-passes"``, ``"none"``).
    Raises ``ValueError`` for an unknown placement, a negative count, a
    count that does not fit the board, and fixed counts the board has no
    points for.
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
