"""EGF GoR: the 2021 system's published vectors, properties, the old system (docs/ratings.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.ranks import Rank
from ratings.systems import EGF2021, EGF_OLD, GameOutcome, PlayerState, RatingConfig, RatingError
from ratings.systems.egf import (
    CLASS_WEIGHTS,
    bonus,
    con,
    entry_grade_reset,
    expected_score,
    game_update,
    gor_from_grade,
    grade_from_gor,
    old_con,
    old_expected_scores,
    pro_gor,
    rate_event_indexed,
    rate_event_textbook,
    rate_history,
)

TOL = 1e-3


def one_game(r1: float, r2: float, sa: float, receives: int = 0, gives: int = 0) -> float:
    """Player 1's new GoR after one game; ``receives``/``gives`` are handicap stones."""
    players = {"p1": PlayerState(r1), "p2": PlayerState(r2)}
    if gives:
        game = GameOutcome("p2", "p1", 1.0 - sa, gives)
    else:
        game = GameOutcome("p1", "p2", sa, receives)
    return EGF2021.rate_event(players, [game])["p1"].rating


# r1, r2, Sa, stones r1 receives, stones r2 receives, Se(r1), r1'
TABLE = [
    (2100, 2100, 1, 0, 0, 0.5, 2109.306),
    (2100, 2100, 0, 0, 0, 0.5, 2091.725),
    (2100, 2100, 0.5, 0, 0, 0.5, 2100.516),
    (1000, 1300, 1, 0, 0, 0.273223, 1039.434),
    (1300, 1000, 0, 0, 0, 0.726777, 1273.566),
    (0, 0, 0, 0, 0, 0.5, -38.605),
    (0, 0, 0.5, 0, 0, 0.5, 5.750),
    (240, 240, 1, 0, 0, 0.5, 284.458),
    (1500, 1800, 1, 3, 0, 0.442868, 1520.739),
    (1800, 1500, 0, 0, 3, 0.557132, 1787.253),
    (2400, 2100, 1, 0, 0, 0.882236, 2401.357),
    (-900, -900, 0, 0, 0, 0.5, -900.000),
]


@pytest.mark.parametrize(("r1", "r2", "sa", "h1", "h2", "se", "new"), TABLE)
def test_it_matches_every_row_of_the_published_table(r1, r2, sa, h1, h2, se, new) -> None:
    assert expected_score(r1, r2, h1, h2) == pytest.approx(se, abs=TOL)
    assert one_game(r1, r2, sa, receives=h1, gives=h2) == pytest.approx(new, abs=TOL)
    assert game_update(r1, sa, expected_score(r1, r2, h1, h2)) == pytest.approx(new, abs=TOL)


def test_it_matches_the_se_only_values() -> None:
    assert expected_score(1000, 1300) == pytest.approx(0.2732225596, abs=1e-9)
    assert expected_score(1000, 1300, 0, 1) == pytest.approx(0.2394753104, abs=1e-9)
    assert expected_score(1000, 1300, 1, 0) == pytest.approx(0.3048132438, abs=1e-9)


def test_it_matches_the_components() -> None:
    assert con(2100) == pytest.approx(17.5809, abs=TOL)
    assert bonus(2100) == pytest.approx(0.51576, abs=TOL)
    assert con(1000) == pytest.approx(49.7871, abs=TOL)
    assert bonus(1000) == pytest.approx(3.2500, abs=TOL)


def test_handicap_uses_the_adjusted_rating_only_inside_se() -> None:
    # 1500 receiving 3 plays as 1750 inside Se; con and bonus stay at 1500.
    se = expected_score(1750, 1800)
    assert expected_score(1500, 1800, 3, 0) == pytest.approx(se)
    want = 1500 + con(1500) * (1 - se) + bonus(1500)
    assert one_game(1500, 1800, 1, receives=3) == pytest.approx(want)


def test_one_stone_is_worth_fifty_points() -> None:
    assert expected_score(1000, 1300, 1, 0) == pytest.approx(expected_score(1050, 1300))


def test_the_floor_holds_at_thirty_kyu() -> None:
    out = EGF2021.rate_event(
        {"a": PlayerState(-900), "b": PlayerState(-850)},
        [GameOutcome("a", "b", 0.0)] * 3,
    )
    assert out["a"].rating == -900.0
    assert out["a"].games == 3


@pytest.mark.parametrize(
    ("gor", "grade"),
    [
        (2049, "1k"),
        (2050, "1d"),
        (2150, "2d"),
        (1549, "6k"),
        (1550, "5k"),
        (-900, "30k"),
        (2700, "7d"),
    ],
)
def test_it_matches_the_grade_vectors(gor: float, grade: str) -> None:
    assert grade_from_gor(gor) == Rank.parse(grade)


def test_newcomers_start_at_the_gor_of_their_grade() -> None:
    assert gor_from_grade(Rank.parse("1d")) == 2100
    assert gor_from_grade(Rank.parse("5k")) == 1600
    assert gor_from_grade(Rank.parse("3d")) == 2300
    assert EGF2021.new_player(gor_from_grade(Rank.parse("20k"))).rating == 100
    with pytest.raises(RatingError):
        EGF2021.new_player()


def test_the_pro_scale() -> None:
    assert pro_gor(1) == 2700
    assert pro_gor(9) == 2940


def test_a_tournament_uses_pre_tournament_ratings_and_sums_the_changes() -> None:
    players = {"a": PlayerState(2000), "b": PlayerState(2100), "c": PlayerState(1900)}
    games = [GameOutcome("a", "b", 1.0), GameOutcome("a", "c", 0.0), GameOutcome("b", "c", 0.5)]
    out = EGF2021.rate_event(players, games)
    want_a = (
        2000
        + con(2000) * (1 - expected_score(2000, 2100))
        + con(2000) * (0 - expected_score(2000, 1900))
        + 2 * bonus(2000)
    )
    assert out["a"].rating == pytest.approx(want_a, abs=1e-9)
    assert out["a"].games == 2
    assert set(out) == {"a", "b", "c"}


def test_players_who_did_not_play_are_not_returned() -> None:
    players = {"a": PlayerState(2000), "b": PlayerState(2100), "idle": PlayerState(1500)}
    assert set(EGF2021.rate_event(players, [GameOutcome("a", "b", 1.0)])) == {"a", "b"}


def test_a_handicap_that_lifts_the_receiver_past_3300_is_refused() -> None:
    players = {"a": PlayerState(2450), "b": PlayerState(0)}
    with pytest.raises(RatingError, match="3300"):
        EGF2021.rate_event(players, [GameOutcome("a", "b", 1.0, 9)])


def test_it_refuses_bad_input() -> None:
    with pytest.raises(RatingError, match="no pre-event rating"):
        EGF2021.rate_event({"a": PlayerState(2000)}, [GameOutcome("a", "b", 1.0)])
    with pytest.raises(RatingError, match="score_black"):
        GameOutcome("a", "b", 0.7)
    with pytest.raises(RatingError, match="themselves"):
        GameOutcome("a", "a", 1.0)
    with pytest.raises(RatingError, match="below 3300"):
        EGF2021.rate_event(
            {"a": PlayerState(3300), "b": PlayerState(2000)}, [GameOutcome("a", "b", 1.0)]
        )


def test_rate_history_is_rate_event_applied_in_order() -> None:
    start = [2000.0, 1500.0, 1200.0, 900.0]
    events = [
        [(0, 1, 1.0, 0), (2, 3, 0.5, 0), (1, 2, 0.0, 3)],
        [(3, 0, 1.0, 9), (1, 3, 1.0, 0)],
    ]
    got = rate_history(list(start), events)
    by_event = list(start)
    for ev in events:
        outcomes = [GameOutcome(b, w, s, h) for b, w, s, h in ev]
        ratings = dict(enumerate(by_event))
        for p, r in rate_event_textbook(ratings, outcomes).items():
            by_event[p] = r
    assert got == pytest.approx(by_event, abs=1e-9)


def test_rate_event_indexed_counts_games_and_reports_who_played() -> None:
    ratings = [2000.0, 1500.0, 1200.0]
    counts = [0, 0, 0]
    played = rate_event_indexed(ratings, [(0, 1, 1.0, 0), (1, 0, 0.0, 0)], counts=counts)
    assert played == [0, 1]
    assert counts == [2, 2, 0]
    assert ratings[2] == 1200.0


def test_the_class_weight_scales_each_players_summed_change() -> None:
    # The EGD weighs a class-B event's changes by 0.75: a +7.793 class-A win
    # is +5.845 there.  The whole change, bonus included, is weighed.
    players = {"a": PlayerState(1850), "b": PlayerState(2000), "c": PlayerState(1700)}
    games = [GameOutcome("a", "b", 1.0), GameOutcome("c", "a", 0.0, 2)]
    full = EGF2021.rate_event(players, games)
    for cls, w in CLASS_WEIGHTS.items():
        got = EGF2021.rate_event(players, games, weight=w)
        for p, s in got.items():
            change = full[p].rating - players[p].rating
            assert s.rating - players[p].rating == pytest.approx(w * change, abs=1e-9), cls
            assert s.games == full[p].games
        assert rate_event_textbook(
            {p: s.rating for p, s in players.items()}, games, weight=w
        ) == pytest.approx({p: s.rating for p, s in got.items()}, abs=1e-9)
    assert CLASS_WEIGHTS == {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
    assert round(0.75 * 7.793, 3) == 5.845  # the EGD's published pair, for the record


def test_the_weighted_change_still_stops_at_the_floor() -> None:
    got = EGF2021.rate_event(
        {"a": PlayerState(-899.5), "b": PlayerState(-900)},
        [GameOutcome("a", "b", 0.0)],
        weight=0.25,
    )
    assert got["a"].rating == -900.0


def test_a_game_past_the_pole_is_left_out_and_the_event_still_rated() -> None:
    ratings = [2450.0, 0.0, 1500.0, 1400.0]
    skipped: list[int] = []
    counts = [0, 0, 0, 0]
    played = rate_event_indexed(
        ratings, [(0, 1, 1.0, 9), (2, 3, 1.0, 0)], counts=counts, skipped=skipped
    )
    assert skipped == [0] and played == [2, 3] and counts == [0, 0, 1, 1]
    assert ratings[:2] == [2450.0, 0.0] and ratings[2] > 1500.0


# -- properties ---------------------------------------------------------------------------

gor = st.floats(min_value=-900, max_value=2950, allow_nan=False)
# A receiver of 9 stones plays 850 above its rating; the formula ends at 3300.
receiver = st.floats(min_value=-900, max_value=2400, allow_nan=False)
stones = st.integers(min_value=0, max_value=9)
score = st.sampled_from([0.0, 0.5, 1.0])


@given(gor, gor)
def test_se_of_both_sides_adds_up_to_one(r1: float, r2: float) -> None:
    assert expected_score(r1, r2) + expected_score(r2, r1) == pytest.approx(1.0, abs=1e-12)


@given(receiver, gor, stones)
def test_se_adds_up_to_one_in_handicap_games(r1: float, r2: float, h: int) -> None:
    assert expected_score(r1, r2, h, 0) + expected_score(r2, r1, 0, h) == pytest.approx(
        1.0, abs=1e-12
    )


@given(receiver, receiver, stones, st.booleans())
def test_a_win_never_lowers_a_rating(r1: float, r2: float, h: int, black: bool) -> None:
    # Black receives the stones, whichever side "me" is on.
    players = {"me": PlayerState(r1), "them": PlayerState(r2)}
    game = GameOutcome("me", "them", 1.0, h) if black else GameOutcome("them", "me", 0.0, h)
    assert EGF2021.rate_event(players, [game])["me"].rating >= r1


@given(receiver, gor, stones)
def test_winning_is_never_worse_than_losing(r1: float, r2: float, h: int) -> None:
    players = {"me": PlayerState(r1), "them": PlayerState(r2)}
    win = EGF2021.rate_event(players, [GameOutcome("me", "them", 1.0, h)])["me"].rating
    jigo = EGF2021.rate_event(players, [GameOutcome("me", "them", 0.5, h)])["me"].rating
    loss = EGF2021.rate_event(players, [GameOutcome("me", "them", 0.0, h)])["me"].rating
    assert win >= jigo >= loss >= -900


@settings(max_examples=50)
@given(
    st.lists(receiver, min_size=2, max_size=8),
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), score, stones), max_size=20),
)
def test_the_batch_path_agrees_with_the_textbook_formula(ratings, raw) -> None:
    n = len(ratings)
    games = [(b % n, w % n, s, h) for b, w, s, h in raw if b % n != w % n]
    fast = list(ratings)
    rate_event_indexed(fast, games)
    slow = rate_event_textbook(dict(enumerate(ratings)), [GameOutcome(*g) for g in games])
    for p, r in slow.items():
        assert fast[p] == pytest.approx(r, abs=1e-9)


# -- the old system (1998-2020) --------------------------------------------------------------

OLD = RatingConfig(old_epsilon=0.0)


def old(players: dict[str, float], game: GameOutcome[str]) -> dict[str, float]:
    states = {p: PlayerState(r) for p, r in players.items()}
    return {p: s.rating for p, s in EGF_OLD.rate_event(states, [game], OLD).items()}


def test_old_system_equal_players() -> None:
    assert old({"a": 2400, "b": 2400}, GameOutcome("a", "b", 1.0)) == pytest.approx(
        {"a": 2407.5, "b": 2392.5}, abs=TOL
    )


def test_old_system_an_upset_between_kyu_players() -> None:
    assert old({"a": 320, "b": 400}, GameOutcome("a", "b", 1.0)) == pytest.approx(
        {"a": 382.84, "b": 339.57}, abs=5e-3
    )


def test_old_system_a_handicap_game() -> None:
    # 2400 gives 5 stones to 1850 (Black) and loses.
    got = old({"s": 2400, "w": 1850}, GameOutcome("w", "s", 1.0, 5))
    assert got == pytest.approx({"s": 2388.71, "w": 1874.83}, abs=5e-3)


def test_old_con_interpolates_the_table() -> None:
    assert old_con(100) == 116
    assert old_con(50) == 116
    assert old_con(2700) == 10
    assert old_con(3000) == 10
    assert old_con(320) == pytest.approx(104)
    assert old_con(1850) == pytest.approx(33)


def test_old_system_epsilon_takes_points_from_the_stronger_side() -> None:
    weak, strong = old_expected_scores(1800, 2000, config=RatingConfig(old_epsilon=0.016))
    assert weak + strong == pytest.approx(1 - 0.016)
    assert weak < strong
    assert old_expected_scores(2000, 2000, config=RatingConfig()) == pytest.approx((0.492, 0.492))


def test_entering_two_grades_above_the_highest_entry_grade_resets_upward_only() -> None:
    k5, k4, k3, d1 = (Rank.parse(t) for t in ("5k", "4k", "3k", "1d"))
    assert entry_grade_reset(1450.0, k3, k5) == 1800.0  # 3k's GoR
    assert entry_grade_reset(1450.0, k4, k5) is None  # one grade up: no reset
    assert entry_grade_reset(1850.0, k3, k5) is None  # already above 3k's GoR: never lowered
    assert entry_grade_reset(1450.0, d1, None) is None  # a first event sets the grade
    assert entry_grade_reset(1450.0, k5, k3) is None  # entering lower never resets
