"""The net-win ladder (docs/promotions.md §2.3, Groningen Go Club)."""

from __future__ import annotations

import pytest

from ratings.promotion.engine import (
    GRONINGEN_STEPS,
    BandRule,
    LadderStep,
    NetWinLadder,
    PolicyError,
    PromotionPolicy,
    evaluate,
)
from ratings.ranks import Rank
from tests.ratings.promotion.engine.helpers import event, history, r

GRONINGEN = BandRule((NetWinLadder(),))
LADDER = PromotionPolicy(kyu=GRONINGEN, low_dan=GRONINGEN, high_dan=GRONINGEN)
LADDER_REVOKING = PromotionPolicy(
    kyu=GRONINGEN, low_dan=GRONINGEN, high_dan=GRONINGEN, revoke_dan=True
)
LOW = 100.0  # far below any threshold: only the ladder moves the player


@pytest.mark.parametrize(
    ("rank", "n"),
    [
        ("30k", 1),
        ("21k", 1),
        ("20k", 2),
        ("11k", 2),
        ("10k", 3),
        ("6k", 3),
        ("5k", 4),
        ("1k", 4),
        ("1d", 5),
        ("2d", 6),
        ("5d", 9),
        ("9d", 13),
    ],
)
def test_groningens_n_is_one_two_three_four_then_four_plus_d(rank: str, n: int) -> None:
    assert NetWinLadder().steps_for(r(rank)) == n
    assert NetWinLadder(GRONINGEN_STEPS) == NetWinLadder()


@pytest.mark.parametrize(
    ("rank", "up", "short"),
    [("25k", "W", ""), ("15k", "WW", "W"), ("8k", "WWW", "WW"), ("3k", "WWWW", "WWW")],
)
def test_net_plus_n_promotes_one_grade_and_n_minus_one_does_not(
    rank: str, up: str, short: str
) -> None:
    got = evaluate(history(rank, event(1, LOW, results=up + "WL")), LADDER)
    assert got is not None
    assert (got.new_rank, got.direction) == (Rank(r(rank).index + 1), "promote")
    assert got.criterion == "net_win_ladder"
    assert evaluate(history(rank, event(1, LOW, results=short + "LW")), LADDER) is None


@pytest.mark.parametrize(
    ("rank", "down", "short"),
    [("25k", "L", ""), ("15k", "LL", "L"), ("8k", "LLL", "LL"), ("3k", "LLLL", "LLL")],
)
def test_net_minus_n_demotes_one_grade_and_n_minus_one_does_not(
    rank: str, down: str, short: str
) -> None:
    got = evaluate(history(rank, event(1, LOW, results=down)), LADDER)
    assert got is not None
    assert (got.new_rank, got.direction) == (Rank(r(rank).index - 1), "demote")
    assert evaluate(history(rank, event(1, LOW, results=short)), LADDER) is None


def test_a_jigo_counts_neither_way() -> None:
    assert evaluate(history("15k", event(1, LOW, results="WJJJ")), LADDER) is None
    got = evaluate(history("15k", event(1, LOW, results="WJW")), LADDER)
    assert got is not None and "net +2 (2 wins, 0 losses, 1 jigo)" in got.evidence.detail


def test_the_count_runs_across_events_at_the_current_rank_only() -> None:
    two_events = history("15k", event(1, LOW, results="W"), event(2, LOW, results="W"))
    got = evaluate(two_events, LADDER)
    assert got is not None and got.evidence.events == ("e1", "e2")
    restarted = history("15k", event(1, LOW, results="W"), event(2, LOW, results="W"), since=1)
    assert evaluate(restarted, LADDER) is None


def test_a_dan_player_at_net_minus_n_keeps_his_grade_unless_dan_grades_are_revoked() -> None:
    h = history("3d", event(1, LOW, results="LLLLLLL"))  # N = 4 + 3
    assert evaluate(h, LADDER) is None
    got = evaluate(h, LADDER_REVOKING)
    assert got is not None and got.new_rank == r("2d")


def test_a_1d_can_fall_to_1k_only_when_dan_grades_are_revoked() -> None:
    h = history("1d", event(1, LOW, results="LLLLL"))
    assert evaluate(h, LADDER) is None
    got = evaluate(h, LADDER_REVOKING)
    assert got is not None and got.new_rank == r("1k")


def test_a_30k_cannot_fall_off_the_ladder() -> None:
    assert evaluate(history("30k", event(1, LOW, results="LLL")), LADDER) is None


def test_n_may_differ_per_band() -> None:
    policy = PromotionPolicy(
        kyu=BandRule((NetWinLadder.constant(2),)),
        low_dan=BandRule((NetWinLadder.constant(3),)),
        high_dan=BandRule((NetWinLadder.constant(5),)),
    )
    assert evaluate(history("1k", event(1, LOW, results="WW")), policy) is not None
    assert evaluate(history("1d", event(1, LOW, results="WW")), policy) is None
    assert evaluate(history("1d", event(1, LOW, results="WWW")), policy) is not None
    assert evaluate(history("5d", event(1, LOW, results="WWWW")), policy) is None
    assert evaluate(history("5d", event(1, LOW, results="WWWWW")), policy) is not None


def test_a_ladder_must_start_at_30k() -> None:
    with pytest.raises(
        PolicyError,
        match=r"^net_win_ladder\.steps\[0\]\.from: the first step must start at 30k, not 20k$",
    ):
        NetWinLadder((LadderStep(r("20k"), 2),))


def test_ladder_steps_must_climb() -> None:
    with pytest.raises(
        PolicyError,
        match=r"^net_win_ladder\.steps\[2\]\.from: must be above the previous step's 10k$",
    ):
        NetWinLadder((LadderStep(r("30k"), 1), LadderStep(r("10k"), 2), LadderStep(r("15k"), 3)))
