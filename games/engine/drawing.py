"""Boards drawn as text, top row first: the positions tests are written in, and
what a board's ``repr`` shows."""

from __future__ import annotations

from .types import Setup

_STONE_CHARS = {"x": 1, "X": 1, "#": 1, "b": 1, "B": 1, "o": 2, "O": 2, "w": 2, "W": 2}
_EMPTY_CHARS = {".", "+", "-"}


def read_drawing(text: str) -> tuple[int, int, Setup]:
    """The columns, rows and stones of a drawing (``x``/``X``/``#`` Black, ``o``/``O``
    White, ``.``/``+`` empty; whitespace between points optional)."""
    rows: list[list[int]] = []
    for line in text.strip().splitlines():
        cells = []
        for ch in line:
            if ch.isspace():
                continue
            if ch in _STONE_CHARS:
                cells.append(_STONE_CHARS[ch])
            elif ch in _EMPTY_CHARS:
                cells.append(0)
            else:
                raise ValueError(f"unexpected character {ch!r} in board drawing")
        if cells:
            rows.append(cells)
    size = len(rows[0]) if rows else 0
    if any(len(r) != size for r in rows):
        raise ValueError(f"board drawing rows differ in length: {[len(r) for r in rows]}")
    black = frozenset((x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == 1)
    white = frozenset((x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == 2)
    return size, len(rows), Setup(black=black, white=white)


def draw(cells: list[int], size: int, height: int) -> str:
    """The drawing of flat cells (0 empty, 1 Black, 2 White; index ``y*size+x``)."""
    chars = ".xo"
    return "\n".join(
        "".join(chars[cells[y * size + x]] for x in range(size)) for y in range(height)
    )
