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
    ``"Z9 is not on a 19x19 board"``.
    """

    def __init__(self, text: str, size: int, reason: str = "") -> None:
        self.text = text
        self.size = size
        self.reason = reason or f"is not on a {size}x{size} board"
        where = "" if not reason else f" (board size {size}x{size})"
        super().__init__(f"{text!r} {self.reason}{where}")


def _check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is out of range ({MIN_SIZE}-{MAX_SIZE})")


def _on_board(p: Point, size: int) -> bool:
    return 0 <= p[0] < size and 0 <= p[1] < size


def sgf_to_point(s: str, size: int) -> Point:
    """``"dp"`` -> ``(3, 15)``.  Passes (``""``, ``"tt"``) are not points here:
    see ``is_sgf_pass``."""
    _check_size(size)
    if len(s) != 2 or s[0] not in _SGF_LETTERS or s[1] not in _SGF_LETTERS:
        raise CoordinateError(s, size, "is not an SGF point (two lowercase letters, such as dd)")
    p = (ord(s[0]) - 97, ord(s[1]) - 97)
    if not _on_board(p, size):
        raise CoordinateError(s, size)
    return p


def point_to_sgf(p: Point) -> str:
    """``(3, 15)`` -> ``"dp"``."""
    x, y = p
    if not (0 <= x < 26 and 0 <= y < 26):
        raise ValueError(f"point {p!r} has no SGF letters")
    return _SGF_LETTERS[x] + _SGF_LETTERS[y]


def is_sgf_pass(s: str, size: int) -> bool:
    """``B[]`` is a pass; ``B[tt]`` too, but only on boards up to 19x19 (on larger
    boards ``tt`` is a real point)."""
    return s == "" or (s == "tt" and size <= 19)


def gtp_to_point(s: str, size: int) -> Point:
    """``"D4"`` (or ``"d4"``) -> ``(3, size - 4)``."""
    _check_size(size)
    m = _GTP_RE.match(s.strip())
    if not m:
        raise CoordinateError(
            s, size, "is not a point such as D4 (a column letter without I, then a row number)"
        )
    x = GTP_COLUMNS.index(m.group(1).upper())
    row = int(m.group(2))
    if not 1 <= row <= size or x >= size:
        raise CoordinateError(s, size)
    return (x, size - row)


def point_to_gtp(p: Point, size: int) -> str:
    """``(3, 15)`` on 19x19 -> ``"D4"``."""
    _check_size(size)
    if not _on_board(p, size):
        raise ValueError(f"point {p!r} is not on a {size}x{size} board")
    return f"{GTP_COLUMNS[p[0]]}{size - p[1]}"


def parse_point(text: str, size: int) -> Point:
    """Read one point in either form: ``D4``/``d4`` (has digits) or ``dp``."""
    s = text.strip()
    if any(c.isdigit() for c in s):
        return gtp_to_point(s, size)
    if len(s) == 2 and s.isalpha() and s.isupper():
        raise CoordinateError(
            text, size, "is not a point: SGF points are lowercase letters, GTP points have a row"
        )
    return sgf_to_point(s, size)


def parse_points(text: str, size: int) -> tuple[Point, ...]:
    """Read a list such as ``"D4,E5 q16"`` (commas, semicolons or spaces).

    Order is kept and repeats are dropped.  An empty text is an empty list.
    """
    out: dict[Point, None] = {}
    for item in _SEPARATORS.split(text):
        if item:
            out[parse_point(item, size)] = None
    return tuple(out)


def expand_sgf_points(value: str, size: int) -> tuple[Point, ...]:
    """One value of an SGF point list, plain (``dd``) or compressed (``aa:cc``,
    the rectangle between two corners, FF[4] "list of point")."""
    if ":" not in value:
        return (sgf_to_point(value, size),)
    a, _, b = value.partition(":")
    (x1, y1), (x2, y2) = sgf_to_point(a, size), sgf_to_point(b, size)
    return tuple(
        (x, y)
        for y in range(min(y1, y2), max(y1, y2) + 1)
        for x in range(min(x1, x2), max(x1, x2) + 1)
    )
