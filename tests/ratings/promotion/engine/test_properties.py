"""Properties of evaluate() over random histories and policies (hypothesis)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.promotion.engine import (
    DEFAULT_POLICY,
    BandRule,
    EventRecord,
    GameRecordLite,
    KyuDemotion,
    NetWinLadder,
    PlayerHistory,
    PromotionPolicy,
    RatingThreshold,
    ResultTable,
    WinsAtRank,
    evaluate,
)
from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank

DAY0 = date(2024, 1, 1)
ranks = st.integers(MIN_INDEX, MAX_INDEX).map(Rank)
games = st.builds(
    GameRecordLite,
    game_id=st.just(0),
    opponent_rank=st.integers(MIN_INDEX, MAX_INDEX + 1).map(Rank),
    opponent_rating=st.just(2000.0),
    won=st.sampled_from([0.0, 0.5, 1.0]),
    handicap=st.integers(0, 9),
    received_handicap=st.booleans(),
)


@st.composite
def histories(draw: st.DrawFn) -> PlayerHistory:
    n = draw(st.integers(0, 6))
    days = sorted(draw(st.lists(st.integers(0, 400), min_size=n, max_size=n, unique=True)))
    events = []
    for i, d in enumerate(days):
        played = draw(st.lists(games, max_size=7))
        events.append(
            EventRecord(
                event_id=f"e{i}",
                end_date=DAY0 + timedelta(days=d),
                rating_before=draw(st.floats(-900, 3000)),
                rating_after=draw(st.floats(-900, 3000)),
                games=tuple(
                    GameRecordLite(
                        f"e{i}g{j}",
                        g.opponent_rank,
                        g.opponent_rating,
                        g.won,
                        g.handicap,
                        g.received_handicap,
                    )
                    for j, g in enumerate(played)
                ),
                rounds=draw(st.sampled_from([len(played), 5])),
            )
        )
    since = draw(st.none() | st.integers(-1, 400).map(lambda d: DAY0 + timedelta(days=d)))
    return PlayerHistory(
        player_id=1, current_rank=draw(ranks), events=tuple(events), rank_since=since
    )


criteria = st.one_of(
    st.builds(RatingThreshold, margin=st.integers(0, 100), events=st.integers(1, 3)),
    st.builds(RatingThreshold, margin=st.integers(0, 100), games=st.integers(1, 12)),
    st.integers(1, 5).flatmap(
        lambda w: st.builds(
            WinsAtRank,
            wins=st.just(w),
            window=st.integers(w, 8),
            handicap=st.sampled_from(["adjust", "exclude"]),
        )
    ),
    st.just(NetWinLadder()),
    st.integers(1, 4).map(NetWinLadder.constant),
    st.just(ResultTable()),
)
rules = st.builds(
    BandRule, st.lists(criteria, max_size=3).map(tuple), st.sampled_from(["any", "all"])
)
policies = st.builds(
    PromotionPolicy,
    kyu=rules,
    low_dan=rules,
    high_dan=rules,
    high_dan_from=st.integers(1, MAX_INDEX).map(Rank),
    max_grades_per_event=st.integers(1, 4),
    revoke_dan=st.booleans(),
    kyu_demotion=st.none() | st.builds(KyuDemotion, st.integers(0, 150), st.integers(1, 3)),
)


@settings(max_examples=300, deadline=None)
@given(histories(), policies)
def test_no_decision_moves_a_player_more_than_j_grades_or_off_the_ladder(
    history: PlayerHistory, policy: PromotionPolicy
) -> None:
    got = evaluate(history, policy)
    if got is None:
        return
    step = got.new_rank.index - got.old_rank.index
    assert 1 <= abs(step) <= policy.max_grades_per_event
    assert got.direction == ("promote" if step > 0 else "demote")
    assert MIN_INDEX <= got.new_rank.index <= MAX_INDEX  # never 9p+
    assert got.old_rank == history.current_rank


@settings(max_examples=300, deadline=None)
@given(histories(), policies)
def test_a_dan_grade_is_revoked_only_when_the_policy_says_so(
    history: PlayerHistory, policy: PromotionPolicy
) -> None:
    got = evaluate(history, policy)
    if got is not None and got.direction == "demote" and got.old_rank.is_dan:
        assert policy.revoke_dan


@settings(max_examples=300, deadline=None)
@given(histories())
def test_the_default_policy_never_demotes_and_moves_at_most_two_grades(
    history: PlayerHistory,
) -> None:
    got = evaluate(history, DEFAULT_POLICY)
    if got is not None:
        assert got.direction == "promote"
        assert 1 <= got.new_rank.index - got.old_rank.index <= 2


@settings(max_examples=200, deadline=None)
@given(histories(), policies)
def test_evaluation_is_deterministic_and_each_event_moves_a_player_once(
    history: PlayerHistory, policy: PromotionPolicy
) -> None:
    got = evaluate(history, policy)
    again = evaluate(history, policy)
    assert got == again
    reversed_events = PlayerHistory(
        history.player_id, history.current_rank, history.events[::-1], history.rank_since
    )
    assert evaluate(reversed_events, policy) == got  # the end dates are distinct here
    if got is not None:
        assert got.idempotency_key == again.idempotency_key  # type: ignore[union-attr]
        assert set(got.evidence.events) <= {e.event_id for e in history.events}
        applied = PlayerHistory(
            history.player_id, got.new_rank, history.events, history.events[-1].end_date
        )
        assert evaluate(applied, policy) is None


@settings(max_examples=100, deadline=None)
@given(histories())
def test_a_9p_plus_title_is_never_touched(history: PlayerHistory) -> None:
    honorary = PlayerHistory(
        history.player_id, Rank.parse("9p+"), history.events, history.rank_since
    )
    assert evaluate(honorary) is None
