"""Reading what a result comes with: the RE string, an SGF record, dead stones.

Pure checks, no writes: user input becomes values, or a ``ValidationError`` naming the
field (``result``, ``sgf``, ``dead_stones``).  The engine does the Go; what is accepted:
docs/formats.md and docs/rules.md, "Dead stones".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError

from games.engine import sgf as sgf_syntax
from games.engine.board import Board
from games.engine.coords import CoordinateError, parse_point, point_to_gtp
from games.engine.record import read_text_and_record
from games.engine.replay import replay
from games.engine.result import Reason, Result, ResultError
from games.engine.rules import Rules, jigo_possible
from games.engine.scoring import DeadStoneError, dead_from_markup
from games.engine.sgf import SgfError
from games.engine.types import GameRecord, Point

_SEPARATORS = re.compile(r"[\s,;]+")


def parse_result(text: object, *, field_name: str = "result") -> Result:
    """An SGF RE string as a ``Result``; ``?`` (unknown) is not a result to record."""
    if not isinstance(text, str) or not text.strip():
        raise ValidationError({field_name: "Enter a result such as B+5.5, W+R, B+T, 0 or Void."})
    try:
        result = Result.parse(text)
    except ResultError as e:
        raise ValidationError({field_name: f"{e}."}) from None
    if result.reason is Reason.UNKNOWN:
        raise ValidationError(
            {field_name: "'?' (unknown) is not a result: enter who won and how, or Void."}
        )
    return result


@dataclass
class ReadRecord:
    """A record that the engine could read, with what it said about it."""

    text: str
    record: GameRecord
    final_position: object  # games.engine.board.Board; kept loose for callers
    warnings: list[str] = field(default_factory=list)


def margin_problem(result: Result, komi: Decimal) -> str | None:
    """Why a count cannot end in ``result`` with this komi, or ``None``.  Stones and points
    are whole, so a margin differs from komi by a whole number: with komi 7 every margin is
    whole, with 6.5 every margin ends in .5, and no count ends level."""
    shown = f"{komi.normalize():f}"
    if result.reason is Reason.DRAW and not jigo_possible(komi):
        return f"with komi {shown} there is no jigo: a count ends in half points"
    margin = result.margin
    if result.reason is Reason.SCORE and margin is not None and (margin - komi) % 1 != 0:
        kind = "whole points" if komi % 1 == 0 else "half points (such as 0.5 or 3.5)"
        return f"with komi {shown} a count ends in {kind}, not {margin.normalize():f}"
    return None


def read_record(
    data: str | bytes,
    *,
    board_size: int,
    rules: Rules,
    komi: Decimal | None = None,
    handicap: int | None = None,
    result: Result | None = None,
) -> ReadRecord:
    """Read and replay an SGF record; ``ValidationError`` on ``sgf`` if unreadable.  Illegal
    moves become warnings, kept as evidence (docs/formats.md, "Against the game")."""
    max_bytes = int(getattr(settings, "GOREF_SGF_MAX_BYTES", sgf_syntax.MAX_BYTES))
    try:
        if (b"\x00" in data) if isinstance(data, bytes) else ("\x00" in data):
            # Not text, and PostgreSQL cannot store it: refused before it reaches a row.
            raise ValidationError({"sgf": "The SGF record contains a NUL byte: it is not text."})
        text, record = read_text_and_record(data, max_bytes=max_bytes)
    except SgfError as e:
        raise ValidationError({"sgf": f"The SGF record cannot be read: {e}."}) from None
    if record.height is not None:
        # The engine counts SZ[w:h] boards, but a tournament is played on one
        # square size (Tournament.board_size): a rectangular record has no game.
        raise ValidationError(
            {
                "sgf": f"The record is for a rectangular {record.size}x{record.height} board; "
                f"this tournament plays on {board_size}x{board_size}."
            }
        )
    if record.size != board_size:
        raise ValidationError(
            {
                "sgf": f"The record is for a {record.size}x{record.size} board, "
                f"but this tournament plays on {board_size}x{board_size}."
            }
        )
    played = replay(record, rules, strict=False)
    warnings = list(record.warnings)
    warnings.extend(v.describe() for v in played.violations)
    if komi is not None and record.komi is not None and record.komi != komi:
        warnings.append(f"the record gives komi {record.komi}, the game is played with {komi}")
    if (
        handicap is not None
        and record.handicap != handicap
        and not (handicap <= 1 and record.handicap <= 1)
    ):
        warnings.append(
            f"the record gives handicap {record.handicap}, the game is played with {handicap}"
        )
    claimed = record.info.get("RE", "").strip()
    if result is not None and claimed:
        try:
            same = Result.parse(claimed).same_outcome(result)
        except ResultError:
            same = False
        if not same:
            warnings.append(f"the record says RE[{claimed}], the submitted result is {result}")
    return ReadRecord(text=text, record=record, final_position=played.board, warnings=warnings)


def _split_points(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [item for item in _SEPARATORS.split(value) if item]
    if isinstance(value, list | tuple):
        items: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise ValidationError({"dead_stones": "Dead stones are points such as D4 or dd."})
            items.extend(i for i in _SEPARATORS.split(item) if i)
        return items
    raise ValidationError({"dead_stones": "Dead stones are points such as D4 or dd."})


def parse_dead_stones(value: object, *, board_size: int) -> list[Point]:
    """Points from a list or a comma/space separated text; order kept, repeats dropped."""
    points: dict[Point, None] = {}
    for item in _split_points(value):
        try:
            points[parse_point(item, board_size)] = None
        except CoordinateError as e:
            raise ValidationError({"dead_stones": f"{e}."}) from None
    return list(points)


def check_dead_stones(points: list[Point], *, board: object, rules: Rules) -> None:
    """Dead stones must be stones, and whole chains (a chain lives or dies as one)."""
    assert isinstance(board, Board)
    if points and not rules.remove_dead:
        raise ValidationError(
            {
                "dead_stones": f"Under {rules.name} rules every stone on the board counts: "
                "dead stones must be captured before the game ends."
            }
        )
    size = board.size
    dead = set(points)
    for p in points:
        label = point_to_gtp(p, size)
        if board.get(p) is None:
            raise ValidationError(
                {"dead_stones": f"{label} is an empty point at the end of the record."}
            )
        missing = board.chain(p) - dead
        if missing:
            others = ", ".join(sorted(point_to_gtp(q, size) for q in missing))
            raise ValidationError(
                {
                    "dead_stones": f"{label} is part of a chain whose other stones "
                    f"({others}) are not marked dead."
                }
            )


def dead_from_record(read: ReadRecord) -> list[Point]:
    """The dead stones that the record's TB/TW markup shows (CGoban style)."""
    board = read.final_position
    assert isinstance(board, Board)
    record = read.record
    if not (record.territory_black or record.territory_white):
        return []
    try:
        dead = dead_from_markup(board, record.territory_black, record.territory_white)
    except DeadStoneError as e:
        raise ValidationError({"sgf": f"The territory markup cannot be read: {e}."}) from None
    return sorted(dead, key=lambda p: (p[1], p[0]))


def points_to_labels(points: list[Point], board_size: int) -> list[str]:
    return [point_to_gtp(p, board_size) for p in points]
