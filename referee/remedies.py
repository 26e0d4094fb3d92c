"""What an upheld ruling does to a game record: pure functions over ``GameRecord``.

The New Zealand Rules remedies (docs/referee.md, "What an upheld ruling does"): a
repetition becomes a pass (``replace_with_pass``), another illegal move is undone and
the offender passes there, later moves kept while legal (``restore_with_pass``), dead stones are played out, the owner first
(``append_continuation``).  Standard library and the engine only; moves count from 1.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from games.engine.board import Board
from games.engine.coords import CoordinateError, parse_point, point_to_gtp
from games.engine.replay import Replay, first_player, replay
from games.engine.rules import Rules
from games.engine.scoring import score
from games.engine.types import Color, GameRecord, Move, Point, Setup


class RulingError(ValueError):
    """A transform that cannot be made on this record (the message says why)."""


def sentence(error: Exception) -> str:
    """An error's message as a sentence: capital first letter, full stop."""
    text = str(error)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def move_count(record: GameRecord) -> int:
    return sum(1 for a in record.actions if isinstance(a, Move))


def _actions_before(record: GameRecord, number: int) -> list[Move | Setup]:
    """The actions that come before move ``number`` (setup nodes between included)."""
    out: list[Move | Setup] = []
    seen = 0
    for action in record.actions:
        if isinstance(action, Move):
            if seen + 1 >= number:
                break
            seen += 1
        out.append(action)
    return out


def _move(record: GameRecord, number: int) -> Move:
    if not 1 <= number <= move_count(record):
        raise RulingError(f"the record has no move {number} (it has {move_count(record)} moves)")
    return record.moves[number - 1]


def _with_actions(record: GameRecord, actions: Iterable[Move | Setup]) -> GameRecord:
    """The record with new actions; the old end-of-game markup and RE no longer apply."""
    info = {k: v for k, v in record.info.items() if k != "RE"}
    return dataclasses.replace(
        record,
        actions=tuple(actions),
        info=info,
        territory_black=frozenset(),
        territory_white=frozenset(),
        warnings=(),
    )


def record_upto(record: GameRecord, number: int) -> GameRecord:
    """The record up to and including move ``number`` (0: the start position)."""
    if number < 0 or number > move_count(record):
        raise RulingError(f"the record has no move {number} (it has {move_count(record)} moves)")
    actions = _actions_before(record, number + 1)
    return _with_actions(record, actions)


def replace_with_pass(record: GameRecord, number: int) -> GameRecord:
    """Repetition upheld: move ``number`` becomes a pass by the same colour; later
    moves are kept (in practice none: see ``repetition_in_time``)."""
    offending = _move(record, number)
    actions: list[Move | Setup] = []
    seen = 0
    for action in record.actions:
        if isinstance(action, Move):
            seen += 1
            if seen == number:
                action = Move(offending.color, None)
        actions.append(action)
    return _with_actions(record, actions)


def restore_with_pass(record: GameRecord, number: int, rules: Rules) -> GameRecord:
    """Illegal move upheld: move ``number`` becomes the offender's pass.  The moves
    played after it are kept while they stay legal on the corrected board; the first
    one that does not (and everything after it) is dropped."""
    offending = _move(record, number)
    head = [*_actions_before(record, number), Move(offending.color, None)]
    tail = list(record.actions[len(head) :])
    kept = len(tail)
    candidate = _with_actions(record, [*head, *tail])
    later = [v for v in replay(candidate, rules, strict=False).violations if v.number > number]
    if later:
        kept = _tail_index(tail, later[0].number - number)
    return _with_actions(record, [*head, *tail[:kept]])


def _tail_index(tail: Sequence[Move | Setup], moves: int) -> int:
    """The index in ``tail`` of its ``moves``-th move (counting from 1)."""
    seen = 0
    for k, action in enumerate(tail):
        if isinstance(action, Move):
            seen += 1
            if seen == moves:
                return k
    return len(tail)


def repetition_in_time(record: GameRecord, number: int) -> bool:
    """A repetition must be claimed before the offender's opponent moves (New Zealand
    Rules): the claimed move must be the record's last."""
    return number == move_count(record)


def parse_continuation(items: Sequence[object], size: int) -> list[Point | None]:
    """``["D4", "pass", "dd"]`` as points (``None`` for a pass)."""
    moves: list[Point | None] = []
    for k, item in enumerate(items, start=1):
        if not isinstance(item, str) or not item.strip():
            raise RulingError(f"move {k} of the continuation is not a point such as D4 or 'pass'")
        text = item.strip()
        if text.lower() == "pass":
            moves.append(None)
            continue
        try:
            moves.append(parse_point(text, size))
        except CoordinateError as e:
            raise RulingError(f"move {k} of the continuation: {e}") from None
    return moves


def owner_of(board: Board, points: Iterable[Point]) -> Color:
    """The one colour of the disputed stones (a dispute is about one player's stones)."""
    colours: set[Color] = set()
    for p in points:
        c = board.get(p)
        if c is None:
            raise RulingError(f"{point_to_gtp(p, board.size)} is an empty point")
        colours.add(c)
    if not colours:
        raise RulingError("name the stones in dispute")
    if len(colours) > 1:
        raise RulingError("the stones in dispute must all be one player's")
    return colours.pop()


def append_continuation(
    record: GameRecord,
    moves: Sequence[Point | None],
    *,
    owner: Color,
    to_move: Color | None = None,
) -> GameRecord:
    """Dead stones played out: ``moves`` alternate, the owner of the stones first
    (a pass is his move too).  Played after the record's last move; when the other
    player was ``to_move``, his pass comes first, so the record stays in turn."""
    if not moves:
        raise RulingError("the continuation has no moves")
    added: list[Move | Setup] = []
    if to_move is not None and to_move is not owner:
        added.append(Move(to_move, None))
    colour = owner
    for point in moves:
        added.append(Move(colour, point))
        colour = colour.opponent
    return _with_actions(record, [*record.actions, *added])


def legality_report(record: GameRecord, rules: Rules) -> dict[str, Any]:
    """Every illegal move of the record (tolerant replay), first one apart."""
    played = replay(record, rules, strict=False)
    violations = [v.to_dict() for v in played.violations]
    return {
        "moves": played.moves_played,
        "first_illegal": violations[0] if violations else None,
        "violations": violations,
    }


def count(
    record: GameRecord, rules: Rules, *, dead: Iterable[Point] = (), komi: Decimal | None = None
) -> dict[str, Any] | None:
    """The engine's count of the record's final position (``None`` if it cannot count it)."""
    played: Replay = replay(record, rules, strict=False)
    try:
        return score(played, dead=dead, komi=komi).to_dict()
    except ValueError:
        return None


def move_list(record: GameRecord) -> list[dict[str, Any]]:
    """The moves as ``{"number", "color", "point"}`` (point ``"pass"`` for a pass)."""
    return [
        {
            "number": k,
            "color": m.color.letter,
            "point": "pass" if m.point is None else point_to_gtp(m.point, record.size),
        }
        for k, m in enumerate(record.moves, start=1)
    ]


def record_diff(stored: GameRecord, attached: GameRecord) -> list[str]:
    """How an attached record's moves differ from the stored one's, as unified-diff lines
    of numbered moves ("- 58 B E5" stored only, "+ 58 B F5" attached only); [] if alike."""

    def lines(record: GameRecord) -> list[str]:
        return [f"{m['number']} {m['color']} {m['point']}" for m in move_list(record)]

    diff = difflib.unified_diff(
        lines(stored), lines(attached), "stored record", "attached record", n=2, lineterm=""
    )
    return list(diff)


def position_at(record: GameRecord, rules: Rules, number: int | None) -> Replay:
    """The position after move ``number`` (all moves when ``None``), tolerant."""
    return replay(record, rules, strict=False, stop_after=number)


__all__ = [
    "RulingError",
    "append_continuation",
    "count",
    "first_player",
    "legality_report",
    "move_count",
    "move_list",
    "owner_of",
    "parse_continuation",
    "position_at",
    "record_diff",
    "record_upto",
    "repetition_in_time",
    "replace_with_pass",
    "restore_with_pass",
    "sentence",
]
