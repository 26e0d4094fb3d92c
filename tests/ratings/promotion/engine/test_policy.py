"""Policies: bands, combining criteria, caps, kyu hysteresis, idempotency (docs/promotions.md)."""

from __future__ import annotations

import pytest

from ratings.promotion.engine import (
    Band,
    BandRule,
    KyuDemotion,
    NetWinLadder,
    PromotionPolicy,
    RatingThreshold,
    ResultTable,
    WinsAtRank,
    band_of,
    evaluate,
)
from tests.ratings.promotion.engine.helpers import event, history, r


@pytest.mark.parametrize(
    ("rank", "band"),
    [
        ("30k", Band.KYU),
        ("1k", Band.KYU),
        ("1d", Band.LOW_DAN),
        ("4d", Band.LOW_DAN),
        ("5d", Band.HIGH_DAN),
        ("9d", Band.HIGH_DAN),
    ],
)
def test_the_bands_are_kyu_1d_to_4d_and_5d_to_9d_by_default(rank: str, band: Band) -> None:
    assert band_of(r(rank)) is band
    assert PromotionPolicy().band_of(r(rank)) is band


def test_the_high_dan_band_can_start_elsewhere() -> None:
    policy = PromotionPolicy(high_dan_from=r("3d"))
    assert policy.band_of(r("2d")) is Band.LOW_DAN
    assert policy.band_of(r("3d")) is Band.HIGH_DAN


# -- combining criteria ----------------------------------------------------------------------

THRESHOLD = RatingThreshold()
WINS = WinsAtRank(wins=2, window=2)


def kyu(*criteria: object, combine: str = "any", **kw: object) -> PromotionPolicy:
    return PromotionPolicy(kyu=BandRule(criteria, combine), **kw)  # type: ignore[arg-type]


def test_with_any_one_promoting_criterion_is_enough() -> None:
    policy = kyu(THRESHOLD, WINS)
    by_rating = evaluate(history("5k", event(1, 1660, results="LL", opp="4k")), policy)
    by_wins = evaluate(history("5k", event(1, 1500, results="WW", opp="4k")), policy)
    assert by_rating is not None and by_rating.criterion == "rating_threshold"
    assert by_wins is not None and by_wins.criterion == "wins_at_rank"


def test_with_any_the_highest_target_wins_and_ties_go_to_the_first_criterion() -> None:
    policy = kyu(WINS, THRESHOLD)
    higher = evaluate(history("5k", event(1, 1760, results="WW", opp="4k")), policy)
    assert higher is not None and (higher.new_rank, higher.criterion) == (
        r("3k"),
        "rating_threshold",
    )
    tie = evaluate(history("5k", event(1, 1660, results="WW", opp="4k")), policy)
    assert tie is not None and (tie.new_rank, tie.criterion) == (r("4k"), "wins_at_rank")


def test_with_all_every_criterion_must_promote() -> None:
    policy = kyu(THRESHOLD, WINS, combine="all")
    assert evaluate(history("5k", event(1, 1660, results="LL", opp="4k")), policy) is None
    assert evaluate(history("5k", event(1, 1500, results="WW", opp="4k")), policy) is None
    got = evaluate(history("5k", event(1, 1760, results="WW", opp="4k")), policy)
    assert got is not None
    assert got.new_rank == r("4k")  # the lowest target they agree on
    assert got.criterion == "all(rating_threshold+wins_at_rank)"
    assert got.evidence.events == ("e1",)
    assert got.evidence.games == ("e1g1", "e1g2")
    assert "rating_threshold: " in got.evidence.detail and "wins_at_rank: " in got.evidence.detail


def test_a_band_without_criteria_never_promotes() -> None:
    assert evaluate(history("5k", event(1, 2500)), kyu()) is None


def test_each_band_uses_its_own_criteria() -> None:
    policy = PromotionPolicy(
        kyu=BandRule((NetWinLadder.constant(1),)),
        low_dan=BandRule((RatingThreshold(margin=30),)),
        high_dan=BandRule((WinsAtRank(wins=1, window=1),)),
    )
    kyu_player = evaluate(history("5k", event(1, 2500, results="L")), policy)
    assert kyu_player is not None and (kyu_player.direction, kyu_player.criterion) == (
        "demote",
        "net_win_ladder",
    )
    assert evaluate(history("2d", event(1, 2279)), policy) is None
    low_dan = evaluate(history("2d", event(1, 2280)), policy)
    assert low_dan is not None and low_dan.criterion == "rating_threshold"
    assert evaluate(history("6d", event(1, 3000, results="L", opp="9d")), policy) is None
    high_dan = evaluate(history("6d", event(1, 100, results="W", opp="7d")), policy)
    assert high_dan is not None and high_dan.new_rank == r("7d")


def test_the_criteria_of_the_current_rank_apply_across_a_band_boundary() -> None:
    policy = PromotionPolicy(low_dan=BandRule(), max_grades_per_event=5)
    got = evaluate(history("2k", event(1, 2250)), policy)  # the kyu band's threshold reaches 3d
    assert got is not None and got.new_rank == r("3d")
    assert evaluate(history("1d", event(1, 2250)), policy) is None


def test_a_promotion_beats_a_demotion() -> None:
    policy = kyu(NetWinLadder.constant(1), THRESHOLD)
    got = evaluate(history("5k", event(1, 1660, results="LLL")), policy)
    assert got is not None and got.direction == "promote"


# -- the caps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_a_player_moves_at_most_j_grades_in_one_event(cap: int) -> None:
    got = evaluate(history("10k", event(1, 2000)), PromotionPolicy(max_grades_per_event=cap))
    assert got is not None and got.new_rank.index == r("10k").index + cap


def test_the_cap_leaves_a_smaller_step_alone() -> None:
    got = evaluate(history("10k", event(1, 1250)), PromotionPolicy(max_grades_per_event=3))
    assert got is not None and got.new_rank == r("8k")
    assert "capped" not in got.evidence.detail


def test_the_cap_applies_to_the_step_of_the_latest_event_only_once() -> None:
    policy = PromotionPolicy(max_grades_per_event=1)
    assert evaluate(history("9k", event(1, 2000), event(2, 2000), since=2), policy) is None
    got = evaluate(history("9k", event(1, 2000), event(2, 2000), since=1), policy)
    assert got is not None and got.new_rank == r("8k") and got.trigger_event_id == "e2"


DEMOTE = PromotionPolicy(kyu_demotion=KyuDemotion(margin=50, events=2))


def test_kyu_demotion_needs_the_gor_below_the_band_by_the_margin_for_k_events() -> None:
    # 5k's band starts at 1550; with margin 50 the GoR must end below 1500.
    got = evaluate(history("5k", event(1, 1499), event(2, 1499)), DEMOTE)
    assert got is not None
    assert (got.new_rank, got.direction, got.criterion) == (r("6k"), "demote", "kyu_demotion")
    assert got.evidence.events == ("e1", "e2")


def test_kyu_demotion_waits_while_the_gor_is_exactly_at_the_margin() -> None:
    assert evaluate(history("5k", event(1, 1499), event(2, 1500)), DEMOTE) is None


def test_kyu_demotion_waits_for_the_kth_event() -> None:
    assert evaluate(history("5k", event(1, 1200)), DEMOTE) is None
    assert evaluate(history("5k", event(1, 1600), event(2, 1200)), DEMOTE) is None


def test_kyu_demotion_counts_only_events_at_the_current_rank() -> None:
    assert evaluate(history("5k", event(1, 1400), event(2, 1400), since=1), DEMOTE) is None


def test_kyu_demotion_goes_to_the_highest_grade_the_gor_stayed_below() -> None:
    got = evaluate(history("5k", event(1, 1440), event(2, 1300)), DEMOTE)
    assert got is not None and got.new_rank == r("6k")


def test_kyu_demotion_is_capped_at_j_grades() -> None:
    got = evaluate(history("5k", event(1, 900), event(2, 900)), DEMOTE)
    assert got is not None and got.new_rank == r("7k")


def test_a_dan_grade_is_never_revoked_by_the_kyu_demotion_rule() -> None:
    assert evaluate(history("1d", event(1, 1200), event(2, 1200)), DEMOTE) is None


def test_with_revoke_dan_the_demotion_rule_reaches_dan_players() -> None:
    policy = PromotionPolicy(kyu_demotion=KyuDemotion(margin=50, events=2), revoke_dan=True)
    got = evaluate(history("1d", event(1, 1940), event(2, 1940)), policy)
    assert got is not None and got.new_rank == r("1k")


def test_between_two_demotions_the_milder_wins() -> None:
    policy = PromotionPolicy(
        kyu=BandRule((NetWinLadder.constant(1),)),
        kyu_demotion=KyuDemotion(margin=0, events=1),
        max_grades_per_event=5,
    )
    got = evaluate(history("5k", event(1, 1100, results="L")), policy)
    assert got is not None and (got.new_rank, got.criterion) == (r("6k"), "net_win_ladder")


# -- evidence, determinism, idempotency -----------------------------------------------------


def test_the_same_history_gives_the_same_decision_and_key() -> None:
    h = history("5k", event(1, 1600), event(2, 1760), player=42)
    first, second = evaluate(h), evaluate(h)
    assert first is not None and first == second
    assert first.idempotency_key == "promotion:42:3k:e2"


def test_events_are_read_in_date_order_whatever_order_they_come_in() -> None:
    ordered = history("5k", event(1, 1200), event(2, 1760))
    shuffled = history("5k", event(2, 1760), event(1, 1200))
    assert evaluate(ordered) == evaluate(shuffled)


def test_after_the_decision_is_applied_the_same_event_gives_nothing() -> None:
    got = evaluate(history("5k", event(1, 1760)))
    assert got is not None
    assert evaluate(history(str(got.new_rank), event(1, 1760), since=1)) is None


def test_a_history_without_events_gives_nothing() -> None:
    assert evaluate(history("5k")) is None


def test_a_decision_serialises_for_the_candidate_row() -> None:
    got = evaluate(
        history("20k", event(1, 100, results="WWWLL")), kyu(ResultTable(), max_grades_per_event=9)
    )
    assert got is not None
    assert got.to_dict() == {
        "player_id": 7,
        "old_rank": "20k",
        "new_rank": "15k",
        "direction": "promote",
        "criterion": "result_table",
        "evidence": {
            "events": ["e1"],
            "games": ["e1g1", "e1g2", "e1g3", "e1g4", "e1g5"],
            "detail": "entered at 20k, 3 win(s) in 5 rounds: certificate 15k",
        },
        "trigger_event_id": "e1",
        "idempotency_key": "promotion:7:15k:e1",
    }
