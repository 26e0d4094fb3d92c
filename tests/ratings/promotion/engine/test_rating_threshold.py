"""The rating threshold with stability and the default policy built on it (docs/promotions.md)."""

from __future__ import annotations

import pytest

from ratings.promotion.engine import (
    DEFAULT_POLICY,
    BandRule,
    PolicyError,
    PromotionPolicy,
    RatingThreshold,
    evaluate,
)
from tests.ratings.promotion.engine.helpers import event, history, r


def only(criterion: RatingThreshold, cap: int = 9) -> PromotionPolicy:
    rule = BandRule((criterion,))
    return PromotionPolicy(kyu=rule, low_dan=rule, high_dan=rule, max_grades_per_event=cap)


# 5k's neighbour 4k has nominal GoR 1700, so its band starts at 1650 (docs/ratings.md §3: ±50).


def test_a_gor_exactly_at_the_next_bands_lower_bound_promotes() -> None:
    got = evaluate(history("5k", event(1, 1650)))
    assert got is not None
    assert (got.old_rank, got.new_rank, got.direction) == (r("5k"), r("4k"), "promote")
    assert got.criterion == "rating_threshold"
    assert got.evidence.events == ("e1",)


def test_one_gor_below_the_lower_bound_does_not_promote() -> None:
    assert evaluate(history("5k", event(1, 1649))) is None


def test_a_margin_raises_the_bar_by_exactly_that_many_points() -> None:
    policy = only(RatingThreshold(margin=20))
    assert evaluate(history("5k", event(1, 1669)), policy) is None
    got = evaluate(history("5k", event(1, 1670)), policy)
    assert got is not None and got.new_rank == r("4k")


def test_the_margin_of_fifty_is_the_czech_nominal_gor_rule() -> None:
    policy = only(RatingThreshold(margin=50))
    assert evaluate(history("5k", event(1, 1699)), policy) is None
    assert evaluate(history("5k", event(1, 1700)), policy) is not None


def test_k_events_at_or_above_the_bound_promote_and_k_minus_one_do_not() -> None:
    policy = only(RatingThreshold(events=3))
    assert evaluate(history("5k", event(1, 1660), event(2, 1655)), policy) is None
    got = evaluate(history("5k", event(1, 1660), event(2, 1655), event(3, 1650)), policy)
    assert got is not None and got.new_rank == r("4k")
    assert got.evidence.events == ("e1", "e2", "e3")


def test_one_event_below_the_bound_inside_the_k_window_blocks_the_promotion() -> None:
    policy = only(RatingThreshold(events=3))
    assert evaluate(history("5k", event(1, 1660), event(2, 1649), event(3, 1650)), policy) is None


def test_only_the_last_k_events_count() -> None:
    policy = only(RatingThreshold(events=2))
    got = evaluate(history("5k", event(1, 1200), event(2, 1660), event(3, 1650)), policy)
    assert got is not None and got.evidence.events == ("e2", "e3")


def test_over_k_events_the_target_is_the_lowest_grade_reached() -> None:
    policy = only(RatingThreshold(events=3))
    got = evaluate(history("5k", event(1, 1850), event(2, 1750), event(3, 1950)), policy)
    assert got is not None and got.new_rank == r("3k")


def test_a_run_of_n_games_without_net_loss_promotes() -> None:
    policy = only(RatingThreshold(games=10))
    got = evaluate(
        history("5k", event(1, 1600, 1590, "WLWLW"), event(2, 1655, 1600, "WWLLW")), policy
    )
    assert got is not None and got.new_rank == r("4k")
    assert got.evidence.events == ("e1", "e2")
    assert len(got.evidence.games) == 10


def test_a_run_ending_exactly_where_it_started_has_no_net_loss() -> None:
    policy = only(RatingThreshold(games=10))
    got = evaluate(
        history("5k", event(1, 1600, 1660, "WLWLW"), event(2, 1660, 1600, "WWLLW")), policy
    )
    assert got is not None and got.new_rank == r("4k")


def test_a_run_with_a_net_rating_loss_does_not_promote() -> None:
    policy = only(RatingThreshold(games=10))
    assert (
        evaluate(
            history("5k", event(1, 1600, 1661, "WLWLW"), event(2, 1660, 1600, "WWLLW")), policy
        )
        is None
    )


def test_n_minus_one_games_are_not_a_run() -> None:
    policy = only(RatingThreshold(games=10))
    assert (
        evaluate(history("5k", event(1, 1600, 1590, "WLWL"), event(2, 1655, 1600, "WWLLW")), policy)
        is None
    )


def test_the_run_is_the_shortest_tail_of_events_with_n_games() -> None:
    policy = only(RatingThreshold(games=5))
    got = evaluate(
        history("5k", event(1, 1600, 1800, "WLWLW"), event(2, 1655, 1600, "WWLLW")), policy
    )
    assert got is not None and got.evidence.events == ("e2",)


def test_events_and_games_cannot_both_set_the_stability() -> None:
    with pytest.raises(PolicyError, match=r"^rating_threshold\.games: give either events"):
        RatingThreshold(events=2, games=10)


# -- the default policy (docs/promotions.md §3) ---------------------------------------------


def test_the_default_policy_promotes_to_the_grade_reached_at_the_end_of_one_event() -> None:
    got = evaluate(history("5k", event(1, 1749)))
    assert got is not None and got.new_rank == r("4k")
    got = evaluate(history("5k", event(1, 1750)))
    assert got is not None and got.new_rank == r("3k")


def test_the_default_policy_moves_at_most_two_grades_in_one_event() -> None:
    got = evaluate(history("5k", event(1, 2150)))  # 2d reached, seven grades up
    assert got is not None and got.new_rank == r("3k")
    assert "reached 2d, capped at 3k (2 grade(s) per event)" in got.evidence.detail


def test_the_default_policy_takes_the_next_two_grades_after_the_next_event() -> None:
    first = evaluate(history("5k", event(1, 2150)))
    assert first is not None
    again = history("3k", event(1, 2150), since=1)
    assert evaluate(again) is None
    later = evaluate(history("3k", event(1, 2150), event(2, 2150), since=1))
    assert later is not None and later.new_rank == r("1k")


def test_the_default_policy_never_demotes_a_kyu_player() -> None:
    assert evaluate(history("5k", event(1, 900), event(2, 800), event(3, 700))) is None


def test_the_default_policy_never_revokes_a_dan_grade() -> None:
    assert evaluate(history("3d", event(1, 1500), event(2, 1400))) is None


def test_the_default_policy_promotes_dan_players_in_both_dan_bands() -> None:
    low = evaluate(history("2d", event(1, 2250)))
    high = evaluate(history("6d", event(1, 2650)))
    assert low is not None and low.new_rank == r("3d")
    assert high is not None and high.new_rank == r("7d")


def test_a_gor_far_above_9d_promotes_an_8d_to_9d_and_never_to_9p_plus() -> None:
    got = evaluate(history("8d", event(1, 3200)))
    assert got is not None and got.new_rank == r("9d")


def test_a_9d_is_never_promoted_further() -> None:
    assert evaluate(history("9d", event(1, 3200))) is None


def test_a_9p_plus_title_holder_is_not_evaluated() -> None:
    assert evaluate(history("9p+", event(1, 3200))) is None
    assert evaluate(history("9p+", event(1, 100))) is None


def test_the_default_policy_is_one_rated_event_no_margin_two_grades_no_demotion() -> None:
    threshold = BandRule((RatingThreshold(margin=0, events=1, games=None),), "any")
    assert (
        PromotionPolicy(
            kyu=threshold,
            low_dan=threshold,
            high_dan=threshold,
            max_grades_per_event=2,
            revoke_dan=False,
            kyu_demotion=None,
        )
        == DEFAULT_POLICY
    )
    h = history("5k", event(1, 1750))
    assert evaluate(h) == evaluate(h, DEFAULT_POLICY)
