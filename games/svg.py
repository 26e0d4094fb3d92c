"""A Go board drawn as an SVG string: the final position on the game page and the
stone-removal page.

Pure function, standard library and the engine only; labels as docs/rules.md,
"Points and coordinates".  Nothing a user typed reaches it as text, but every label
still goes through ``escape`` so a later caller who adds one cannot break the markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from games.engine.coords import GTP_COLUMNS, check_size, point_to_gtp
from games.engine.handicap import fixed_points, max_fixed_stones
from games.engine.types import Color, Point

CELL = 24  # pixels between two lines
STONE_R = CELL * 0.47
HOSHI_R = CELL * 0.1


def star_points(size: int) -> tuple[Point, ...]:
    """The hoshi: the points of the largest fixed handicap (docs/rules.md, "Handicap
    placement"), which are the star points of 9x9, 13x13 and 19x19; none under 7x7."""
    most = max_fixed_stones(size)
    return fixed_points(size, most) if most >= 2 else ()


def _num(v: float) -> str:
    """Short, locale-free numbers: 12.0 -> "12", 11.28 -> "11.28"."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class _Frame:
    """A board's geometry in pixels: ``size`` columns, ``rows`` rows."""

    size: int
    rows: int
    margin: float

    @property
    def span(self) -> float:
        return CELL * (self.size - 1)

    @property
    def span_y(self) -> float:
        return CELL * (self.rows - 1)

    @property
    def total(self) -> float:
        return self.span + 2 * self.margin

    @property
    def total_y(self) -> float:
        return self.span_y + 2 * self.margin

    def at(self, line: int) -> float:
        """The pixel of a line, either way: both axes have the same margin and spacing."""
        return self.margin + line * CELL

    def check(self, p: Point, what: str) -> None:
        x, y = p
        if not (0 <= x < self.size and 0 <= y < self.rows):
            raise ValueError(f"{what} {p!r} is not on a {self.size}x{self.rows} board")


def board_svg(
    size: int,
    stones: Mapping[Point, Color],
    *,
    last_move: Point | None = None,
    dead: Iterable[Point] = (),
    unsure: Iterable[Point] = (),
    clickable: bool = False,
    coordinates: bool = True,
    height: int | None = None,
    label: str | None = None,
) -> str:
    """Draw a ``size`` x ``size`` board with ``stones`` on it (``size`` columns by
    ``height`` rows for a rectangular board, which has no star points).

    ``last_move`` gets a ring on its stone (class ``last-move``); each point
    of ``dead`` gets a cross (class ``dead-mark``), each point of ``unsure`` a
    square (class ``unsure-mark``).  With ``clickable`` every stone gets the class
    ``clickable`` and its label in ``data-point`` (``D4``), for a page script that
    acts on a click.  ``label`` is the picture's text alternative, in the reader's
    language (by default an English one).  Points off the board raise ``ValueError``:
    a caller with a bad position should not get a silently wrong picture.
    """
    check_size(size, height)
    rows = size if height is None else height
    f = _Frame(size, rows, CELL * (1.25 if coordinates else 0.75))
    total, total_y = _num(f.total), _num(f.total_y)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total} {total_y}" '
        f'width="{total}" height="{total_y}" role="img" '
        f"aria-label={quoteattr(label or f'{size}x{rows} Go board, {len(stones)} stones')} "
        'class="goban">',
        f'<rect class="wood" x="0" y="0" width="{total}" height="{total_y}" fill="#dcb35c"/>',
    ]
    _grid(out, f)
    if coordinates:
        _coordinates(out, f)
    _stones(out, f, stones, clickable)
    # The marks drawn over a stone let a click through to the stone under them.
    _unsure(out, f, sorted(set(unsure)))
    if last_move is not None:
        f.check(last_move, "last move")
        on = stones.get(last_move)
        ring = "#fff" if on is Color.BLACK else "#c00" if on is None else "#000"
        out.append(
            f'<circle class="last-move" cx="{_num(f.at(last_move[0]))}" '
            f'cy="{_num(f.at(last_move[1]))}" r="{_num(STONE_R * 0.5)}" fill="none" '
            f'stroke="{ring}" stroke-width="2" pointer-events="none"/>'
        )
    _dead(out, f, sorted(set(dead)))
    out.append("</svg>")
    return "".join(out)


def _grid(out: list[str], f: _Frame) -> None:
    """The lines and, on a square board, the star points."""
    margin, at = f.margin, f.at
    out.append('<g class="grid" stroke="#000" stroke-width="1">')
    for i in range(f.size):
        c = _num(at(i))
        out.append(f'<line x1="{c}" y1="{_num(margin)}" x2="{c}" y2="{_num(margin + f.span_y)}"/>')
    for i in range(f.rows):
        c = _num(at(i))
        out.append(f'<line x1="{_num(margin)}" y1="{c}" x2="{_num(margin + f.span)}" y2="{c}"/>')
    out.append("</g>")
    out.append('<g class="hoshi" fill="#000">')
    for x, y in star_points(f.size) if f.rows == f.size else ():
        out.append(f'<circle cx="{_num(at(x))}" cy="{_num(at(y))}" r="{_num(HOSHI_R)}"/>')
    out.append("</g>")


def _coordinates(out: list[str], f: _Frame) -> None:
    """Column letters above and below, row numbers left and right (row 1 at the bottom)."""
    out.append(
        '<g class="coordinates" font-family="sans-serif" font-size="11" fill="#000" '
        'text-anchor="middle" dominant-baseline="central">'
    )
    for i in range(f.size):
        letter = escape(GTP_COLUMNS[i])
        c = _num(f.at(i))
        for edge in (f.margin * 0.4, f.total_y - f.margin * 0.4):
            out.append(f'<text class="col" x="{c}" y="{_num(edge)}">{letter}</text>')
    for i in range(f.rows):
        number = escape(str(f.rows - i))
        c = _num(f.at(i))
        for edge in (f.margin * 0.4, f.total - f.margin * 0.4):
            out.append(f'<text class="row" x="{_num(edge)}" y="{c}">{number}</text>')
    out.append("</g>")


def _stones(out: list[str], f: _Frame, stones: Mapping[Point, Color], clickable: bool) -> None:
    out.append('<g class="stones">')
    for p, color in sorted(stones.items()):
        f.check(p, "stone")
        fill, stroke = ("#000", "#000") if color is Color.BLACK else ("#fff", "#000")
        classes = "stone black" if color is Color.BLACK else "stone white"
        data = ""
        if clickable:
            classes += " clickable"
            data = f" data-point={quoteattr(point_to_gtp(p, f.size, f.rows))}"
        out.append(
            f'<circle class="{classes}" cx="{_num(f.at(p[0]))}" cy="{_num(f.at(p[1]))}" '
            f'r="{_num(STONE_R)}" fill="{fill}" stroke="{stroke}" stroke-width="1"{data}/>'
        )
    out.append("</g>")


def _unsure(out: list[str], f: _Frame, points: list[Point]) -> None:
    if not points:
        return
    out.append(
        '<g class="unsure" fill="none" stroke="#1f6fd0" stroke-width="2" pointer-events="none">'
    )
    h = STONE_R * 0.72
    for p in points:
        f.check(p, "unsure stone")
        out.append(
            f'<rect class="unsure-mark" x="{_num(f.at(p[0]) - h)}" y="{_num(f.at(p[1]) - h)}" '
            f'width="{_num(2 * h)}" height="{_num(2 * h)}"/>'
        )
    out.append("</g>")


def _dead(out: list[str], f: _Frame, points: list[Point]) -> None:
    if not points:
        return
    out.append(
        '<g class="dead" stroke="#c00" stroke-width="2.5" stroke-linecap="round" '
        'pointer-events="none">'
    )
    d = STONE_R * 0.55
    for p in points:
        f.check(p, "dead stone")
        px, py = f.at(p[0]), f.at(p[1])
        out.append(
            f'<path class="dead-mark" d="M{_num(px - d)} {_num(py - d)}L{_num(px + d)} '
            f'{_num(py + d)}M{_num(px + d)} {_num(py - d)}L{_num(px - d)} {_num(py + d)}"/>'
        )
    out.append("</g>")
