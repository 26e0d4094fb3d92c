"""The rank ladder as a value: 30 kyu … 1 kyu, 1 dan … 9 dan, and the honorary 9p+.

The indexes, their sources, and why 9p+ is a title that no rating ever
produces: docs/ratings.md §1.  Pure module: standard library only.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import total_ordering

MIN_INDEX = -30  # 30 kyu
MAX_INDEX = 8  # 9 dan
HONORARY_INDEX = 9  # 9p+

_RANK_RE = re.compile(
    r"^\s*(?:(?P<num>\d{1,2})\s*(?P<kind>k|kyu|d|dan)|(?P<hon>9\s*p\s*\+))\s*$", re.IGNORECASE
)


class RankError(ValueError):
    """Text that is not a rank on the ladder."""


@total_ordering
@dataclass(frozen=True, slots=True)
class Rank:
    index: int

    def __post_init__(self) -> None:
        if not (MIN_INDEX <= self.index <= MAX_INDEX or self.index == HONORARY_INDEX):
            raise RankError(f"rank index {self.index} is off the ladder (30k … 9d, 9p+)")

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``"3k"``, ``"3 kyu"``, ``"2d"``, ``"2 dan"`` or ``"9p+"``."""
        m = _RANK_RE.match(text or "")
        if not m:
            raise RankError(f"{text!r} is not a rank: write it like 3k, 15 kyu, 2d or 9p+")
        if m.group("hon"):
            return cls(HONORARY_INDEX)
        num = int(m.group("num"))
        if m.group("kind").lower().startswith("k"):
            if not 1 <= num <= 30:
                raise RankError(f"{text!r} is not a rank: kyu ranks run from 30k to 1k")
            return cls(-num)
        if not 1 <= num <= 9:
            raise RankError(f"{text!r} is not a rank: dan ranks run from 1d to 9d")
        return cls(num - 1)

    @classmethod
    def kyu(cls, n: int) -> Rank:
        return cls.parse(f"{n}k")

    @classmethod
    def dan(cls, n: int) -> Rank:
        return cls.parse(f"{n}d")

    @classmethod
    def from_gor(cls, gor: float) -> Rank:
        """The EGF grade band of a GoR: ``index = floor((GoR - 2050) / 100)``, clamped to 30k…9d.

        docs/ratings.md §3: bands are ±50 around the nominal GoR; 2700 is 7d, never 9p+.
        """
        if math.isnan(gor):
            raise RankError("a GoR of NaN has no grade")
        if math.isinf(gor):
            return cls(MAX_INDEX if gor > 0 else MIN_INDEX)
        k = math.floor((gor - 2050) / 100)
        return cls(min(MAX_INDEX, max(MIN_INDEX, k)))

    @property
    def nominal_gor(self) -> int:
        """EGF nominal GoR: n kyu = 2100 - 100n, n dan = 2100 + 100(n-1) (docs/ratings.md §3)."""
        if self.is_honorary:
            raise RankError("the honorary 9p+ is a title and has no nominal GoR")
        return 2100 + 100 * self.index

    @property
    def ogs_index(self) -> int:
        """OGS / McMahon integer index: 30k = 0, 20k = 10, 1d = 30, 9d = 38 (docs/ratings.md §1)."""
        if self.is_honorary:
            raise RankError("the honorary 9p+ has no OGS index")
        return self.index + 30

    @property
    def is_honorary(self) -> bool:
        return self.index == HONORARY_INDEX

    @property
    def is_dan(self) -> bool:
        return 0 <= self.index <= MAX_INDEX

    @property
    def is_kyu(self) -> bool:
        return self.index < 0

    @property
    def stones(self) -> int:
        """Position on the stone scale: 1d = 0, 1k = -1, 2d = 1 (docs/ratings.md §2)."""
        return self.index

    def __str__(self) -> str:
        if self.is_honorary:
            return "9p+"
        if self.index < 0:
            return f"{-self.index}k"
        return f"{self.index + 1}d"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return self.index < other.index


ALL_RANKS: tuple[Rank, ...] = (
    *(Rank(i) for i in range(MIN_INDEX, MAX_INDEX + 1)),
    Rank(HONORARY_INDEX),
)
RANK_CHOICES: list[tuple[int, str]] = [(r.index, str(r)) for r in ALL_RANKS]
