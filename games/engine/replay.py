"""Replaying a game record under a ruleset: legality of every move, captures, passes.

Strict replay stops before the first illegal move; tolerant replay records every
violation and goes on.  Who moves first, how passes, unbreakable cycles (no result)
and first capture are handled: docs/rules.md, "Replaying a record" and "Legality".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import _KO_CODE, KO, OCCUPIED, REASONS, SUICIDE, SUPERKO, Board
from .coords import point_to_gtp
from .rules import Rules, Scoring
from .types import Color, GameRecord, Move, Point

# Colour codes of the hot loop to colours, without an enum lookup per call.
_COLOR_OF = {1: Color.BLACK, 2: Color.WHITE}
VIOLATION_REASONS = ("occupied", "suicide", "ko", "superko", "wrong-turn")


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal move: ``number`` is 1-based over moves (passes count)."""

    number: int
    color: Color
    point: Point | None
    reason: str
    size: int = 19
    height: int | None = None  # rows of a rectangular board

    def describe(self) -> str:
        """E.g. ``"move 37, White K10: superko"``."""
        where = "pass" if self.point is None else point_to_gtp(self.point, self.size, self.height)
        return f"move {self.number}, {self.color.name.title()} {where}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: number, color letter, GTP point (``None`` for a pass), reason, text."""
        return {
            "number": self.number,
            "color": self.color.letter,
            "point": None
            if self.point is None
            else point_to_gtp(self.point, self.size, self.height),
            "reason": self.reason,
            "text": self.describe(),
        }


@dataclass(frozen=True, slots=True)
class FirstCapture:
    """The move that decided a first-capture game, and who won by it (a self-capture
    gives the win to the opponent: AGA First Capture leaflet)."""

    number: int
    winner: Color
    self_capture: bool = False


@dataclass(slots=True)
class Replay:
    board: Board
    rules: Rules
    record: GameRecord
    moves_played: int = 0
    violations: list[Violation] = field(default_factory=list)
    prisoners: dict[Color, int] = field(default_factory=dict)
    first_pass: Color | None = None
    first_pass_of_final_sequence: Color | None = None
    ended_by_passes: bool = False
    last_move: Move | None = None
    to_move: Color = Color.BLACK
    handicap: int = 0
    first_capture: FirstCapture | None = None
    moves_after_end: int = 0
    no_result_at: int | None = None

    @property
    def first_illegal(self) -> Violation | None:
        return self.violations[0] if self.violations else None

    @property
    def white_passed_first(self) -> bool:
        return self.first_pass is Color.WHITE

    def illegal_points(self, color: Color | None = None) -> dict[Point, str]:
        """Empty points the player to move (or ``color``) may not play, for ko or superko.

        Suicide points are not listed: they are illegal whatever the history.
        """
        who = self.to_move if color is None else color
        return {
            p: why
            for p, why in self.board.illegal_points(
                who, ko=self.rules.ko, suicide=self.rules.suicide
            ).items()
            if why in ("ko", "superko")
        }


def first_player(record: GameRecord) -> Color:
    """Who moves first (docs/rules.md, "Replaying a record").

    PL if given; else White when set-up stones come before the first move and
    White makes it (handicap stones in the root or a later node, with or
    without HA), or in a handicap game (HA 2 or more) with black set-up stones
    or whose first move is White's (the stones left out of the record); else
    Black.
    """
    if record.first_player is not None:
        return record.first_player
    setup_black = bool(record.setup.black)
    setup_any = bool(record.setup)
    for action in record.actions:
        if isinstance(action, Move):
            if action.color is Color.WHITE and (setup_any or record.handicap >= 2):
                return Color.WHITE
            break
        setup_any = setup_any or bool(action)
        setup_black = setup_black or bool(action.black)
    if record.handicap >= 2 and setup_black:
        return Color.WHITE
    return Color.BLACK


def free_placement(record: GameRecord) -> int:
    """How many of the first moves are handicap stones placed as moves: HA[n] and
    n Black moves on the board first, with no set-up before them (as Pachi and KGS
    write free placement), else 0."""
    n = record.handicap
    if n < 2 or record.first_player is Color.WHITE or record.setup:
        return 0
    moves = 0
    for action in record.actions:
        if not isinstance(action, Move):
            return 0
        if moves == n:
            return n if action.color is Color.WHITE else 0
        if action.color is not Color.BLACK or action.point is None:
            return 0
        moves += 1
    return n if moves == n else 0


def replay(
    record: GameRecord,
    rules: Rules,
    *,
    strict: bool = True,
    stop_after: int | None = None,
) -> Replay:
    """Replay ``record``'s main line under ``rules`` (see the module docstring).

    ``stop_after`` stops after that many moves (passes count).
    """
    size, height = record.size, record.height
    board = Board(size, height)
    if record.setup:
        board.place_setup(record.setup)
    to_move = int(first_player(record))
    free = free_placement(record)  # Black's first moves that are handicap stones
    board.record_position(to_move)

    ko = _KO_CODE[rules.ko]
    suicide_legal = rules.suicide
    first_capture_rules = rules.scoring is Scoring.FIRST_CAPTURE
    place = board._place
    cells = board._cells
    seen_pos = board._seen_pos
    seen_sit = board._seen_sit
    side_key = board._t.side_key
    index = board._t.index
    black = Color.BLACK
    # Unbreakable cycles: how often each position occurred with each player to move.
    cycles: dict[int, int] | None = None
    if rules.cycle_no_result:
        cycles = {board._hash ^ side_key[to_move]: 1}
    no_result_at: int | None = None
    prisoners = [0, 0, 0]
    violations: list[Violation] = []
    number = 0
    first_pass = 0
    pass_run = 0
    run_start = 0
    last_move: Move | None = None
    first_capture: FirstCapture | None = None
    actions = record.actions
    limit = len(actions) if stop_after is None else stop_after
    k = 0
    for k, action in enumerate(actions):  # noqa: B007  (k is read after the loop)
        if not isinstance(action, Move):
            board.place_setup(action)
            board.record_position(to_move)
            if cycles is not None:
                key = board._hash ^ side_key[to_move]
                cycles[key] = cycles.get(key, 0) + 1
            continue
        if number >= limit:
            break
        point = action.point
        color = 1 if action.color is black else 2
        if color != to_move:
            violations.append(
                Violation(number + 1, action.color, point, "wrong-turn", size, height)
            )
            if strict:
                break
        number += 1
        if point is None:
            board.ko_point = -1
            if not first_pass:
                first_pass = color
            if not pass_run:
                run_start = color
            pass_run += 1
        else:
            i = index.get(point, -1)
            if i < 0:
                raise ValueError(f"move {number}: {point} is off a {size}x{record.rows} board")
            # The rules that need no play are checked first; suicide and superko after
            # the stone is placed, on what the play did (one pass over the neighbours
            # instead of two).  Board._check gives the same reasons in the same order.
            code = (
                OCCUPIED
                if cells[i]
                else KO
                if i == board.ko_point and color == board.ko_color
                else 0
            )
            if code:
                violations.append(
                    Violation(number, action.color, point, REASONS[code], size, height)
                )
                if strict:
                    number -= 1
                    break
            pass_run = 0
            if code == OCCUPIED:  # tolerant: skip the stone, the turn still passes
                board.ko_point = -1
                n = 0
            else:
                n = place(i, color)
                if not code:
                    if n < 0 and not suicide_legal:
                        code = SUICIDE
                    elif ko:  # 1 positional, 2 situational superko
                        h = board._hash
                        if h in seen_pos if ko == 1 else h ^ side_key[3 - color] in seen_sit:
                            code = SUPERKO
                    if code:
                        violation = Violation(
                            number, action.color, point, REASONS[code], size, height
                        )
                        if strict:  # the board must stand before this move: read it again
                            before = replay(record, rules, strict=True, stop_after=number - 1)
                            before.violations.append(violation)
                            return before
                        violations.append(violation)
            if n:
                if n > 0:
                    prisoners[color] += n
                else:
                    prisoners[3 - color] -= n
                if first_capture_rules and first_capture is None:
                    winner = color if n > 0 else 3 - color
                    first_capture = FirstCapture(number, Color(winner), n < 0)
        last_move = action
        to_move = 3 - color if number >= free else color
        h = board._hash
        seen_pos.add(h)
        h ^= side_key[to_move]
        seen_sit.add(h)
        if cycles is not None and point is not None:
            seen = cycles[h] = cycles.get(h, 0) + 1
            if seen >= 3 and no_result_at is None:
                no_result_at = number
        if first_capture is not None:
            break
    moves_after_end = 0
    if first_capture is not None:
        moves_after_end = sum(1 for a in actions[k + 1 :] if isinstance(a, Move))
    return Replay(
        board=board,
        rules=rules,
        record=record,
        moves_played=number,
        violations=violations,
        prisoners={Color.BLACK: prisoners[1], Color.WHITE: prisoners[2]},
        first_pass=_COLOR_OF.get(first_pass),
        first_pass_of_final_sequence=_COLOR_OF[run_start] if pass_run else None,
        ended_by_passes=pass_run >= 2,
        last_move=last_move,
        to_move=_COLOR_OF[to_move],
        handicap=record.handicap,
        first_capture=first_capture,
        moves_after_end=moves_after_end,
        no_result_at=no_result_at,
    )
