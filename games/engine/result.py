"""Game results as values, and the SGF ``RE`` strings they read from and write to.

The forms read and written (``B+5.5``, ``W+R``, ``B+T``, ``B+F``, ``0``, ``Void``, ``?``
and ``B+0.0`` from the wild): docs/rules.md, "Results".  A result is a claim: the
engine re-scores the record and compares.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .types import Color


class ResultError(ValueError):
    """An RE string that cannot be read as a result."""


class Reason(enum.StrEnum):
    SCORE = "score"
    RESIGNATION = "resignation"
    TIME = "time"
    FORFEIT = "forfeit"
    DRAW = "draw"
    VOID = "void"
    UNKNOWN = "unknown"


_WIN_LETTERS = {
    Reason.RESIGNATION: "R",
    Reason.TIME: "T",
    Reason.FORFEIT: "F",
}
_LETTER_REASON = {
    "R": Reason.RESIGNATION,
    "RESIGN": Reason.RESIGNATION,
    "T": Reason.TIME,
    "TIME": Reason.TIME,
    "F": Reason.FORFEIT,
    "FORFEIT": Reason.FORFEIT,
}
_RE_WIN = re.compile(r"^([BW])\s*\+\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Result:
    """Who won, by how much, and how.

    ``winner`` is ``None`` for a draw, a void game and an unknown result.
    ``margin`` is set only for ``Reason.SCORE`` (a positive ``Decimal``); a
    win by score with no margin given (``B+``) keeps ``margin=None``.
    """

    winner: Color | None
    reason: Reason
    margin: Decimal | None = None

    def __post_init__(self) -> None:
        if self.reason in (Reason.DRAW, Reason.VOID, Reason.UNKNOWN):
            if self.winner is not None or self.margin is not None:
                raise ResultError(f"a {self.reason} result has no winner or margin")
            return
        if self.winner is None:
            raise ResultError(f"a win by {self.reason} needs a winner")
        if self.reason is not Reason.SCORE and self.margin is not None:
            raise ResultError(f"a win by {self.reason} has no margin")
        if self.margin is not None and self.margin <= 0:
            raise ResultError("a winning margin must be positive; a zero margin is a draw")

    @classmethod
    def from_margin(cls, black_minus_white: Decimal) -> Result:
        """The result of a count: ``B-W`` positive is a Black win."""
        if black_minus_white > 0:
            return cls(Color.BLACK, Reason.SCORE, black_minus_white)
        if black_minus_white < 0:
            return cls(Color.WHITE, Reason.SCORE, -black_minus_white)
        return cls(None, Reason.DRAW)

    @classmethod
    def parse(cls, text: str) -> Result:
        """Read an SGF RE value.  Raises ``ResultError`` naming the text."""
        raw = text.strip()
        if not raw:
            raise ResultError("empty result")
        up = raw.upper()
        if up in ("0", "DRAW", "JIGO"):
            return cls(None, Reason.DRAW)
        if up == "VOID":
            return cls(None, Reason.VOID)
        if up == "?":
            return cls(None, Reason.UNKNOWN)
        m = _RE_WIN.match(raw)
        if not m:
            raise ResultError(
                f"cannot read result {text!r}: expected B+5.5, W+R, B+T, B+F, 0, Void or ?"
            )
        winner = Color.from_letter(m.group(1))
        rest = m.group(2).strip()
        if not rest:
            return cls(winner, Reason.SCORE, None)
        reason = _LETTER_REASON.get(rest.upper())
        if reason is not None:
            return cls(winner, reason)
        try:
            margin = Decimal(rest)
        except InvalidOperation:
            raise ResultError(
                f"cannot read result {text!r}: {rest!r} is neither a margin nor R, T or F"
            ) from None
        if not margin.is_finite() or margin < 0:
            raise ResultError(f"cannot read result {text!r}: the margin must be a positive number")
        if margin == 0:  # B+0.0 seen in the wild: a draw
            return cls(None, Reason.DRAW)
        if (margin * 2) != (margin * 2).to_integral_value():
            raise ResultError(f"cannot read result {text!r}: the margin must be in half points")
        return cls(winner, Reason.SCORE, _normal(margin))

    def to_sgf(self) -> str:
        if self.reason is Reason.DRAW:
            return "0"
        if self.reason is Reason.VOID:
            return "Void"
        if self.reason is Reason.UNKNOWN:
            return "?"
        assert self.winner is not None
        if self.reason is Reason.SCORE:
            return f"{self.winner.letter}+" + ("" if self.margin is None else _fmt(self.margin))
        return f"{self.winner.letter}+{_WIN_LETTERS[self.reason]}"

    def __str__(self) -> str:
        return self.to_sgf()

    def same_outcome(self, other: Result) -> bool:
        """Equal winner, reason and margin (``B+`` with no margin matches any Black score win)."""
        if self.winner != other.winner or self.reason != other.reason:
            return False
        if self.margin is None or other.margin is None:
            return True
        return self.margin == other.margin


def _normal(d: Decimal) -> Decimal:
    """6.50 -> 6.5, 7.0 -> 7: one canonical form per half-point value."""
    q = d.quantize(Decimal("0.5")) if d != d.to_integral_value() else d.to_integral_value()
    return q.normalize() if q != q.to_integral_value() else q.to_integral_value()


def _fmt(d: Decimal) -> str:
    if d == d.to_integral_value():
        return str(int(d))
    return format(d.normalize(), "f")
