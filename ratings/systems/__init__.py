"""Rating systems behind one interface (``base.RatingSystem``), looked up by name.

``egf2021`` (the default), ``egf1998``, ``glicko2`` and ``ogs``: docs/ratings.md §3-§5.
Pure package: standard library only (``tests/test_pure_isolation.py`` checks it).
"""

from __future__ import annotations

from ratings.systems.base import (
    DEFAULT_CONFIG,
    OGS_CONFIG,
    GameOutcome,
    PlayerId,
    PlayerState,
    RatingConfig,
    RatingError,
    RatingSystem,
)
from ratings.systems.egf import EGF2021, EGF_OLD, rate_event_indexed, rate_history
from ratings.systems.glicko2 import GLICKO2, OGS

SYSTEMS: dict[str, RatingSystem] = {s.name: s for s in (EGF2021, EGF_OLD, GLICKO2, OGS)}
DEFAULT_SYSTEM = "egf2021"


def get_system(name: str = DEFAULT_SYSTEM) -> RatingSystem:
    """The rating system called ``name`` (one of ``SYSTEMS``)."""
    try:
        return SYSTEMS[name.strip().lower()]
    except KeyError:
        raise RatingError(
            f"unknown rating system {name!r}: expected one of {', '.join(SYSTEMS)}"
        ) from None


__all__ = [
    "DEFAULT_CONFIG",
    "DEFAULT_SYSTEM",
    "EGF2021",
    "EGF_OLD",
    "GLICKO2",
    "OGS",
    "OGS_CONFIG",
    "SYSTEMS",
    "GameOutcome",
    "PlayerId",
    "PlayerState",
    "RatingConfig",
    "RatingError",
    "RatingSystem",
    "get_system",
    "rate_event_indexed",
    "rate_history",
]
