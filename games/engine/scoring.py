"""Counting a finished game under a ruleset: area, territory (with the seki rule), WGA,
fill-in and first capture, after removing the dead stones.

Each method, and what is decided where the rule texts are silent (the sign of
``margin``, seki, dead stones under tromp-taylor): docs/rules.md, "Counting".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from .board import Board
from .coords import point_to_gtp
from .fillin import FillIn, _num, fill_in
from .grid import flood
from .result import Reason, Result
from .rules import Rules, Scoring
from .territory import TeireNote, Territory, japanese_territory
from .types import Color, Point

if TYPE_CHECKING:
    from .replay import Replay

__all__ = [
    "DeadStoneError",
    "FillIn",
    "Score",
    "TeireNote",
    "dead_from_markup",
    "margin_from_counts",
    "score",
    "score_position",
]


class DeadStoneError(ValueError):
    """A dead-stone list that cannot be applied (empty point, part of a chain, ...)."""


@dataclass(frozen=True, slots=True)
class Score:
    """A count.  Areas are Decimals (half points under fill-in seki sharing)."""

    rules: str
    komi: Decimal
    result: Result
    winner: Color | None
    margin: Decimal | None  # B - W; None for a first-capture game
    black_area: Decimal
    white_area: Decimal
    black_territory: int
    white_territory: int
    black_prisoners: int
    white_prisoners: int
    black_stones: int
    white_stones: int
    dame: int
    seki_points: int
    white_passed_first: bool
    first_pass_of_final_sequence: Color | None = None
    fill_in: FillIn | None = None
    compensation: int = 0
    handicap: int = 0
    no_result_at: int | None = None  # the move that made an unbreakable cycle (Void)
    # japanese: the seki and teire that took points away (its one home); the
    # properties below name them for the referee.
    territory: Territory | None = None

    @property
    def teire_points(self) -> int:
        """Points still to be filled inside territory (japanese)."""
        return len(self.territory.teire_chains) if self.territory else 0

    @property
    def seki_stones_black(self) -> tuple[str, ...]:
        t = self.territory
        return t.names(t.seki_by_colour[Color.BLACK]) if t else ()

    @property
    def seki_stones_white(self) -> tuple[str, ...]:
        t = self.territory
        return t.names(t.seki_by_colour[Color.WHITE]) if t else ()

    @property
    def seki_eyes(self) -> tuple[str, ...]:
        t = self.territory
        return t.names(t.seki_eyes) if t else ()

    @property
    def seki_point_names(self) -> tuple[str, ...]:
        t = self.territory
        return t.names(t.seki_points) if t else ()

    @property
    def teire(self) -> tuple[TeireNote, ...]:
        return self.territory.teire_notes() if self.territory else ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: numbers are ints, or floats for half points; colours "B"/"W"."""
        fp = self.first_pass_of_final_sequence
        return {
            "rules": self.rules,
            "komi": _num(self.komi),
            "result": self.result.to_sgf(),
            "winner": self.winner.letter if self.winner else None,
            "margin": None if self.margin is None else _num(self.margin),
            "black_area": _num(self.black_area),
            "white_area": _num(self.white_area),
            "black_territory": self.black_territory,
            "white_territory": self.white_territory,
            "black_prisoners": self.black_prisoners,
            "white_prisoners": self.white_prisoners,
            "black_stones": self.black_stones,
            "white_stones": self.white_stones,
            "dame": self.dame,
            "seki_points": self.seki_points,
            "teire_points": self.teire_points,
            "seki": {
                "points": list(self.seki_point_names),
                "stones": {"B": list(self.seki_stones_black), "W": list(self.seki_stones_white)},
                "eyes": list(self.seki_eyes),
            },
            "teire": [t.to_dict() for t in self.teire],
            "white_passed_first": self.white_passed_first,
            "first_pass_of_final_sequence": fp.letter if fp else None,
            "handicap": self.handicap,
            "compensation": self.compensation,
            "fill_in": self.fill_in.to_dict() if self.fill_in else None,
            "no_result_at": self.no_result_at,
        }


def dead_from_markup(
    board: Board, territory_black: Iterable[Point], territory_white: Iterable[Point]
) -> set[Point]:
    """Dead stones as CGoban/Sabaki/OGS export them: a White stone under a TB
    mark or a Black stone under a TW mark."""
    dead: set[Point] = set()
    for points, victim in ((territory_black, Color.WHITE), (territory_white, Color.BLACK)):
        for p in points:
            if board.get(p) is victim:
                dead.add(p)
    return dead


def margin_from_counts(
    rules: Rules,
    *,
    black_territory: Decimal | int,
    white_territory: Decimal | int,
    black_stones: int = 0,
    white_stones: int = 0,
    black_prisoners: int = 0,
    white_prisoners: int = 0,
    komi: Decimal,
    handicap: int = 0,
    white_passed_first: bool = False,
) -> Decimal:
    """B - W from the counts, by the ruleset's scoring (docs/rules.md, "Counting").

    Komi, handicap compensation and, under wmsg, the first-pass point go to White.
    """
    bt, wt = Decimal(black_territory), Decimal(white_territory)
    scoring = rules.scoring
    if scoring is Scoring.TERRITORY:
        b, w = bt + black_prisoners, wt + white_prisoners
    elif scoring is Scoring.WGA:
        b = bt + black_stones + black_prisoners
        w = wt + white_stones + white_prisoners
    else:
        b, w = bt + black_stones, wt + white_stones
    margin = b - w - Decimal(komi) - rules.compensation_for(handicap)
    if rules.white_pass_point and white_passed_first:
        margin -= 1
    return margin


def _validate_dead(board: Board, dead: set[Point]) -> None:
    size, height = board.size, board.height
    for p in sorted(dead, key=lambda q: (q[1], q[0])):
        x, y = p
        if not (0 <= x < size and 0 <= y < height):
            raise DeadStoneError(f"dead stone {p} is off a {size}x{height} board")
        name = point_to_gtp(p, size, height)
        if board.get(p) is None:
            raise DeadStoneError(f"dead stone at {name}: the point is empty")
        missing = board.chain(p) - dead
        if missing:
            first = min(missing, key=lambda q: (q[1], q[0]))
            raise DeadStoneError(
                f"dead stone at {name}: its chain also has "
                f"{point_to_gtp(first, size, height)}, which is not marked dead"
            )


_BLACK_BITS = bytes.maketrans(b"\x00\x01\x02", b"010")
_WHITE_BITS = bytes.maketrans(b"\x00\x01\x02", b"001")
_EMPTY_BITS = bytes.maketrans(b"\x00\x01\x02", b"100")


def _area_counts(cells: list[int], size: int, rows: int) -> list[int]:
    """Empty points by owner and stones: ``[neutral, black, white, black stones,
    white stones]``, on bit boards.

    Each colour's stones grow through the empty points (shifts masked at the edges)
    until nothing changes; a point reached from one colour only is that colour's.
    Every region is done at once, not one flood fill per region.
    """
    raw = bytes(cells)  # bit i of each mask is cell i (the strings are reversed)
    empty = int(raw.translate(_EMPTY_BITS)[::-1], 2)
    reached = []
    stones = []
    for table in (_BLACK_BITS, _WHITE_BITS):
        own = int(raw.translate(table)[::-1], 2)
        stones.append(own.bit_count())
        reached.append(flood(own, empty, size, rows))
    black, white = reached
    both = (black & white).bit_count()
    b, w = black.bit_count() - both, white.bit_count() - both
    return [empty.bit_count() - b - w, b, w, *stones]


def _regions(cells: list[int], neigh: tuple[tuple[int, ...], ...]) -> tuple[list[int], list[int]]:
    """Owner of every empty point (1 Black, 2 White, 0 neutral) and region sizes by owner.

    Returns ``(owner, counts)`` where ``owner[i]`` is -1 for a stone and
    ``counts`` is ``[neutral, black, white]`` empty points.
    """
    owner = [-1] * len(cells)
    counts = [0, 0, 0]
    for i in [i for i, c in enumerate(cells) if not c]:
        if owner[i] >= 0:
            continue
        owner[i] = 4  # visiting
        region = [i]
        border = 0
        for p in region:  # the list grows while it is walked: a breadth-first fill
            for q in neigh[p]:
                c = cells[q]
                if c:
                    border |= c
                elif owner[q] < 0:
                    owner[q] = 4
                    region.append(q)
        own = border if border != 3 else 0
        for p in region:
            owner[p] = own
        counts[own] += len(region)
    return owner, counts


def score_position(
    board: Board,
    rules: Rules,
    *,
    dead: Iterable[Point] = (),
    komi: Decimal | None = None,
    handicap: int = 0,
    prisoners: Mapping[Color, int] | None = None,
    white_passed_first: bool = False,
    first_pass_of_final_sequence: Color | None = None,
    first_capture_winner: Color | None = None,
) -> Score:
    """Count ``board`` under ``rules`` after removing ``dead`` stones.

    ``prisoners`` are stones captured in play BY each colour (dead stones are added);
    ``komi=None`` is the preset's; ``first_capture_winner=None`` is a draw.
    """
    dead_set = set(dead)
    size = board.size
    if dead_set and not rules.remove_dead:
        names = ", ".join(point_to_gtp(p, size, board.height) for p in sorted(dead_set))
        raise DeadStoneError(
            f"{rules.name} counts every stone on the board; dead stones must be captured "
            f"before the two passes (got {names})"
        )
    bp = prisoners.get(Color.BLACK, 0) if prisoners else 0
    wp = prisoners.get(Color.WHITE, 0) if prisoners else 0
    if dead_set:
        _validate_dead(board, dead_set)
        for p in dead_set:
            if board.get(p) is Color.BLACK:
                wp += 1
            else:
                bp += 1
        board = board.copy()
        board.remove(dead_set)
    if komi is None:
        komi = rules.komi_for(handicap)
    komi = Decimal(komi)
    cells = board._cells  # read only: no copy
    scoring = rules.scoring
    seki_rule = scoring is Scoring.TERRITORY and not rules.seki_territory
    if seki_rule:
        _, counts = _regions(cells, board._t.neigh)
        black_stones, white_stones = cells.count(1), cells.count(2)
    else:
        counts = _area_counts(cells, size, board.height)
        black_stones, white_stones = counts[3], counts[4]
    bt, wt = counts[1], counts[2]
    dame = counts[0]
    seki = 0
    counted: Territory | None = None
    if seki_rule:
        counted = japanese_territory(board, dead_set)
        seki = len(counted.seki_points)
        bt -= counted.lost(Color.BLACK)
        wt -= counted.lost(Color.WHITE)
    black_area = Decimal(black_stones + counts[1])
    white_area = Decimal(white_stones + counts[2])
    fill: FillIn | None = None
    if scoring is Scoring.FILL_IN:
        # WMSG 2008 rules, Appendix 1, procedure 6: shared seki points are filled
        # equally; an odd one left over is worth half to each side.
        half = Decimal(dame) / 2
        black_area += half
        white_area += half
        seki = dame
        fill = fill_in(size * board.height, black_area, white_area, komi, white_passed_first)
    comp = rules.compensation_for(handicap)
    margin: Decimal | None
    if scoring is Scoring.FIRST_CAPTURE:
        margin = None
        if first_capture_winner is None:
            result = Result(None, Reason.DRAW)
        else:
            result = Result(first_capture_winner, Reason.SCORE, None)
    else:
        margin = margin_from_counts(
            rules,
            black_territory=bt,
            white_territory=wt,
            black_stones=black_stones,
            white_stones=white_stones,
            black_prisoners=bp,
            white_prisoners=wp,
            komi=komi,
            handicap=handicap,
            white_passed_first=white_passed_first,
        )
        result = Result.from_margin(margin)
    return Score(
        rules=rules.name,
        komi=komi,
        result=result,
        winner=result.winner,
        margin=margin,
        black_area=black_area,
        white_area=white_area,
        black_territory=bt,
        white_territory=wt,
        black_prisoners=bp,
        white_prisoners=wp,
        black_stones=black_stones,
        white_stones=white_stones,
        dame=dame,
        seki_points=seki,
        white_passed_first=white_passed_first,
        first_pass_of_final_sequence=first_pass_of_final_sequence,
        fill_in=fill,
        compensation=comp,
        handicap=handicap,
        territory=counted,
    )


def score(replay: Replay, *, dead: Iterable[Point] = (), komi: Decimal | None = None) -> Score:
    """Count a replayed game: its final board, prisoners, passes and handicap.

    After an unbreakable cycle under ``cycle_no_result`` the count is still made
    (for the referee sheet), but the result is ``Void``.
    """
    fc = replay.first_capture
    counted = score_position(
        replay.board,
        replay.rules,
        dead=dead,
        komi=komi,
        handicap=replay.handicap,
        prisoners=replay.prisoners,
        white_passed_first=replay.first_pass is Color.WHITE,
        first_pass_of_final_sequence=replay.first_pass_of_final_sequence,
        first_capture_winner=fc.winner if fc else None,
    )
    if replay.no_result_at is not None and replay.rules.cycle_no_result:
        return dataclasses.replace(
            counted,
            result=Result(None, Reason.VOID),
            winner=None,
            margin=None,
            no_result_at=replay.no_result_at,
        )
    return counted
