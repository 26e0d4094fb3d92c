"""Glicko-2 (Glickman, 2012) and OGS's flavour of it (``OGS_CONFIG``), with OGS's ranks.

The formulas, OGS's settings and the decisions where the sources are silent
(handicap games, what an event is, idle periods, clamps): docs/ratings.md §5.
Pure module: standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank
from ratings.systems.base import (
    DEFAULT_CONFIG,
    OGS_CONFIG,
    GameOutcome,
    P,
    PlayerState,
    RatingConfig,
    RatingError,
    participants,
)

SCALE = 173.7178
BASE = 1500.0
OGS_RANK_BASE = 525.0
OGS_RANK_SCALE = 23.15
OGS_DISPLAY_MIN = 5.0  # 25 kyu
OGS_DISPLAY_MAX = 38.0  # 9 dan


@dataclass(frozen=True, slots=True)
class Opponent:
    """One result in a rating period, from the rated player's side.

    ``rating`` is the opponent's effective rating (handicap included) and
    ``offset`` the rated player's own handicap adjustment (effective rating
    − real rating; 0 unless the rated player received stones).
    """

    rating: float
    deviation: float
    score: float
    offset: float = 0.0


def g(phi: float) -> float:
    """``g(φ) = 1/√(1 + 3φ²/π²)``."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """``E = 1/(1 + exp(−g(φj)(μ − μj)))``."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def _clamp(x: float, bounds: tuple[float, float] | None) -> float:
    if bounds is None:
        return x
    lo, hi = bounds
    return lo if x < lo else hi if x > hi else x


def new_volatility(delta: float, phi: float, v: float, sigma: float, config: RatingConfig) -> float:
    """σ' by the Illinois algorithm with tolerance ``config.epsilon`` (Glickman, step 5)."""
    tau = config.tau
    a = math.log(sigma * sigma)
    d2 = delta * delta
    p2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > config.epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:  # "≤": an exact root must not stall the loop
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    state: PlayerState, results: Sequence[Opponent], config: RatingConfig = DEFAULT_CONFIG
) -> PlayerState:
    """One rating period for one player; no results is an idle period."""
    if not results:
        return idle(state, 1, config)
    mu = (state.rating - BASE) / SCALE
    phi = state.deviation / SCALE
    sigma = state.volatility
    inv_v = 0.0
    total = 0.0
    for o in results:
        gj = g(o.deviation / SCALE)
        mu_self = mu + o.offset / SCALE
        e = 1.0 / (1.0 + math.exp(-gj * (mu_self - (o.rating - BASE) / SCALE)))
        inv_v += gj * gj * e * (1.0 - e)
        total += gj * (o.score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma2 = new_volatility(delta, phi, v, sigma, config)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    return PlayerState(
        rating=_clamp(SCALE * mu2 + BASE, config.rating_bounds),
        deviation=_clamp(SCALE * phi2, config.deviation_bounds),
        volatility=_clamp(sigma2, config.volatility_bounds),
        games=state.games + len(results),
    )


def idle(
    state: PlayerState, periods: int = 1, config: RatingConfig = DEFAULT_CONFIG
) -> PlayerState:
    """``periods`` rating periods without games: φ' = √(φ² + periods·σ²)."""
    if periods < 0:
        raise RatingError(f"periods cannot be negative ({periods})")
    phi = state.deviation / SCALE
    phi2 = math.sqrt(phi * phi + periods * state.volatility * state.volatility)
    return PlayerState(
        rating=state.rating,
        deviation=_clamp(SCALE * phi2, config.deviation_bounds),
        volatility=state.volatility,
        games=state.games,
    )


def is_provisional(state: PlayerState, config: RatingConfig = OGS_CONFIG) -> bool:
    """OGS: provisional while RD >= 160 (unused: goref counts games, docs/ratings.md §6)."""
    return state.deviation >= config.provisional_deviation


# -- OGS ranks (docs/ratings.md §5) -----------------------------------------------


def ogs_rank(rating: float) -> float:
    """``rank = ln(rating/525)·23.15``: 0 = 30k, 30 = 1d, 38 = 9d."""
    if not rating > 0:
        raise RatingError(f"an OGS rating must be positive, not {rating}")
    return math.log(rating / OGS_RANK_BASE) * OGS_RANK_SCALE


def ogs_rating(rank: float) -> float:
    """``rating = 525·e^(rank/23.15)``, the inverse of ``ogs_rank``."""
    return OGS_RANK_BASE * math.exp(rank / OGS_RANK_SCALE)


def ogs_display_rank(rating: float, clamp: bool = True) -> Rank:
    """The rank OGS shows, rounded down; ``clamp`` limits it to 25k … 9d as OGS does.

    Without ``clamp`` only the ladder's 30k … 9d applies.
    """
    rank = ogs_rank(rating)
    if clamp:
        rank = min(OGS_DISPLAY_MAX, max(OGS_DISPLAY_MIN, rank))
    index = -math.ceil(30.0 - rank) if rank < 30.0 else math.floor(rank - 29.0) - 1
    return Rank(min(MAX_INDEX, max(MIN_INDEX, index)))


def handicap_offset(rating: float, handicap: int, config: RatingConfig = OGS_CONFIG) -> float:
    """How much a receiver of ``handicap`` stones gains: rank + H·k mapped back, minus rating.

    k is ``config.handicap_ranks_per_stone`` (OGS: 1; 0 turns the adjustment off).
    """
    if handicap <= 0 or config.handicap_ranks_per_stone == 0:
        return 0.0
    return ogs_rating(ogs_rank(rating) + handicap * config.handicap_ranks_per_stone) - rating


class OgsScale:
    """OGS's ladder: ``ogs_rank`` of a rating, 30.5 the middle of 1d (docs/ratings.md §5)."""

    egf = False

    def start_rating(self, rank: Rank) -> float:
        return ogs_rating(rank.ogs_index + 0.5)

    def rank(self, rating: float) -> Rank:
        return ogs_display_rank(rating, clamp=False)

    def stones(self, rating: float) -> float:
        return ogs_rank(rating) - 30.5


OGS_SCALE = OgsScale()


# -- the RatingSystem objects -------------------------------------------------------


def _opponents(
    game: GameOutcome[P], pre: Mapping[P, PlayerState], config: RatingConfig
) -> tuple[Opponent, Opponent]:
    """The game as seen by Black and by White (Black receives the handicap)."""
    b, w = pre[game.black], pre[game.white]
    off = handicap_offset(b.rating, game.handicap, config)
    for_black = Opponent(w.rating, w.deviation, game.score_black, offset=off)
    for_white = Opponent(b.rating + off, b.deviation, game.score_white)
    return for_black, for_white


class Glicko2:
    """Glicko-2; ``Glicko2(OGS_CONFIG, "ogs")`` is OGS's flavour (docs/ratings.md §5)."""

    # Glicko-2 has no ladder of its own; its numbers are OGS's, so OGS's ranks read them.
    scale = OGS_SCALE

    def __init__(self, default_config: RatingConfig = DEFAULT_CONFIG, name: str = "glicko2"):
        self.default_config = default_config
        self.name = name

    def rate_event(
        self,
        players: Mapping[P, PlayerState],
        games: Sequence[GameOutcome[P]],
        config: RatingConfig | None = None,
        weight: float = 1.0,
    ) -> dict[P, PlayerState]:
        """The event as one rating period, or game by game with ``one_game_per_period``.

        ``weight`` (an EGD class weight) does not apply to Glicko-2.
        """
        config = config or self.default_config
        ids = participants(games, players)
        for p in ids:
            s = players[p]
            if s.deviation <= 0 or s.volatility <= 0:
                raise RatingError(f"player {p!r} has no Glicko deviation/volatility: {s}")
        if config.one_game_per_period:
            current = {p: players[p] for p in ids}
            for game in games:
                for_black, for_white = _opponents(game, current, config)
                new_b = update(current[game.black], [for_black], config)
                new_w = update(current[game.white], [for_white], config)
                current[game.black], current[game.white] = new_b, new_w
            return current
        results: dict[P, list[Opponent]] = {p: [] for p in ids}
        for game in games:
            for_black, for_white = _opponents(game, players, config)
            results[game.black].append(for_black)
            results[game.white].append(for_white)
        return {p: update(players[p], results[p], config) for p in ids}

    def new_player(
        self, rating: float | None = None, config: RatingConfig | None = None
    ) -> PlayerState:
        """Start values (1500 / 350 / 0.06), optionally at a given rating."""
        config = config or self.default_config
        return PlayerState(
            rating=config.initial_rating if rating is None else float(rating),
            deviation=config.initial_deviation,
            volatility=config.initial_volatility,
        )


GLICKO2 = Glicko2()
OGS = Glicko2(OGS_CONFIG, "ogs")
