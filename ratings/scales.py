"""Each rating system's numbers on the rank ladder and the stone scale (``Scale``).

A newcomer's starting state, the rank a rating falls in, a rating in stones
(docs/ratings.md §2 and §6).  Bump ``ALGORITHM_VERSIONS`` whenever a change
alters a system's numbers: the next update then recomputes in full.
Pure module: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ratings.ranks import MAX_INDEX, Rank
from ratings.stones import gor_to_stones
from ratings.systems import SYSTEMS, PlayerState, RatingConfig, RatingSystem, get_system
from ratings.systems.base import OGS_CONFIG
from ratings.systems.glicko2 import ogs_display_rank, ogs_rank, ogs_rating

ALGORITHM_VERSIONS: dict[str, str] = dict.fromkeys(SYSTEMS, "1")


def playing_rank(index: int) -> Rank:
    """The ladder rank a declared rank index plays at (9p+ plays as 9d)."""
    return Rank(min(index, MAX_INDEX))


@dataclass(frozen=True, slots=True)
class Scale:
    name: str
    system: RatingSystem
    config: RatingConfig | None
    egf: bool

    @property
    def version(self) -> str:
        return ALGORITHM_VERSIONS.get(self.name, "1")

    def start(self, declared_index: int) -> PlayerState:
        """A newcomer's state at the middle of his declared rank."""
        rank = playing_rank(declared_index)
        if self.egf:
            return self.system.new_player(float(rank.nominal_gor), self.config)
        return self.system.new_player(ogs_rating(rank.ogs_index + 0.5), self.config)

    def rank(self, rating: float) -> Rank:
        """The grade band a rating falls in (never the honorary 9p+)."""
        if self.egf:
            return Rank.from_gor(rating)
        return ogs_display_rank(rating, clamp=False)

    def stones(self, rating: float) -> float:
        """The rating on the stone scale (0 = the middle of 1d, one unit per grade)."""
        if self.egf:
            return gor_to_stones(rating)
        return ogs_rank(rating) - 30.5


def scale_for(name: str) -> Scale:
    """The scale of the rating system called ``name`` (``RatingError`` if unknown)."""
    system = get_system(name)
    egf = system.name.startswith("egf")
    config = OGS_CONFIG if system.name == "ogs" else None
    return Scale(name=system.name, system=system, config=config, egf=egf)
