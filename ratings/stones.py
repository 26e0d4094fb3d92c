"""The stone scale (0 = 1 dan, one unit per grade and per handicap stone) and AGA numbers.

The scale, the AGA gap and the decisions taken here: docs/ratings.md §2.
Pure module: standard library only.
"""

from __future__ import annotations

import math

from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank, RankError

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


# -- AGA rank numbers (docs/ratings.md §2) --------------------------------------


class AgaRatingError(ValueError):
    """A number that is not an AGA rating (in the gap (-1, 1), or off the ladder)."""


def _check_aga(rating: float) -> None:
    if math.isnan(rating) or -1.0 < rating < 1.0:
        raise AgaRatingError(
            f"{rating} is not an AGA rating: dan ratings are >= 1, kyu ratings <= -1"
        )


def aga_rank(rating: float) -> Rank:
    """The rank of an AGA rating, truncated toward zero: 5.0-5.99 is 5d, -5.0 to -5.99 is 5k.

    Ratings in the gap or past 30k/9d are refused: goref cannot show them.
    """
    _check_aga(rating)
    n = math.trunc(rating)
    index = n - 1 if n > 0 else n
    if not MIN_INDEX <= index <= MAX_INDEX:
        raise AgaRatingError(f"AGA rating {rating} is off the 30k-9d ladder")
    return Rank(index)


def aga_rank_centre(rank: Rank) -> float:
    """BayRate's seed for a declared rank: n dan = n + 0.5, n kyu = -(n + 0.5)."""
    if rank.is_honorary:
        raise RankError("the honorary 9p+ has no AGA rating")
    if rank.is_dan:
        return rank.index + 1 + 0.5
    return rank.index - 0.5


def aga_to_stones(rating: float) -> float:
    """An AGA rating on the stone scale: close the gap as BayRate does, then subtract 0.5.

    A declared 3d (3.5) is 2.0 = 3d; 1k (-1.5) is -1.0 = 1k (docs/ratings.md §2).
    """
    _check_aga(rating)
    x = rating - 1.0 if rating > 0 else rating + 1.0
    return x - 0.5


def stones_to_aga(stones: float) -> float:
    """The inverse of ``aga_to_stones``; x = 0 goes back to 1.0, the dan side (goref's decision)."""
    x = stones + 0.5
    return x + 1.0 if x >= 0 else x - 1.0
