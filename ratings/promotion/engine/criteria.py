"""Promotion criteria as data: one frozen dataclass per family, validated on construction.

``RatingThreshold`` (BGA, Czech), ``WinsAtRank`` (Nihon Ki-in), ``NetWinLadder``
(Groningen Go Club), ``ResultTable`` (Canadian Go Association): docs/promotions.md §2.
A bad parameter raises ``PolicyError`` naming it.  Pure module: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeAlias

from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank, RankError

# Sanity bounds: they catch typos (a window of 50 000 games), not policy choices.
MAX_MARGIN = 1000  # GoR points: ten grades
MAX_EVENTS = 50
MAX_GAMES = 10_000  # Nihon Ki-in's largest counter is 200 wins
MAX_ROUNDS = 15

JsonDict: TypeAlias = dict[str, object]
HandicapMode = Literal["adjust", "exclude"]
HANDICAP_MODES: tuple[HandicapMode, ...] = ("adjust", "exclude")


class PolicyError(ValueError):
    """A policy or criterion parameter that cannot be used: ``"<param>: <why>"``."""

    def __init__(self, param: str, why: str) -> None:
        super().__init__(f"{param}: {why}")
        self.param = param
        self.why = why

    def within(self, prefix: str) -> PolicyError:
        """The same error, located inside ``prefix`` (e.g. ``bands.kyu.criteria[0]``)."""
        return PolicyError(join(prefix, self.param), self.why)


# -- small checks shared with policy.py --------------------------------------------------


def join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return f"{prefix}{name}" if name.startswith("[") else f"{prefix}.{name}"


def check_whole(value: object, param: str, lo: int, hi: int) -> int:
    """``value`` as an int in [lo, hi]; a bool is not a number here."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PolicyError(param, f"must be a whole number, not {value!r}")
    if value < lo:
        raise PolicyError(param, f"must be at least {lo}, not {value}")
    if value > hi:
        raise PolicyError(param, f"must be at most {hi}, not {value}")
    return value


def check_bool(value: object, param: str) -> bool:
    if not isinstance(value, bool):
        raise PolicyError(param, f"must be true or false, not {value!r}")
    return value


def check_object(data: object, param: str, allowed: tuple[str, ...]) -> Mapping[str, object]:
    """``data`` as a mapping with only the ``allowed`` keys."""
    if not isinstance(data, Mapping):
        raise PolicyError(param or "policy", f"must be an object, not {type(data).__name__}")
    for key in data:
        if key not in allowed:
            raise PolicyError(
                join(param, str(key)), f"unknown parameter (known: {', '.join(allowed)})"
            )
    return data


def check_list(value: object, param: str) -> list[object]:
    if not isinstance(value, list | tuple):
        raise PolicyError(param, f"must be a list, not {type(value).__name__}")
    return list(value)


def read_rank(value: object, param: str) -> Rank:
    if not isinstance(value, str):
        raise PolicyError(param, f"must be a rank such as '5k' or '2d', not {value!r}")
    try:
        rank = Rank.parse(value)
    except RankError as exc:
        raise PolicyError(param, str(exc)) from None
    if rank.is_honorary:
        raise PolicyError(param, "the honorary 9p+ is awarded by hand, never by a criterion")
    return rank


def _check_rank(value: object, param: str) -> Rank:
    if not isinstance(value, Rank):
        raise PolicyError(param, f"must be a Rank, not {value!r}")
    if value.is_honorary:
        raise PolicyError(param, "the honorary 9p+ is awarded by hand, never by a criterion")
    return value


# -- 1. rating threshold with stability (docs/promotions.md §2.1) -------------------------


@dataclass(frozen=True, slots=True)
class RatingThreshold:
    """Promote to the grade the GoR reaches (``GoR >= nominal - 50 + margin``), if it holds.

    Held over the last ``events`` events, or a run of ``games`` games without
    net rating loss (BGA); the Czech variant is ``margin=50`` (docs/promotions.md §2.1).
    """

    name: ClassVar[str] = "rating_threshold"

    margin: int = 0
    events: int = 1
    games: int | None = None

    def __post_init__(self) -> None:
        check_whole(self.margin, "rating_threshold.margin", 0, MAX_MARGIN)
        check_whole(self.events, "rating_threshold.events", 1, MAX_EVENTS)
        if self.games is not None:
            check_whole(self.games, "rating_threshold.games", 1, MAX_GAMES)
            if self.events != 1:
                raise PolicyError(
                    "rating_threshold.games",
                    f"give either events (K events) or games (a run of N games), not both; events is {self.events}",
                )

    def to_dict(self) -> JsonDict:
        return {
            "type": self.name,
            "margin": self.margin,
            "events": self.events,
            "games": self.games,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RatingThreshold:
        games = data.get("games")
        if games is not None:
            games = check_whole(games, "rating_threshold.games", 1, MAX_GAMES)
        return cls(
            margin=check_whole(data.get("margin", 0), "rating_threshold.margin", 0, MAX_MARGIN),
            events=check_whole(data.get("events", 1), "rating_threshold.events", 1, MAX_EVENTS),
            games=games,
        )


# -- 2. wins at rank (docs/promotions.md §2.2) -------------------------------------------


@dataclass(frozen=True, slots=True)
class WinsAtRank:
    """N wins among the last M games at the current rank against opponents of the target rank.

    After the Nihon Ki-in counters; the target is one grade up.  ``handicap``
    adjusts by H − 0.5 grades or excludes handicap games (docs/promotions.md §2.2).
    """

    name: ClassVar[str] = "wins_at_rank"

    wins: int = 3
    window: int = 5
    handicap: HandicapMode = "adjust"

    def __post_init__(self) -> None:
        check_whole(self.wins, "wins_at_rank.wins", 1, MAX_GAMES)
        check_whole(self.window, "wins_at_rank.window", 1, MAX_GAMES)
        if self.window < self.wins:
            raise PolicyError("wins_at_rank.window", f"must be at least wins ({self.wins})")
        if self.handicap not in HANDICAP_MODES:
            raise PolicyError(
                "wins_at_rank.handicap", f"must be 'adjust' or 'exclude', not {self.handicap!r}"
            )

    def to_dict(self) -> JsonDict:
        return {
            "type": self.name,
            "wins": self.wins,
            "window": self.window,
            "handicap": self.handicap,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> WinsAtRank:
        mode = data.get("handicap", "adjust")
        if mode not in HANDICAP_MODES:
            raise PolicyError(
                "wins_at_rank.handicap", f"must be 'adjust' or 'exclude', not {mode!r}"
            )
        return cls(
            wins=check_whole(data.get("wins", 3), "wins_at_rank.wins", 1, MAX_GAMES),
            window=check_whole(data.get("window", 5), "wins_at_rank.window", 1, MAX_GAMES),
            handicap="adjust" if mode == "adjust" else "exclude",
        )


# -- 3. net-win ladder (docs/promotions.md §2.3) -----------------------------------------


@dataclass(frozen=True, slots=True)
class LadderStep:
    """From ``lowest`` upward (until the next step), N = ``n + per_grade · grades above lowest``."""

    lowest: Rank
    n: int
    per_grade: int = 0


GRONINGEN_STEPS: tuple[LadderStep, ...] = (
    LadderStep(Rank.kyu(30), 1),  # 21k and weaker
    LadderStep(Rank.kyu(20), 2),  # 11k-20k
    LadderStep(Rank.kyu(10), 3),  # 6k-10k
    LadderStep(Rank.kyu(5), 4),  # 1k-5k
    LadderStep(Rank.dan(1), 5, per_grade=1),  # d dan: 4 + d
)
"""Groningen Go Club's N by rank: 1 (21k and weaker), 2, 3, 4 (1k-5k), 4 + d (d dan)."""


@dataclass(frozen=True, slots=True)
class NetWinLadder:
    """Promote after a net +N, demote after a net −N, over the games at the current rank.

    After the Groningen Go Club ladder; ``steps`` gives N by rank (docs/promotions.md §2.3).
    """

    name: ClassVar[str] = "net_win_ladder"

    steps: tuple[LadderStep, ...] = GRONINGEN_STEPS

    def __post_init__(self) -> None:
        param = "net_win_ladder.steps"
        if not isinstance(self.steps, tuple) or not self.steps:
            raise PolicyError(param, "must list at least one step")
        previous: Rank | None = None
        for i, step in enumerate(self.steps):
            where = f"{param}[{i}]"
            if not isinstance(step, LadderStep):
                raise PolicyError(where, f"must be a LadderStep, not {step!r}")
            lowest = _check_rank(step.lowest, f"{where}.from")
            check_whole(step.n, f"{where}.n", 1, MAX_GAMES)
            check_whole(step.per_grade, f"{where}.per_grade", 0, 100)
            if previous is None and lowest.index != MIN_INDEX:
                raise PolicyError(
                    f"{where}.from", f"the first step must start at 30k, not {lowest}"
                )
            if previous is not None and lowest <= previous:
                raise PolicyError(f"{where}.from", f"must be above the previous step's {previous}")
            previous = lowest

    @classmethod
    def constant(cls, n: int) -> NetWinLadder:
        """The same N at every rank."""
        return cls((LadderStep(Rank(MIN_INDEX), n),))

    def steps_for(self, rank: Rank) -> int:
        """N at ``rank``: the last step at or below it."""
        chosen = self.steps[0]
        for step in self.steps:
            if step.lowest <= rank:
                chosen = step
        return chosen.n + chosen.per_grade * (rank.index - chosen.lowest.index)

    def to_dict(self) -> JsonDict:
        return {
            "type": self.name,
            "steps": [
                {"from": str(s.lowest), "n": s.n, "per_grade": s.per_grade} for s in self.steps
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> NetWinLadder:
        if "steps" not in data:
            return cls()
        steps = []
        for i, raw in enumerate(check_list(data["steps"], "net_win_ladder.steps")):
            where = f"net_win_ladder.steps[{i}]"
            item = check_object(raw, where, ("from", "n", "per_grade"))
            steps.append(
                LadderStep(
                    lowest=read_rank(item.get("from"), f"{where}.from"),
                    n=check_whole(item.get("n"), f"{where}.n", 1, MAX_GAMES),
                    per_grade=check_whole(item.get("per_grade", 0), f"{where}.per_grade", 0, 100),
                )
            )
        return cls(tuple(steps))


# -- 4. result tables (docs/promotions.md §2.4) ------------------------------------------

Cell: TypeAlias = Rank | int | None
"""One table cell: a certificate rank, ``int`` ranks up from the entry rank, or a gap ("–")."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """``cells[w - 1]`` is the certificate for ``w`` wins at entry rank ``entry``."""

    entry: Rank
    cells: tuple[Cell, ...]


def _cell(text: str | None) -> Cell:
    if text is None:
        return None
    if text.startswith("+"):
        return int(text[1:])
    return Rank.parse(text)


def _row(entry: str, *cells: str | None) -> TableRow:
    return TableRow(Rank.parse(entry), tuple(_cell(c) for c in cells))


# The CGA's 5-round table cell for cell (docs/promotions.md §2.4); None is its
# "–".  Combined rows ("23K, 22K", "12K, 11K") are written out once per entry rank.
CGA_TABLE: tuple[TableRow, ...] = (
    _row("25k", "25k", "23k", "20k", "19k", "18k"),
    _row("24k", None, "23k", "20k", "19k", "18k"),
    _row("23k", None, "21k", "20k", "19k", "18k"),
    _row("22k", None, "21k", "20k", "19k", "18k"),
    _row("21k", None, None, "20k", "19k", "18k"),
    _row("20k", None, "18k", "15k", "15k", "15k"),
    _row("19k", None, "17k", "15k", "15k", "14k"),
    _row("18k", None, "16k", "15k", "14k", "13k"),
    _row("17k", None, None, "14k", "13k", "12k"),
    _row("16k", None, None, "13k", "12k", "11k"),
    _row("15k", None, "13k", "10k", "10k", "10k"),
    _row("14k", None, "12k", "10k", "10k", "9k"),
    _row("13k", None, "11k", "10k", "9k", "8k"),
    _row("12k", None, None, "10k", "9k", "8k"),
    _row("11k", None, None, "10k", "9k", "8k"),
    _row("10k", None, None, "9k", "8k", "7k"),
    *(_row(f"{n}k", None, None, "+1", "+2", "+3") for n in (9, 8, 7, 6)),
)
"""The Canadian Go Association's 5-round table; no rows from 5k up (docs/promotions.md §2.4)."""


def _cell_to_json(cell: Cell) -> str | None:
    if cell is None:
        return None
    if isinstance(cell, Rank):
        return str(cell)
    return f"+{cell}"


@dataclass(frozen=True, slots=True)
class ResultTable:
    """Entry rank × wins in an event of exactly ``rounds`` rounds gives a certificate rank.

    After the Canadian Go Association; a table never demotes (docs/promotions.md §2.4).
    """

    name: ClassVar[str] = "result_table"

    table: tuple[TableRow, ...] = CGA_TABLE
    rounds: int = 5

    def __post_init__(self) -> None:
        check_whole(self.rounds, "result_table.rounds", 1, MAX_ROUNDS)
        if not isinstance(self.table, tuple) or not self.table:
            raise PolicyError("result_table.table", "must have at least one row")
        seen: set[Rank] = set()
        for i, row in enumerate(self.table):
            where = f"result_table.table[{i}]"
            if not isinstance(row, TableRow):
                raise PolicyError(where, f"must be a TableRow, not {row!r}")
            entry = _check_rank(row.entry, f"{where}.entry")
            if entry in seen:
                raise PolicyError(f"{where}.entry", f"{entry} has two rows")
            seen.add(entry)
            if not isinstance(row.cells, tuple) or len(row.cells) != self.rounds:
                raise PolicyError(
                    f"{where}.cells",
                    f"must have one cell per number of wins, 1 to {self.rounds}, not {len(row.cells)}",
                )
            for w, cell in enumerate(row.cells, start=1):
                self._check_cell(entry, cell, f"{where}.cells[{w - 1}]")

    @staticmethod
    def _check_cell(entry: Rank, cell: Cell, where: str) -> None:
        if cell is None:
            return
        if isinstance(cell, Rank):
            _check_rank(cell, where)
            if cell < entry:
                raise PolicyError(
                    where, f"{cell} is below the entry rank {entry}: a table cannot demote"
                )
            return
        check_whole(cell, where, 1, MAX_INDEX - MIN_INDEX)
        if entry.index + cell > MAX_INDEX:
            raise PolicyError(where, f"{entry} up {cell} is beyond 9d")

    def certificate(self, entry: Rank, wins: int) -> Rank | None:
        """The certificate for ``wins`` wins at ``entry``, or None (no row, a gap, 0 wins)."""
        if not 1 <= wins <= self.rounds:
            return None
        for row in self.table:
            if row.entry == entry:
                cell = row.cells[wins - 1]
                if cell is None or isinstance(cell, Rank):
                    return cell
                return Rank(entry.index + cell)
        return None

    def to_dict(self) -> JsonDict:
        table: object
        if self.table == CGA_TABLE:
            table = "cga"
        else:
            table = [
                {"entry": str(r.entry), "cells": [_cell_to_json(c) for c in r.cells]}
                for r in self.table
            ]
        return {"type": self.name, "rounds": self.rounds, "table": table}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ResultTable:
        rounds = check_whole(data.get("rounds", 5), "result_table.rounds", 1, MAX_ROUNDS)
        raw = data.get("table", "cga")
        if raw == "cga":
            return cls(CGA_TABLE, rounds)
        if isinstance(raw, str):
            raise PolicyError("result_table.table", f"must be 'cga' or a list of rows, not {raw!r}")
        rows = []
        for i, item in enumerate(check_list(raw, "result_table.table")):
            where = f"result_table.table[{i}]"
            row = check_object(item, where, ("entry", "cells"))
            cells = tuple(
                _cell_from_json(c, f"{where}.cells[{j}]")
                for j, c in enumerate(check_list(row.get("cells", []), f"{where}.cells"))
            )
            rows.append(TableRow(read_rank(row.get("entry"), f"{where}.entry"), cells))
        return cls(tuple(rows), rounds)


def _cell_from_json(value: object, where: str) -> Cell:
    if value is None:
        return None
    if isinstance(value, str) and value.startswith("+"):
        digits = value[1:]
        if not digits.isdigit():
            raise PolicyError(where, f"must be a rank, '+N' or null, not {value!r}")
        return int(digits)
    return read_rank(value, where)


# -- the families together ----------------------------------------------------------------

Criterion: TypeAlias = RatingThreshold | WinsAtRank | NetWinLadder | ResultTable
CRITERIA: tuple[type[Criterion], ...] = (RatingThreshold, WinsAtRank, NetWinLadder, ResultTable)
_BY_NAME: dict[str, type[Criterion]] = {c.name: c for c in CRITERIA}
_KEYS: dict[str, tuple[str, ...]] = {
    "rating_threshold": ("type", "margin", "events", "games"),
    "wins_at_rank": ("type", "wins", "window", "handicap"),
    "net_win_ladder": ("type", "steps"),
    "result_table": ("type", "rounds", "table"),
}


def criterion_to_dict(criterion: Criterion) -> JsonDict:
    """A JSON-ready dict with a ``type`` key naming the family."""
    return criterion.to_dict()


def criterion_from_dict(data: object, where: str = "") -> Criterion:
    """The criterion a ``criterion_to_dict`` dict describes; ``PolicyError`` located at ``where``."""
    try:
        if not isinstance(data, Mapping):
            raise PolicyError("type", f"a criterion must be an object, not {type(data).__name__}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in _BY_NAME:
            raise PolicyError("type", f"must be one of {', '.join(_BY_NAME)}, not {kind!r}")
        for key in data:
            if key not in _KEYS[kind]:
                raise PolicyError(
                    f"{kind}.{key}", f"unknown parameter (known: {', '.join(_KEYS[kind][1:])})"
                )
        return _BY_NAME[kind].from_dict(data)
    except PolicyError as exc:
        raise (exc.within(where) if where else exc) from None
