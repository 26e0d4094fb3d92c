"""Board coordinates: SGF letters (``dp``) and letters-and-numbers (``D4``).

Points are ``(x, y)``, zero-based from the top-left corner, as in ``types``.  Both
forms, passes and point lists: docs/rules.md, "Points and coordinates".  A point with
digits is letters-and-numbers, one without is SGF, so the two cannot be confused.
"""

from __future__ import annotations

import re

from .types import MAX_SIZE, MIN_SIZE, Point

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I: 25 letters
_SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_GTP_RE = re.compile(r"^([A-HJ-Za-hj-z])([0-9]{1,2})$")
_SEPARATORS = re.compile(r"[\s,;]+")


class CoordinateError(ValueError):
    """A point that cannot be read, or that lies off the board.

    The message names the text and the board size, e.g.
    ``"Z9 is not on a 19x19 board"``.  Every function here takes the board's
    ``size`` (its columns) and, for a rectangular board (SGF ``SZ[w:h]``), its
    ``height`` (rows); without it the board is square.
    """

    def __init__(self, text: str, size: int, reason: str = "", height: int | None = None) -> None:
        self.text = text
        self.size = size
        shape = board_shape(size, height)
        self.reason = reason or f"is not on a {shape} board"
        where = "" if not reason else f" (board size {shape})"
        super().__init__(f"{text!r} {self.reason}{where}")


def board_shape(size: int, height: int | None = None) -> str:
    """``19x19``, or columns by rows (``19x13``) for a rectangular board."""
    return f"{size}x{size if height is None else height}"


def check_size(size: int, height: int | None = None) -> None:
    """Refuse a board size (or a rectangle's columns or rows) outside 2..25."""
    for n in (size, size if height is None else height):
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise ValueError(f"board size {n} is out of range ({MIN_SIZE}-{MAX_SIZE})")


def _on_board(p: Point, size: int, height: int | None = None) -> bool:
    return 0 <= p[0] < size and 0 <= p[1] < (size if height is None else height)


def sgf_to_point(s: str, size: int, height: int | None = None) -> Point:
    """``"dp"`` -> ``(3, 15)``.  Passes (``""``, ``"tt"``) are not points here:
    see ``is_sgf_pass``."""
    check_size(size, height)
    if len(s) != 2 or s[0] not in _SGF_LETTERS or s[1] not in _SGF_LETTERS:
        raise CoordinateError(
            s, size, "is not an SGF point (two lowercase letters, such as dd)", height
        )
    p = (ord(s[0]) - 97, ord(s[1]) - 97)
    if not _on_board(p, size, height):
        raise CoordinateError(s, size, height=height)
    return p


def point_to_sgf(p: Point) -> str:
    """``(3, 15)`` -> ``"dp"``."""
    x, y = p
    if not (0 <= x < 26 and 0 <= y < 26):
        raise ValueError(f"point {p!r} has no SGF letters")
    return _SGF_LETTERS[x] + _SGF_LETTERS[y]


def is_sgf_pass(s: str, size: int, height: int | None = None) -> bool:
    """``B[]`` is a pass; ``B[tt]`` too, but only on boards up to 19x19 (on larger
    boards ``tt`` is a real point)."""
    return s == "" or (s == "tt" and max(size, height or 0) <= 19)


def gtp_to_point(s: str, size: int, height: int | None = None) -> Point:
    """``"D4"`` (or ``"d4"``) -> ``(3, height - 4)``."""
    check_size(size, height)
    rows = size if height is None else height
    m = _GTP_RE.match(s.strip())
    if not m:
        raise CoordinateError(
            s,
            size,
            "is not a point such as D4 (a column letter without I, then a row number)",
            height,
        )
    x = GTP_COLUMNS.index(m.group(1).upper())
    row = int(m.group(2))
    if not 1 <= row <= rows or x >= size:
        raise CoordinateError(s, size, height=height)
    return (x, rows - row)


def point_to_gtp(p: Point, size: int, height: int | None = None) -> str:
    """``(3, 15)`` on 19x19 -> ``"D4"`` (rows counted up from the bottom row)."""
    check_size(size, height)
    if not _on_board(p, size, height):
        raise ValueError(f"point {p!r} is not on a {board_shape(size, height)} board")
    return f"{GTP_COLUMNS[p[0]]}{(size if height is None else height) - p[1]}"


def parse_point(text: str, size: int, height: int | None = None) -> Point:
    """Read one point in either form: ``D4``/``d4`` (has digits) or ``dp``."""
    s = text.strip()
    if any(c.isdigit() for c in s):
        return gtp_to_point(s, size, height)
    if len(s) == 2 and s.isalpha() and s.isupper():
        raise CoordinateError(
            text,
            size,
            "is not a point: SGF points are lowercase letters, GTP points have a row",
            height,
        )
    return sgf_to_point(s, size, height)


def parse_points(text: str, size: int, height: int | None = None) -> tuple[Point, ...]:
    """Read a list such as ``"D4,E5 q16"`` (commas, semicolons or spaces).

    Order is kept and repeats are dropped.  An empty text is an empty list.
    """
    out: dict[Point, None] = {}
    for item in _SEPARATORS.split(text):
        if item:
            out[parse_point(item, size, height)] = None
    return tuple(out)


def expand_sgf_points(value: str, size: int, height: int | None = None) -> tuple[Point, ...]:
    """One value of an SGF point list, plain (``dd``) or compressed (``aa:cc``,
    the rectangle between two corners, FF[4] "list of point")."""
    if ":" not in value:
        return (sgf_to_point(value, size, height),)
    a, _, b = value.partition(":")
    (x1, y1), (x2, y2) = sgf_to_point(a, size, height), sgf_to_point(b, size, height)
    return tuple(
        (x, y)
        for y in range(min(y1, y2), max(y1, y2) + 1)
        for x in range(min(x1, x2), max(x1, x2) + 1)
    )
