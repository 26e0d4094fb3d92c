"""Each rating system's numbers on the rank ladder and the stone scale (``Scale``).

A newcomer's starting state, the rank a rating falls in, a rating in stones
(docs/ratings.md §2 and §6).  Bump ``ALGORITHM_VERSIONS`` whenever a change
alters a system's numbers: the next update then recomputes in full.
Pure module: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ratings.ranks import MAX_INDEX, Rank
from ratings.systems import SYSTEMS, PlayerState, RatingSystem, get_system

ALGORITHM_VERSIONS: dict[str, str] = dict.fromkeys(SYSTEMS, "1")


def playing_rank(index: int) -> Rank:
    """The ladder rank a declared rank index plays at (9p+ plays as 9d)."""
    return Rank(min(index, MAX_INDEX))


@dataclass(frozen=True, slots=True)
class Scale:
    """A rating system with its own ladder (``RatingSystem.scale``) and version."""

    system: RatingSystem

    @property
    def name(self) -> str:
        return self.system.name

    @property
    def version(self) -> str:
        return ALGORITHM_VERSIONS.get(self.name, "1")

    @property
    def egf(self) -> bool:
        return self.system.scale.egf

    def start(self, declared_index: int) -> PlayerState:
        """A newcomer's state at the middle of his declared rank."""
        return self.system.new_player(self.system.scale.start_rating(playing_rank(declared_index)))

    def rank(self, rating: float) -> Rank:
        """The grade band a rating falls in (never the honorary 9p+)."""
        return self.system.scale.rank(rating)

    def stones(self, rating: float) -> float:
        """The rating on the stone scale (0 = the middle of 1d, one unit per grade)."""
        return self.system.scale.stones(rating)


def scale_for(name: str) -> Scale:
    """The scale of the rating system called ``name`` (``RatingError`` if unknown)."""
    return Scale(get_system(name))
