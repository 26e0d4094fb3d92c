"""What the Go properties of an SGF node say: the board's size, komi (with Fox's
and GoGoD's quirks), the handicap, who plays first, point lists, set-ups and moves
(docs/formats.md, "Reading an SGF file")."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import cache

from .coords import (
    CoordinateError,
    board_shape,
    expand_sgf_points,
    is_sgf_pass,
    point_to_sgf,
    sgf_to_point,
)
from .result import Reason, Result, ResultError
from .sgf import Node
from .types import MAX_SIZE, MIN_SIZE, Color, Move, Point, Setup

# Fox (AP[foxwq]) writes komi scaled (docs/formats.md, "Komi quirks").
FOX_KOMI = {
    Decimal(375): Decimal("7.5"),
    Decimal(750): Decimal("7.5"),
    Decimal(325): Decimal("6.5"),
    Decimal(650): Decimal("6.5"),
    Decimal(275): Decimal("5.5"),
    Decimal(550): Decimal("5.5"),
    Decimal(350): Decimal(7),
    Decimal(700): Decimal(7),
}
# The name Fox's records give in AP.
_FOX_APPS = ("foxwq",)
# GoGoD writes Chinese komi in stones: these quarter values mean "double me".
GOGOD_QUARTER_KOMI = frozenset({Decimal("2.75"), Decimal("3.25"), Decimal("3.75")})
_MAX_RAW_KOMI = 1000  # above Fox's 750; keeps absurd exponents out of the arithmetic
# A compressed list (AB[aa:yy]) is 7 bytes for 625 points: without a cap, 1 MB
# of them would expand to tens of millions of points.  Real records list a few
# hundred; this leaves room for files that redraw the whole board in setup nodes.
MAX_LISTED_POINTS = 250_000


def read_size(root: Node) -> tuple[int, int | None]:
    """Columns and rows: ``SZ[19]``, or ``SZ[19:13]`` for a rectangular board (FF[4]);
    rows is None when the board is square (``SZ[9:9]`` included)."""
    raw = root.get("SZ")
    if raw is None:
        return 19, None
    text = raw.strip()
    cols, colon, rows = text.partition(":")
    sizes = []
    for part in (cols, rows) if colon else (cols,):
        part = part.strip()
        if not part.isascii() or not part.isdigit():
            raise root.error("SZ", f"size {raw!r} is not a number")
        n = int(part)
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise root.error("SZ", f"size {n} is out of range ({MIN_SIZE}-{MAX_SIZE})")
        sizes.append(n)
    size = sizes[0]
    return size, (sizes[1] if colon and sizes[1] != size else None)


def read_komi(root: Node, warnings: list[str]) -> Decimal | None:
    raw = root.get("KM")
    if raw is None or not raw.strip():
        return None
    try:
        komi = Decimal(raw.strip())
    except InvalidOperation:
        warnings.append(f"KM[{raw}] is not a number: komi unknown")
        return None
    if not komi.is_finite() or abs(komi) > _MAX_RAW_KOMI:
        warnings.append(f"KM[{raw}] is out of range: komi unknown")
        return None
    if komi in FOX_KOMI:
        # Fox writes AP twice (AP[GNU Go:3.8] ... AP[foxwq]): any value names it.
        # No real komi is this large, so the scaled value is read whoever wrote it.
        fox = any(v.strip().lower().startswith(_FOX_APPS) for v in root.values("AP"))
        komi = FOX_KOMI[komi]
        source = "Fox record" if fox else "Fox's scaled komi"
        warnings.append(f"{source}: KM[{raw}] read as komi {format_decimal(komi)}")
    elif komi in GOGOD_QUARTER_KOMI:
        warnings.append(
            f"quarter komi KM[{raw}] (GoGoD Chinese) doubled to {format_decimal(komi * 2)}"
        )
        komi = komi * 2
    if not _is_half_points(komi):
        warnings.append(f"KM[{raw}] is not a whole or half point: komi unknown")
        return None
    if komi == 0:
        re_text = root.get("RE")
        if re_text is not None and _is_half_point_result(re_text):
            warnings.append(
                f"KM[{raw}] with result {re_text.strip()}: the real komi is missing "
                "from the record, so it is treated as unknown"
            )
            return None
    return _normal(komi)


def _is_half_point_result(text: str) -> bool:
    try:
        result = Result.parse(text)
    except ResultError:
        return False
    return (
        result.reason is Reason.SCORE
        and result.margin is not None
        and result.margin != result.margin.to_integral_value()
    )


def read_handicap(root: Node, size: int, height: int | None, warnings: list[str]) -> int:
    raw = root.get("HA")
    if raw is None or not raw.strip():
        return 0
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3:
        warnings.append(f"HA[{raw}] is not a number of stones: ignored")
        return 0
    handicap = int(text)
    if handicap >= size * (size if height is None else height):
        warnings.append(f"HA[{raw}] does not fit on a {board_shape(size, height)} board: ignored")
        return 0
    return handicap


def read_player(root: Node, warnings: list[str]) -> Color | None:
    raw = root.get("PL")
    if raw is None:
        return None
    try:
        return Color.from_letter(raw.strip())
    except ValueError:
        warnings.append(f"PL[{raw}] is not B or W: ignored")
        return None


class Budget:
    """Points left to expand from point lists in one record (see MAX_LISTED_POINTS)."""

    def __init__(self, points: int) -> None:
        self.left = points


@cache
def _point_table(size: int, height: int | None) -> dict[str, Point]:
    """SGF point values to points, every point of the board: a set-up position of a few
    hundred stones is read by lookups (a compressed list or an error goes the long way)."""
    rows = size if height is None else height
    return {point_to_sgf((x, y)): (x, y) for y in range(rows) for x in range(size)}


def read_points(
    node: Node, ident: str, size: int, height: int | None, budget: Budget
) -> frozenset[Point]:
    values = node.properties.get(ident)
    if not values:
        return frozenset()
    table = _point_table(size, height)
    if len(values) <= budget.left:  # the common case: every value one point, looked up
        found = frozenset(map(table.get, values))
        if None not in found:
            budget.left -= len(values)
            return found  # type: ignore[return-value]  # None is not in it
    points: set[Point] = set()
    for value in values:
        single = table.get(value)
        if single is not None and budget.left > 0:
            budget.left -= 1
            points.add(single)
            continue
        value = value.strip()
        if not value:  # TB[] and AE[] are written for "none"
            continue
        try:
            expanded = expand_sgf_points(value, size, height)
        except CoordinateError as e:
            raise node.error(ident, str(e)) from None
        budget.left -= len(expanded)
        if budget.left < 0:
            raise node.error(
                ident,
                f"the record lists more than {MAX_LISTED_POINTS:,} set-up or territory points",
            )
        points.update(expanded)
    return frozenset(points)


def read_setup(node: Node, size: int, height: int | None, budget: Budget) -> Setup:
    props = node.properties
    if "AB" not in props and "AW" not in props and "AE" not in props:
        return Setup()
    black = read_points(node, "AB", size, height, budget)
    white = read_points(node, "AW", size, height, budget)
    empty = read_points(node, "AE", size, height, budget)
    for ident, a, b in (("AW", black, white), ("AE", black, empty), ("AE", white, empty)):
        both = a & b
        if both:
            shown = ", ".join(sorted(point_to_sgf(p) for p in both))
            raise node.error(ident, f"point {shown} is set up twice in one node")
    return Setup(black=black, white=white, empty=empty)


def read_move(node: Node, size: int, height: int | None = None) -> Move | None:
    props = node.properties
    has_b, has_w = "B" in props, "W" in props
    if has_b and has_w:
        raise node.error("W", "a node cannot hold both a black (B) and a white (W) move")
    if not (has_b or has_w):
        return None
    ident = "B" if has_b else "W"
    values = node.values(ident)
    if len(values) != 1:
        raise node.error(ident, f"a move has one point, not {len(values)}")
    value = values[0].strip()
    if is_sgf_pass(value, size, height):
        return Move(Color.from_letter(ident), None)
    try:
        point = sgf_to_point(value, size, height)
    except CoordinateError as e:
        raise node.error(ident, str(e)) from None
    return Move(Color.from_letter(ident), point)


def _is_half_points(d: Decimal) -> bool:
    return (d * 2) == (d * 2).to_integral_value()


def _normal(d: Decimal) -> Decimal:
    """7.50 -> 7.5 and 7.0 -> 7: one form per value."""
    return Decimal(int(d)) if d == d.to_integral_value() else d.normalize()


def format_decimal(d: Decimal) -> str:
    """A komi as SGF writes it: ``7.5``, ``7`` (never ``7.0`` or ``7.50``)."""
    return str(int(d)) if d == d.to_integral_value() else format(d.normalize(), "f")
