"""The one interface every rating system implements, and the values it trades in.

``RatingSystem.rate_event`` rates an event as a whole against the ratings its
players had when it began (docs/ratings.md §3, "Per tournament").
Configuration travels as a frozen ``RatingConfig``.  Pure module: standard library only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

from ratings.ranks import Rank

PlayerId: TypeAlias = Hashable
P = TypeVar("P", bound=Hashable)
"""A player reference: whatever the caller keys players by (an int, a UUID, a name)."""

VALID_SCORES = (0.0, 0.5, 1.0)


class RatingError(ValueError):
    """Input a rating system cannot rate (an unknown player, a bad score, ...)."""


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's rating before or after an event.

    ``rating`` is the system's number (GoR for EGF, Glicko rating for
    Glicko-2/OGS).  ``deviation`` (RD) and ``volatility`` (σ) are used by
    Glicko-2 only and stay 0 under EGF.  ``games`` counts rated games.
    """

    rating: float
    deviation: float = 0.0
    volatility: float = 0.0
    games: int = 0


@dataclass(frozen=True, slots=True)
class GameOutcome(Generic[P]):
    """One rated game: ``score_black`` is 1 (Black won), 0.5 (jigo) or 0.

    ``handicap``: stones Black received (0 even; 1 no komi).  ``komi`` is kept
    for the record only: no rating formula uses it.
    """

    black: P
    white: P
    score_black: float
    handicap: int = 0
    komi: Decimal | None = None

    def __post_init__(self) -> None:
        if self.score_black not in VALID_SCORES:
            raise RatingError(
                f"score_black must be 1 (win), 0.5 (jigo) or 0 (loss), not {self.score_black!r}"
            )
        if self.handicap < 0:
            raise RatingError(f"a handicap cannot be negative ({self.handicap})")
        if self.black == self.white:
            raise RatingError(f"player {self.black!r} cannot play against themselves")

    @property
    def score_white(self) -> float:
        return 1.0 - self.score_black


@dataclass(frozen=True, slots=True)
class RatingConfig:
    """Every tunable number of the rating systems, in one frozen value.

    Each field's meaning and source: docs/ratings.md §3 (EGF 2021), §4 (EGF
    1998: ``old_epsilon``) and §5 (Glicko-2, OGS).
    """

    # EGF GoR
    floor: float = -900.0
    handicap_stone: float = 100.0
    old_epsilon: float = 0.016
    # Glicko-2
    tau: float = 0.5
    epsilon: float = 1e-6
    initial_rating: float = 1500.0
    initial_deviation: float = 350.0
    initial_volatility: float = 0.06
    rating_bounds: tuple[float, float] | None = None
    deviation_bounds: tuple[float, float] | None = None
    volatility_bounds: tuple[float, float] | None = None
    one_game_per_period: bool = False
    provisional_deviation: float = 160.0
    handicap_ranks_per_stone: float = 0.0

    def __post_init__(self) -> None:
        if self.tau <= 0 or self.epsilon <= 0:
            raise RatingError("tau and epsilon must be positive")
        if self.handicap_stone < 0:
            raise RatingError("handicap_stone must not be negative")


DEFAULT_CONFIG = RatingConfig()

OGS_CONFIG = RatingConfig(
    initial_rating=1500.0,
    initial_deviation=350.0,
    initial_volatility=0.06,
    rating_bounds=(100.0, 6000.0),
    deviation_bounds=(30.0, 500.0),
    volatility_bounds=(0.01, 0.15),
    one_game_per_period=True,
    handicap_ranks_per_stone=1.0,
)
"""OGS's Glicko-2 settings (docs/ratings.md §5, OGS goratings)."""


class RankScale(Protocol):
    """How a system's ratings read on the rank ladder and the stone scale (docs/ratings.md
    §2 and §6): each system names its own, so none is read on another's by default."""

    egf: bool  # GoR: the EGD's entry-grade reset applies

    def start_rating(self, rank: Rank) -> float:
        """A newcomer's rating at the middle of ``rank``."""
        ...

    def rank(self, rating: float) -> Rank:
        """The grade band a rating falls in (never the honorary 9p+)."""
        ...

    def stones(self, rating: float) -> float:
        """The rating on the stone scale (0 = the middle of 1d, one unit per grade)."""
        ...


@runtime_checkable
class RatingSystem(Protocol):
    """A rating system: rate one event against the ratings its players had when it began."""

    name: str

    @property
    def scale(self) -> RankScale:
        """The ladder this system's ratings are read on."""
        ...

    def rate_event(
        self,
        players: Mapping[P, PlayerState],
        games: Sequence[GameOutcome[P]],
        config: RatingConfig | None = None,
        weight: float = 1.0,
    ) -> dict[P, PlayerState]:
        """The new state of every player who played one of ``games``.

        ``weight``: the event's EGD class weight, which the EGF systems apply
        to each player's summed change (Glicko-2 has no classes and ignores it).
        ``config=None`` means the system's own defaults.  ``players`` must
        hold a state for every player in ``games`` (``RatingError``
        otherwise); players who did not play are not returned.
        """
        ...

    def new_player(
        self, rating: float | None = None, config: RatingConfig | None = None
    ) -> PlayerState:
        """The state a newcomer starts with (EGF: the GoR of the declared grade)."""
        ...


def participants(games: Sequence[GameOutcome[P]], players: Mapping[P, PlayerState]) -> list[P]:
    """The players of ``games`` in first-appearance order, checked against ``players``."""
    seen: dict[P, None] = {}
    for g in games:
        seen.setdefault(g.black)
        seen.setdefault(g.white)
    missing = [p for p in seen if p not in players]
    if missing:
        raise RatingError(f"no pre-event rating for player(s) {missing!r}")
    return list(seen)
