"""EGF GoR: the 2021 system (goref's default engine) and the 1998-2020 system.

The formulas, their sources, goref's readings (the floor after the sum) and
why the batch path is fast: docs/ratings.md §3 and §4.
Pure module: standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from ratings.ranks import Rank, RankError
from ratings.stones import gor_to_stones
from ratings.systems.base import (
    DEFAULT_CONFIG,
    GameOutcome,
    P,
    PlayerState,
    RatingConfig,
    RatingError,
    participants,
)

CEILING = 3300.0  # the formula's pole: con, β are undefined at and above it
CLASS_WEIGHTS = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
"""The EGD's tournament-class weights: each player's summed change is multiplied by them."""
GameTuple = tuple[int, int, float, int]
"""(black index, white index, score_black, handicap) for the batch API."""


# -- the 2021 formula, one value at a time (docs/ratings.md §3) ----------------


def _check(r: float) -> None:
    if not r < CEILING:  # also refuses NaN
        raise RatingError(f"EGF GoR must be below {CEILING:.0f}, not {r}")


def con(r: float) -> float:
    """The K-factor ``((3300 − r) / 200) ^ 1.6``."""
    _check(r)
    return float(((CEILING - r) / 200.0) ** 1.6)


def bonus(r: float) -> float:
    """The anti-deflation term ``ln(1 + exp((2300 − r) / 80)) / 5``."""
    x = (2300.0 - r) / 80.0
    if x > 30.0:  # ln(1 + e^x) = x + ln(1 + e^-x), without overflowing exp
        return (x + math.log1p(math.exp(-x))) / 5.0
    return math.log1p(math.exp(x)) / 5.0


def beta(r: float) -> float:
    """``β(r) = −7 · ln(3300 − r)``."""
    _check(r)
    return -7.0 * math.log(CEILING - r)


def adjusted_rating(r: float, handicap: int, config: RatingConfig = DEFAULT_CONFIG) -> float:
    """The rating a receiver of ``handicap`` stones plays at: r + 100·(H − 0.5) for H >= 1."""
    if handicap < 0:
        raise RatingError(f"a handicap cannot be negative ({handicap})")
    if handicap == 0:
        return r
    return r + config.handicap_stone * (handicap - 0.5)


def expected_score(
    r1: float,
    r2: float,
    handicap1: int = 0,
    handicap2: int = 0,
    config: RatingConfig = DEFAULT_CONFIG,
) -> float:
    """Se of player 1 against player 2, ``handicapN`` being the stones player N receives.

    ``1 / (1 + exp(β(e2) − β(e1)))`` with the adjusted ratings; Se(a, b) + Se(b, a) = 1.
    """
    e1 = adjusted_rating(r1, handicap1, config)
    e2 = adjusted_rating(r2, handicap2, config)
    return 1.0 / (1.0 + math.exp(beta(e2) - beta(e1)))


def game_update(r: float, sa: float, se: float, config: RatingConfig = DEFAULT_CONFIG) -> float:
    """One game on its own: ``max(r + con(r)·(Sa − Se) + bonus(r), floor)``."""
    return max(r + con(r) * (sa - se) + bonus(r), config.floor)


def grade_from_gor(gor: float) -> Rank:
    """The grade band of a GoR (``Rank.from_gor``)."""
    return Rank.from_gor(gor)


def gor_from_grade(rank: Rank) -> float:
    """A newcomer's GoR: the grade's nominal GoR (``Rank.nominal_gor``)."""
    return float(rank.nominal_gor)


RESET_GRADES = 2
"""How many grades above his highest earlier entry grade a player must enter to be reset."""


def entry_grade_reset(rating: float, entry: Rank, highest: Rank | None) -> float | None:
    """The GoR an EGD entry-grade reset gives, or ``None`` when there is none.

    A player who enters an event two or more grades above the highest grade
    he entered any earlier event with starts it at the new grade's GoR.
    goref resets upward only: a reset never lowers a rating.
    """
    if highest is None or entry.index < highest.index + RESET_GRADES:
        return None
    target = gor_from_grade(entry)
    return target if target > rating else None


def pro_gor(dan: int) -> float:
    """The pro scale: 1p = 2700, +30 per pro dan, up to 9p = 2940 (docs/ratings.md §3)."""
    if not 1 <= dan <= 9:
        raise RankError(f"professional ranks run from 1p to 9p, not {dan}p")
    return 2700.0 + 30.0 * (dan - 1)


# -- the batch path --------------------------------------------------------------


def rate_event_indexed(
    ratings: list[float],
    games: Sequence[GameTuple],
    config: RatingConfig = DEFAULT_CONFIG,
    counts: list[int] | None = None,
    weight: float = 1.0,
    skipped: list[int] | None = None,
) -> list[int]:
    """Rate one event in place on ``ratings`` (a list indexed by player number).

    ``weight`` is the event's class weight (``CLASS_WEIGHTS``).  A game that
    lifts its receiver to the pole is not rated: its index goes to ``skipped``
    (the event is rated without it rather than failing).  Adds each player's
    game count to ``counts`` if given; returns the players in first-appearance
    order.  Scores are not validated: the batch path trusts its caller
    (``EGF2021.rate_event`` validates through ``GameOutcome``).
    """
    return _rate_event_fast(
        ratings, games, config.floor, config.handicap_stone, counts, weight, skipped
    )


def rate_history(
    ratings: list[float],
    events: Iterable[Sequence[GameTuple]],
    config: RatingConfig = DEFAULT_CONFIG,
) -> list[float]:
    """Rate ``events`` (tournaments in date order, each a sequence of game tuples) in place.

    ``ratings`` holds every player's starting GoR by player number; returns it.
    """
    floor = config.floor
    stone = config.handicap_stone
    fast = _rate_event_fast
    for games in events:
        fast(ratings, games, floor, stone, None, 1.0, None)
    return ratings


def _rate_event_fast(
    R: list[float],
    games: Sequence[GameTuple],
    floor: float,
    stone: float,
    counts: list[int] | None,
    weight: float,
    skipped: list[int] | None,
) -> list[int]:
    # Σ(Sa − Se) and the game count per player, in dicts local to the event:
    # an event touches a handful of players out of the whole list.
    acc: dict[int, float] = {}
    cnt: dict[int, int] = {}
    get_a = acc.get
    get_n = cnt.get
    top = CEILING
    for k, (b, w, sb, h) in enumerate(games):
        rw = top - R[w]
        if h:
            x = (top - R[b] - stone * (h - 0.5)) / rw
            if x <= 0.0:
                # β has its pole at 3300: the EGD rates at most 9 stones, so a
                # game past the formula is left out, never the whole event.
                if skipped is None:
                    raise RatingError(f"player {b} with {h} stones plays at or above {top:.0f}")
                skipped.append(k)
                continue
        else:
            x = (top - R[b]) / rw
        # Sa − Se for Black; Se = 1/(1 + exp(β(eW) − β(eB))) = 1/(1 + x^7)
        d = sb - 1.0 / (1.0 + x**7)
        acc[b] = get_a(b, 0.0) + d
        acc[w] = get_a(w, 0.0) - d
        cnt[b] = get_n(b, 0) + 1
        cnt[w] = get_n(w, 0) + 1
    log1p = math.log1p
    exp = math.exp
    for p, s in acc.items():
        r = R[p]
        if not r < top:
            raise RatingError(f"EGF GoR must be below {top:.0f}, not {r} (player {p})")
        x = (2300.0 - r) * 0.0125
        bn = (x + log1p(exp(-x))) * 0.2 if x > 30.0 else log1p(exp(x)) * 0.2
        r += weight * (((top - r) * 0.005) ** 1.6 * s + cnt[p] * bn)
        R[p] = r if r > floor else floor
    if counts is not None:
        for p, n in cnt.items():
            counts[p] += n
    return list(acc)


# -- the textbook form, for cross-checks and the benchmark's peer ----------------


def rate_event_textbook(
    ratings: Mapping[P, float],
    games: Sequence[GameOutcome[P]],
    config: RatingConfig = DEFAULT_CONFIG,
    weight: float = 1.0,
) -> dict[P, float]:
    """The formula applied game by game exactly as written, with no caching.

    Slow on purpose: the independent implementation the batch path is checked
    against, and the benchmark's peer.
    """
    delta: dict[P, float] = {}
    for g in games:
        rb, rw = ratings[g.black], ratings[g.white]
        se_b = expected_score(rb, rw, g.handicap, 0, config)
        se_w = expected_score(rw, rb, 0, g.handicap, config)
        delta[g.black] = delta.get(g.black, 0.0) + con(rb) * (g.score_black - se_b) + bonus(rb)
        delta[g.white] = delta.get(g.white, 0.0) + con(rw) * (g.score_white - se_w) + bonus(rw)
    return {p: max(ratings[p] + weight * d, config.floor) for p, d in delta.items()}


# -- the RatingSystem objects -----------------------------------------------------


def _index_event(
    players: Mapping[P, PlayerState], games: Sequence[GameOutcome[P]]
) -> tuple[list[P], list[float], list[GameTuple]]:
    ids = participants(games, players)
    index = {p: i for i, p in enumerate(ids)}
    ratings = [float(players[p].rating) for p in ids]
    rows = [(index[g.black], index[g.white], float(g.score_black), g.handicap) for g in games]
    return ids, ratings, rows


def _newcomer_rating(rating: float | None, config: RatingConfig | None) -> float:
    """A newcomer's GoR under either EGF system: the grade's GoR given, floored."""
    if rating is None:
        raise RatingError("an EGF newcomer starts at the GoR of a grade: pass one")
    return max(float(rating), (config or DEFAULT_CONFIG).floor)


class GorScale:
    """The EGD's ladder: a grade's nominal GoR, 100 GoR a stone (docs/ratings.md §2)."""

    egf = True

    def start_rating(self, rank: Rank) -> float:
        return float(rank.nominal_gor)

    def rank(self, rating: float) -> Rank:
        return Rank.from_gor(rating)

    def stones(self, rating: float) -> float:
        return gor_to_stones(rating)


GOR_SCALE = GorScale()


class Egf2021:
    """EGF GoR 2021 (docs/ratings.md §3), goref's default rating system."""

    name = "egf2021"
    scale = GOR_SCALE

    def rate_event(
        self,
        players: Mapping[P, PlayerState],
        games: Sequence[GameOutcome[P]],
        config: RatingConfig | None = None,
        weight: float = 1.0,
    ) -> dict[P, PlayerState]:
        """Rate one tournament against its pre-tournament ratings (see ``rate_event_indexed``)."""
        config = config or DEFAULT_CONFIG
        ids, ratings, rows = _index_event(players, games)
        for r in ratings:
            _check(r)
        counts = [0] * len(ids)
        _rate_event_fast(ratings, rows, config.floor, config.handicap_stone, counts, weight, None)
        return {
            p: PlayerState(rating=ratings[i], games=players[p].games + counts[i])
            for i, p in enumerate(ids)
        }

    def new_player(
        self, rating: float | None = None, config: RatingConfig | None = None
    ) -> PlayerState:
        """A newcomer at ``rating``: in the EGD, the nominal GoR of the declared grade."""
        rating = _newcomer_rating(rating, config)
        _check(rating)
        return PlayerState(rating=rating)


# -- the old system, 1998-2020 (docs/ratings.md §4) --------------------------------

_OLD_CON = (
    116,
    110,
    105,
    100,
    95,
    90,
    85,
    80,
    75,
    70,
    65,
    60,
    55,
    51,
    47,
    43,
    39,
    35,
    31,
    27,
    24,
    21,
    18,
    15,
    13,
    11,
    10,
)
"""con at r = 100, 200, …, 2700."""


def old_a(r: float) -> float:
    """``a(r) = max(70, 205 − r/20)``."""
    return max(70.0, 205.0 - r / 20.0)


def old_con(r: float) -> float:
    """con interpolated linearly from the table for r = 100 … 2700, constant beyond its ends."""
    if r <= 100.0:
        return float(_OLD_CON[0])
    if r >= 2700.0:
        return float(_OLD_CON[-1])
    i = int((r - 100.0) // 100.0)
    lo, hi = _OLD_CON[i], _OLD_CON[i + 1]
    frac = (r - 100.0 - 100.0 * i) / 100.0
    return lo + (hi - lo) * frac


def old_expected_scores(
    r1: float,
    r2: float,
    handicap1: int = 0,
    handicap2: int = 0,
    config: RatingConfig = DEFAULT_CONFIG,
) -> tuple[float, float]:
    """(Se1, Se2) under the old system.

    ``a`` is taken at the weaker side's *adjusted* rating, and equal adjusted
    ratings give both ``(1 − ε)/2``: goref's readings, docs/ratings.md §4.
    """
    e1 = adjusted_rating(r1, handicap1, config)
    e2 = adjusted_rating(r2, handicap2, config)
    eps = config.old_epsilon
    if e1 == e2:
        half = (1.0 - eps) / 2.0
        return half, half
    weak, strong = (e1, e2) if e1 < e2 else (e2, e1)
    se_weak = 1.0 / (math.exp((strong - weak) / old_a(weak)) + 1.0)
    se_strong = 1.0 - eps - se_weak
    return (se_weak, se_strong) if e1 < e2 else (se_strong, se_weak)


class EgfOld:
    """The EGF system of 1998-2020, for recomputing historic ratings (docs/ratings.md §4).

    No bonus; floored at ``config.floor``, though the sources give it no floor.
    """

    name = "egf1998"
    scale = GOR_SCALE

    def rate_event(
        self,
        players: Mapping[P, PlayerState],
        games: Sequence[GameOutcome[P]],
        config: RatingConfig | None = None,
        weight: float = 1.0,
    ) -> dict[P, PlayerState]:
        config = config or DEFAULT_CONFIG
        ids = participants(games, players)
        pre = {p: float(players[p].rating) for p in ids}
        delta = dict.fromkeys(ids, 0.0)
        count = dict.fromkeys(ids, 0)
        for g in games:
            rb, rw = pre[g.black], pre[g.white]
            se_b, se_w = old_expected_scores(rb, rw, g.handicap, 0, config)
            delta[g.black] += old_con(rb) * (g.score_black - se_b)
            delta[g.white] += old_con(rw) * (g.score_white - se_w)
            count[g.black] += 1
            count[g.white] += 1
        return {
            p: PlayerState(
                rating=max(pre[p] + weight * delta[p], config.floor),
                games=players[p].games + count[p],
            )
            for p in ids
        }

    def new_player(
        self, rating: float | None = None, config: RatingConfig | None = None
    ) -> PlayerState:
        """As ``Egf2021.new_player``, without the 2021 ceiling (the old con has none)."""
        return PlayerState(rating=_newcomer_rating(rating, config))


EGF2021 = Egf2021()
EGF_OLD = EgfOld()
