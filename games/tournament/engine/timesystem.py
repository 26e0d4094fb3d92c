"""An event's time system, and the EGF adjusted time and class derived from it.

Stored as OpenGotha's ``GeneralParameterSet`` attributes (``basicTime`` in minutes,
``complementaryTimeSystem``, ``stdByoYomiTime``, ``nbMovesCanTime``, ``canByoYomiTime``,
``fischerTime`` in seconds, ``bInternet``) plus two of goref's own: ``byoYomiPeriods`` (the
number of standard byo-yomi periods, which OpenGotha does not hold) and ``adjustedTime``,
the adjusted time in minutes a results file states when it does not name the system (an
``.h9``'s ``TM``, a ``.tou``'s ``ta``).  docs/tournaments.md ("Time system") has the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class Overtime(StrEnum):
    """OpenGotha's ``complementaryTimeSystem``."""

    SUDDEN_DEATH = "SUDDENDEATH"
    STANDARD = "STDBYOYOMI"
    CANADIAN = "CANBYOYOMI"
    FISCHER = "FISCHER"


OVERTIME_NAMES = {
    Overtime.SUDDEN_DEATH: "Sudden death",
    Overtime.STANDARD: "Standard byo-yomi",
    Overtime.CANADIAN: "Canadian byo-yomi",
    Overtime.FISCHER: "Fischer",
}
# The EGF's class limits (basic time, adjusted time, both in seconds), strongest first:
# EGD rating system, "Tournament classes"; OpenGotha 3.5x applies the same numbers.
_OVER_THE_BOARD = (("A", 3600, 4500), ("B", 2400, 3000), ("C", 1500, 1800))
_FISCHER = (("A", 2700, 4500), ("B", 1800, 3000), ("C", 1200, 1800))
OPENGOTHA_KEYS = (
    "bInternet",
    "basicTime",
    "complementaryTimeSystem",
    "stdByoYomiTime",
    "nbMovesCanTime",
    "canByoYomiTime",
    "fischerTime",
)
_MAX_MINUTES = 24 * 60
_MAX_SECONDS = 24 * 3600


class TimeSystemError(ValueError):
    """A time-system value that cannot be read; ``key`` names it."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True, kw_only=True)
class TimeSystem:
    """OpenGotha's defaults for a new tournament: 60 minutes, Canadian 15 moves in 5 min."""

    basic_minutes: int = 60
    overtime: Overtime = Overtime.CANADIAN
    byo_yomi_seconds: int = 30
    byo_yomi_periods: int = 5
    canadian_moves: int = 15
    canadian_seconds: int = 300
    fischer_seconds: int = 10
    online: bool = False
    stated_adjusted_minutes: int | None = None  # a file's TM/ta when it names no system

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> TimeSystem:
        """Read the stored attributes; a missing one takes OpenGotha's default, a wrong one
        raises ``TimeSystemError`` naming it."""
        d = cls()
        kind = str(data.get("complementaryTimeSystem", d.overtime.value)).strip().upper()
        try:
            overtime = Overtime(kind)
        except ValueError:
            names = ", ".join(o.value for o in Overtime)
            raise TimeSystemError(
                "complementaryTimeSystem", f"{kind!r} is not one of {names}"
            ) from None
        stated = data.get("adjustedTime")
        return cls(
            basic_minutes=_number(data, "basicTime", d.basic_minutes, _MAX_MINUTES),
            overtime=overtime,
            byo_yomi_seconds=_number(data, "stdByoYomiTime", d.byo_yomi_seconds, _MAX_SECONDS),
            byo_yomi_periods=_number(data, "byoYomiPeriods", d.byo_yomi_periods, 100),
            canadian_moves=max(1, _number(data, "nbMovesCanTime", d.canadian_moves, 1000)),
            canadian_seconds=_number(data, "canByoYomiTime", d.canadian_seconds, _MAX_SECONDS),
            fischer_seconds=_number(data, "fischerTime", d.fischer_seconds, _MAX_SECONDS),
            online=str(data.get("bInternet", "false")).strip().lower() == "true",
            stated_adjusted_minutes=(
                None
                if stated in (None, "")
                else _number(data, "adjustedTime", 0, _MAX_MINUTES + _MAX_SECONDS)
            ),
        )

    def to_mapping(self) -> dict[str, str]:
        """The stored attributes, as strings (OpenGotha writes them so)."""
        out = {
            "bInternet": "true" if self.online else "false",
            "basicTime": str(self.basic_minutes),
            "complementaryTimeSystem": self.overtime.value,
            "stdByoYomiTime": str(self.byo_yomi_seconds),
            "byoYomiPeriods": str(self.byo_yomi_periods),
            "nbMovesCanTime": str(self.canadian_moves),
            "canByoYomiTime": str(self.canadian_seconds),
            "fischerTime": str(self.fischer_seconds),
        }
        if self.stated_adjusted_minutes is not None:
            out["adjustedTime"] = str(self.stated_adjusted_minutes)
        return out

    def opengotha_attributes(self) -> dict[str, str]:
        """The ``GeneralParameterSet`` attributes OpenGotha reads.  A time stated only as an
        adjusted time (an imported ``.h9`` or ``.tou``) is written as a system OpenGotha
        derives the same adjusted time and class from: sudden death when it is the basic
        time, else Canadian byo-yomi of 60 moves in the difference (60 moves at that rate
        is exactly the difference)."""
        out = {k: v for k, v in self.to_mapping().items() if k in OPENGOTHA_KEYS}
        if self.stated_adjusted_minutes is None:
            return out
        extra = self.stated_adjusted_minutes - self.basic_minutes
        if extra <= 0:
            return {**out, "complementaryTimeSystem": Overtime.SUDDEN_DEATH.value}
        return {
            **out,
            "complementaryTimeSystem": Overtime.CANADIAN.value,
            "nbMovesCanTime": "60",
            "canByoYomiTime": str(extra * 60),
        }

    def overtime_seconds(self) -> int:
        """The length of the extra period the system gives (0: none)."""
        return {
            Overtime.SUDDEN_DEATH: 0,
            Overtime.STANDARD: self.byo_yomi_seconds,
            Overtime.CANADIAN: self.canadian_seconds,
            Overtime.FISCHER: self.fischer_seconds,
        }[self.overtime]

    def has_overtime(self) -> bool:
        """OpenGotha's ``+b`` of a ``.tou``: an extra period of non-zero length."""
        if self.stated_adjusted_minutes is not None:
            return self.stated_adjusted_minutes > self.basic_minutes
        return self.overtime_seconds() > 0

    def adjusted_seconds(self) -> int:
        """The EGF adjusted time: basic time plus 45 standard byo-yomi periods, or the time
        for 60 Canadian moves, or 120 Fischer increments (EGD rating system; OpenGotha's
        ``generateH9File`` computes it so: one period's length, whatever their number)."""
        if self.stated_adjusted_minutes is not None:
            return self.stated_adjusted_minutes * 60
        basic = self.basic_minutes * 60
        if self.overtime is Overtime.STANDARD:
            return basic + 45 * self.byo_yomi_seconds
        if self.overtime is Overtime.CANADIAN:
            return basic + 60 * self.canadian_seconds // self.canadian_moves
        if self.overtime is Overtime.FISCHER:
            return basic + 120 * self.fischer_seconds
        return basic

    def egf_class(self) -> str:
        """The EGF class (A, B, C, D or X) of these times: over the board by basic and
        adjusted time (Fischer's limits are lower); an online event is D or X."""
        basic, adjusted = self.basic_minutes * 60, self.adjusted_seconds()
        fischer = self.overtime is Overtime.FISCHER and self.stated_adjusted_minutes is None
        if self.online:
            return "D" if adjusted >= 3000 and basic >= (1800 if fischer else 2400) else "X"
        for cls, min_basic, min_adjusted in _FISCHER if fischer else _OVER_THE_BOARD:
            if basic >= min_basic and adjusted >= min_adjusted:
                return cls
        return "X"

    def describe(self) -> str:
        """One line for the printed lists: "60 min + Canadian byo-yomi 15 moves / 5 min"."""
        if self.stated_adjusted_minutes is not None:
            return f"{self.basic_minutes} min (adjusted time {self.stated_adjusted_minutes} min)"
        base = f"{self.basic_minutes} min"
        if self.overtime is Overtime.STANDARD:
            extra = f"{self.byo_yomi_periods} × {self.byo_yomi_seconds} s byo-yomi"
        elif self.overtime is Overtime.CANADIAN:
            extra = (
                f"Canadian byo-yomi {self.canadian_moves} moves / {_span(self.canadian_seconds)}"
            )
        elif self.overtime is Overtime.FISCHER:
            extra = f"Fischer + {self.fischer_seconds} s a move"
        else:
            return f"{base}, sudden death"
        return f"{base} + {extra}"


def _span(seconds: int) -> str:
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"


def _number(data: Mapping[str, object], key: str, default: int, top: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool):
        raise TimeSystemError(key, "is a whole number, not true or false")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise TimeSystemError(key, f"{value!r} is not a whole number") from None
    if not 0 <= number <= top:
        raise TimeSystemError(key, f"{number} is outside 0..{top}")
    return number


def time_system_of(extra: Mapping[str, str]) -> TimeSystem:
    """An event's time system from what its file or settings stored; a value that cannot be
    read falls back to OpenGotha's default for it, as OpenGotha's own reader does."""
    try:
        return TimeSystem.from_mapping(extra)
    except TimeSystemError as error:
        return time_system_of({k: v for k, v in extra.items() if k != error.key})
