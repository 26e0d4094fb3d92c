"""The final position of a game, drawn for the game page.

The record is replayed tolerantly, so an illegal move still gets a diagram and the
page lists what was wrong; no record, or one the engine cannot read, gives an empty
board (with the reader's message), never a 500.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe

from games.engine.coords import CoordinateError, parse_point
from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import UnknownRules, get_rules
from games.engine.types import Color, Point
from games.models import Game
from games.svg import board_svg


@dataclass(slots=True)
class Diagram:
    svg: SafeString
    size: int
    moves: int = 0
    has_record: bool = False
    warnings: list[str] = field(default_factory=list)


def game_diagram(game: Game) -> Diagram:
    size = game.tournament.board_size
    stones: dict[Point, Color] = {}
    last: Point | None = None
    moves = 0
    warnings: list[str] = [str(w) for w in (game.sgf_warnings or [])]
    has_record = bool(game.sgf.strip())
    if has_record:
        try:
            record = parse_record(game.sgf)
            result = replay(record, get_rules(game.rules or game.tournament.rules), strict=False)
        except (ValueError, UnknownRules) as exc:
            warnings.append(f"The record could not be read: {exc}")
        else:
            size = record.size
            stones = result.board.stones()
            moves = result.moves_played
            if result.last_move is not None and result.last_move.point in stones:
                last = result.last_move.point
            for note in [*record.warnings, *(v.describe() for v in result.violations)]:
                if note not in warnings:
                    warnings.append(note)
    dead: list[Point] = []
    for text in game.dead_stones or []:
        try:
            p = parse_point(str(text), size)
        except (CoordinateError, ValueError):
            continue
        if p in stones:
            dead.append(p)
    # No record, no board: an empty grid reads as "nothing was played".
    svg = board_svg(size, stones, last_move=last, dead=dead) if has_record else ""
    # board_svg builds its markup from numbers and fixed labels only.
    return Diagram(
        svg=mark_safe(svg),
        size=size,
        moves=moves,
        has_record=has_record,
        warnings=warnings,
    )
