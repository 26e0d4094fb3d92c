"""The stone scale: 0 = 1 dan, one unit per grade and per handicap stone (docs/ratings.md §2).

Pure module: standard library only.
"""

from __future__ import annotations

GOR_1D = 2100.0
GOR_PER_STONE = 100.0


def gor_to_stones(gor: float) -> float:
    """``(GoR - 2100) / 100``: 2100 (1d) is 0, 2000 (1k) is -1 (docs/ratings.md §2)."""
    return (gor - GOR_1D) / GOR_PER_STONE


def stones_to_gor(stones: float) -> float:
    """The inverse of ``gor_to_stones``."""
    return GOR_1D + GOR_PER_STONE * stones


def format_stones(stones: float) -> str:
    """Strength to one decimal, as the BGA shows it (docs/ratings.md §2): ``"+1.3"``, ``"-0.5"``."""
    value = round(stones, 1)
    if value == 0:
        value = 0.0  # no "-0.0"
    return f"{value:+.1f}"
