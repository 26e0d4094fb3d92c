"""Wins at rank (docs/promotions.md §2.2, after the Nihon Ki-in counters)."""

from __future__ import annotations

import pytest

from ratings.promotion.engine import BandRule, PolicyError, PromotionPolicy, WinsAtRank, evaluate
from tests.ratings.promotion.engine.helpers import event, history, merge, r


def only(criterion: WinsAtRank) -> PromotionPolicy:
    rule = BandRule((criterion,))
    return PromotionPolicy(kyu=rule, low_dan=rule, high_dan=rule)


THREE_OF_FIVE = only(WinsAtRank(wins=3, window=5))
ADJUST = only(WinsAtRank(wins=1, window=1, handicap="adjust"))
EXCLUDE = only(WinsAtRank(wins=1, window=1, handicap="exclude"))
LOW = 1200.0  # a GoR far below any promotion, so only the counter can promote


def test_n_wins_against_the_target_rank_promote_one_grade() -> None:
    got = evaluate(history("5k", event(1, LOW, results="WWW", opp="4k")), THREE_OF_FIVE)
    assert got is not None
    assert (got.new_rank, got.criterion) == (r("4k"), "wins_at_rank")
    assert got.evidence.games == ("e1g1", "e1g2", "e1g3")


def test_n_minus_one_wins_do_not_promote() -> None:
    assert evaluate(history("5k", event(1, LOW, results="WWLLL", opp="4k")), THREE_OF_FIVE) is None


def test_stronger_opponents_than_the_target_count() -> None:
    got = evaluate(history("5k", event(1, LOW, results="WWW", opp="2d")), THREE_OF_FIVE)
    assert got is not None and got.new_rank == r("4k")


def test_wins_against_players_below_the_target_rank_do_not_count() -> None:
    assert evaluate(history("5k", event(1, LOW, results="WWWWW", opp="5k")), THREE_OF_FIVE) is None


def test_only_the_last_m_games_against_the_target_rank_count() -> None:
    old_wins = history(
        "5k", event(1, LOW, results="WWW", opp="4k"), event(2, LOW, results="LLLL", opp="4k")
    )
    assert evaluate(old_wins, THREE_OF_FIVE) is None
    recent = history(
        "5k", event(1, LOW, results="LLLL", opp="4k"), event(2, LOW, results="WWW", opp="4k")
    )
    assert evaluate(recent, THREE_OF_FIVE) is not None


def test_games_against_weaker_players_do_not_push_wins_out_of_the_window() -> None:
    got = evaluate(
        history(
            "5k", event(1, LOW, results="WWW", opp="4k"), event(2, LOW, results="LLLLLL", opp="12k")
        ),
        THREE_OF_FIVE,
    )
    assert got is not None and got.evidence.events == ("e1",)


def test_a_jigo_counts_half_a_win() -> None:
    assert (
        evaluate(history("5k", event(1, LOW, results="WWJJ", opp="4k")), THREE_OF_FIVE) is not None
    )
    assert evaluate(history("5k", event(1, LOW, results="WWJL", opp="4k")), THREE_OF_FIVE) is None


def test_only_games_played_at_the_current_rank_count() -> None:
    h = history(
        "5k", event(1, LOW, results="WW", opp="4k"), event(2, LOW, results="W", opp="4k"), since=1
    )
    assert evaluate(h, THREE_OF_FIVE) is None
    h = history("5k", event(1, LOW, results="WW", opp="4k"), event(2, LOW, results="W", opp="4k"))
    assert evaluate(h, THREE_OF_FIVE) is not None


# The target of a 5k is 4k.  H stones are worth H - 0.5 grades (docs/ratings.md §3).


@pytest.mark.parametrize(
    ("opp", "stones", "received", "counts"),
    [
        ("3k", 1, True, True),  # a 3k giving one stone plays like a 3.5k
        ("3k", 2, True, False),  # two stones: like a 4.5k, below the target
        ("2k", 2, True, True),  # like a 3.5k
        ("2k", 3, True, False),  # like a 4.5k
        ("5k", 1, False, False),  # a 5k who took one stone from us plays like a 4.5k
        ("5k", 2, False, True),  # two stones: like a 3.5k
    ],
)
def test_handicap_games_are_adjusted_by_the_stones_worth(
    opp: str, stones: int, received: bool, counts: bool
) -> None:
    h = history("5k", event(1, LOW, results="W", opp=opp, handicap=stones, received=received))
    assert (evaluate(h, ADJUST) is not None) is counts


def test_excluded_handicap_games_never_count_and_leave_the_window() -> None:
    h = history("5k", event(1, LOW, results="W", opp="1d", handicap=2, received=True))
    assert evaluate(h, EXCLUDE) is None
    even_then_handicap = history(
        "5k",
        merge(
            event(1, LOW, results="W", opp="4k"),
            event(1, LOW, results="L", opp="1d", handicap=2, received=True),
        ),
    )
    assert evaluate(even_then_handicap, EXCLUDE) is not None
    assert evaluate(even_then_handicap, ADJUST) is None  # the adjusted loss fills the window


def test_a_9d_has_no_target_rank_to_win_at() -> None:
    assert evaluate(history("9d", event(1, LOW, results="WWWWW", opp="9p+")), THREE_OF_FIVE) is None


def test_an_8d_winning_against_9p_plus_is_promoted_to_9d() -> None:
    got = evaluate(history("8d", event(1, LOW, results="WWW", opp="9p+")), THREE_OF_FIVE)
    assert got is not None and got.new_rank == r("9d")


def test_the_window_must_hold_at_least_the_wins() -> None:
    with pytest.raises(PolicyError, match=r"^wins_at_rank\.window: must be at least wins \(3\)$"):
        WinsAtRank(wins=3, window=2)
