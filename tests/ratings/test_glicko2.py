"""Glicko-2 (Glickman's example) and OGS's flavour of it (docs/ratings.md §5)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.ranks import Rank
from ratings.systems import GLICKO2, OGS, OGS_CONFIG, GameOutcome, PlayerState, RatingConfig
from ratings.systems.base import RatingError
from ratings.systems.glicko2 import (
    Opponent,
    handicap_offset,
    idle,
    is_provisional,
    new_volatility,
    ogs_display_rank,
    ogs_rank,
    ogs_rating,
    update,
)

TOL = 1e-3
GLICKMAN = PlayerState(1500, 200, 0.06)
OPPONENTS = {
    "b": PlayerState(1400, 30, 0.06),
    "c": PlayerState(1550, 100, 0.06),
    "d": PlayerState(1700, 300, 0.06),
}


def test_glickmans_example() -> None:
    new = update(
        GLICKMAN,
        [Opponent(1400, 30, 1.0), Opponent(1550, 100, 0.0), Opponent(1700, 300, 0.0)],
    )
    assert new.rating == pytest.approx(1464.05, abs=0.01)  # the paper prints 1464.06
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)
    assert new.games == 3


def test_glickmans_example_as_one_event() -> None:
    players = {"a": GLICKMAN, **OPPONENTS}
    games = [GameOutcome("a", "b", 1.0), GameOutcome("c", "a", 1.0), GameOutcome("a", "d", 0.0)]
    new = GLICKO2.rate_event(players, games)["a"]
    assert new.rating == pytest.approx(1464.05, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)


def test_an_idle_period_grows_the_deviation() -> None:
    assert idle(GLICKMAN).deviation == pytest.approx(200.27, abs=0.01)
    assert idle(GLICKMAN).rating == 1500
    assert update(GLICKMAN, []).deviation == pytest.approx(200.27, abs=0.01)
    assert idle(GLICKMAN, 0) == GLICKMAN
    assert idle(PlayerState(1500, 490, 0.15), 100, OGS_CONFIG).deviation == 500  # clamped


def test_the_illinois_solver_keeps_sigma_when_nothing_surprises() -> None:
    # Δ² = φ² + v: the solver must still converge, to about σ.
    sigma = new_volatility(0.0, 1.0, 1.0, 0.06, RatingConfig())
    assert sigma == pytest.approx(0.06, abs=1e-3)


@pytest.mark.parametrize(
    ("rating", "rank", "shown"),
    [
        (525, 0.0, "30k"),
        (1000, 14.917, "16k"),
        (1500, 24.303, "6k"),
        (1918.5, 30.0001, "1d"),
        (2000, 30.963, "1d"),
        (2500, 36.129, "7d"),
    ],
)
def test_ogs_rank_vectors(rating: float, rank: float, shown: str) -> None:
    assert ogs_rank(rating) == pytest.approx(rank, abs=TOL)
    assert ogs_display_rank(rating, clamp=False) == Rank.parse(shown)


@pytest.mark.parametrize(("rank", "rating"), [(29, 1837.38), (30, 1918.49), (38, 2710.44)])
def test_ogs_rating_vectors(rank: float, rating: float) -> None:
    assert ogs_rating(rank) == pytest.approx(rating, abs=5e-3)  # published to 0.01


def test_1918_49_is_still_1k() -> None:
    assert ogs_rank(1918.49) == pytest.approx(29.99998, abs=1e-5)
    assert ogs_display_rank(1918.49) == Rank.parse("1k")


def test_displayed_ranks_are_clamped_to_25k_and_9d() -> None:
    assert ogs_display_rank(525) == Rank.parse("25k")
    assert ogs_display_rank(100) == Rank.parse("25k")
    assert ogs_display_rank(6000) == Rank.parse("9d")
    assert ogs_display_rank(100, clamp=False) == Rank.parse("30k")


@given(st.floats(min_value=100, max_value=6000))
def test_rank_and_rating_are_inverse(rating: float) -> None:
    assert ogs_rating(ogs_rank(rating)) == pytest.approx(rating, rel=1e-12)


def test_ogs_start_values_and_provisional_players() -> None:
    new = OGS.new_player()
    assert (new.rating, new.deviation, new.volatility) == (1500, 350, 0.06)
    assert is_provisional(new)
    assert is_provisional(PlayerState(1500, 160, 0.06))
    assert not is_provisional(PlayerState(1500, 159.9, 0.06))


def test_ogs_clamps_every_value() -> None:
    players = {"a": PlayerState(120, 40, 0.149), "b": PlayerState(5990, 40, 0.149)}
    out = OGS.rate_event(players, [GameOutcome("b", "a", 0.0)] * 30)
    assert out["a"].rating <= 6000 and out["b"].rating >= 100
    for s in out.values():
        assert 30 <= s.deviation <= 500
        assert 0.01 <= s.volatility <= 0.15


def test_ogs_handicap_is_extra_ranks() -> None:
    off = handicap_offset(1500, 2)
    assert 1500 + off == pytest.approx(ogs_rating(ogs_rank(1500) + 2))
    assert handicap_offset(1500, 0) == 0
    assert handicap_offset(1500, 2, RatingConfig()) == 0  # plain Glicko-2: no adjustment


def test_ogs_a_handicap_win_earns_less_than_an_even_win() -> None:
    players = {"a": OGS.new_player(), "b": OGS.new_player()}
    even = OGS.rate_event(players, [GameOutcome("a", "b", 1.0)])
    two = OGS.rate_event(players, [GameOutcome("a", "b", 1.0, 2)])
    assert 1500 < two["a"].rating < even["a"].rating
    assert even["b"].rating < two["b"].rating < 1500


def test_ogs_rates_one_game_per_period_in_order() -> None:
    players = {"a": OGS.new_player(), "b": OGS.new_player()}
    games = [GameOutcome("a", "b", 1.0), GameOutcome("a", "b", 1.0)]
    step = OGS.rate_event(players, games[:1])
    want = OGS.rate_event(step, games[1:])
    assert OGS.rate_event(players, games) == want
    assert want["a"].games == 2


def test_glicko_refuses_players_without_deviation() -> None:
    with pytest.raises(RatingError, match="deviation"):
        GLICKO2.rate_event({"a": PlayerState(1500), "b": GLICKMAN}, [GameOutcome("a", "b", 1.0)])


ratings = st.floats(min_value=200, max_value=3000)
rds = st.floats(min_value=30, max_value=350)


@given(ratings, rds, ratings, rds, st.integers(0, 9), st.booleans())
def test_a_win_never_lowers_a_rating(r1, d1, r2, d2, h, ogs) -> None:
    system = OGS if ogs else GLICKO2
    players = {"me": PlayerState(r1, d1, 0.06), "them": PlayerState(r2, d2, 0.06)}
    out = system.rate_event(players, [GameOutcome("me", "them", 1.0, h)])
    assert out["me"].rating >= r1 - 1e-9
    assert out["them"].rating <= r2 + 1e-9


@given(ratings, rds)
def test_a_game_never_widens_the_deviation_beyond_an_idle_period(r, d) -> None:
    # φ' = 1/√(1/φ*² + 1/v) < φ* = √(φ² + σ'²): a game only ever adds information.
    me = PlayerState(r, d, 0.06)
    out = update(me, [Opponent(1500, 100, 0.5)])
    assert out.deviation <= idle(PlayerState(r, d, out.volatility)).deviation + 1e-9
    assert math.isfinite(out.rating)
