"""The database recompute: which games count, repeatability, incremental = full, the job."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import GameState, Tournament
from games.people.services.grants import federation_official_grant
from games.tournament import services as tournament_services
from ops.models import Job, JobState
from ratings.models import PlayerRating, RatingHistory, RatingRun
from ratings.recompute import recompute
from ratings.services import ratings_job_run
from ratings.systems.base import GameOutcome
from ratings.systems.egf import rate_event_textbook
from tests.factories import GameFactory, enter
from tests.ratings.helpers import (
    add_games,
    current_snapshot,
    event,
    history_snapshot,
    players,
)

pytestmark = pytest.mark.django_db
D = dt.date


def _history(n_events: int = 6) -> tuple[list[Any], list[Any]]:
    ps = players(-10, -5, -3, -1, 0, 2)
    ts = []
    for k in range(n_events):
        a, b, c, d, e, f = ps[k % 6 :] + ps[: k % 6]
        ts.append(
            event(
                D(2025, 1, 1) + dt.timedelta(days=10 * k),
                [(a, b, "B", 0), (c, d, "W", 2), (e, f, "=", 0), (a, c, "W", 1), (b, f, "B", 0)],
            )
        )
    return ps, ts


def test_a_recompute_run_twice_gives_identical_histories() -> None:
    _history()
    first = recompute()
    h1, c1 = history_snapshot(), current_snapshot()
    second = recompute()
    assert history_snapshot() == h1 and current_snapshot() == c1
    assert len(h1) == 6 * 6 and first.history_rows == second.history_rows == 36
    assert (first.algorithm, first.version, first.mode) == ("egf2021", "1", "full")


def test_one_event_matches_the_textbook_formula_against_pre_event_ratings() -> None:
    a, b, c = players(-3, -2, 0)
    t = event(D(2025, 1, 1), [(a, b, "B", 0), (b, c, "W", 1), (a, c, "=", 0)])
    recompute()
    start = {a.pk: 1800.0, b.pk: 1900.0, c.pk: 2100.0}
    want = rate_event_textbook(
        start,
        [
            GameOutcome(a.pk, b.pk, 1.0),
            GameOutcome(b.pk, c.pk, 0.0, 1),
            GameOutcome(a.pk, c.pk, 0.5),
        ],
    )
    got = {h.player_id: h for h in RatingHistory.objects.filter(tournament=t)}
    for pk, r in want.items():
        assert got[pk].rating_before == start[pk]
        assert got[pk].rating_after == pytest.approx(r, abs=1e-9)
    assert got[a.pk].wins == 1.5 and got[a.pk].games == 2


def test_only_locked_rateable_games_of_rated_tournaments_count() -> None:
    a, b = players(-3, -3)
    t = event(D(2025, 1, 1), [(a, b, "B", 0), (a, b, "void", 0), (a, b, "forfeit", 0)])
    add_games(t, [(b, a, "B", 0)], state=GameState.SUBMITTED)
    event(D(2025, 2, 1), [(a, b, "W", 0)], rated=False)
    run = recompute()
    assert (run.events, run.games) == (1, 1)
    assert RatingHistory.objects.get(player=a).games == 1


def test_provisional_follows_the_setting_at_call_time(settings: Any) -> None:
    a, b = players(-3, -3)
    event(D(2025, 1, 1), [(a, b, "B", 0)] * 1 + [(b, a, "B", 0)])
    settings.GOREF_PROVISIONAL_GAMES = 2
    recompute()
    assert PlayerRating.objects.get(player=a).provisional is False
    settings.GOREF_PROVISIONAL_GAMES = 3
    recompute()
    assert PlayerRating.objects.get(player=a).provisional is True


def test_a_late_result_re_rates_only_from_its_event_onward_and_matches_a_full_recompute() -> None:
    ps, ts = _history()
    recompute()
    untouched = set(RatingHistory.objects.filter(tournament__in=ts[:2]).values_list("pk", "run_id"))
    # A game of the third tournament arrives late (the others are already rated).
    add_games(ts[2], [(ps[0], ps[5], "W", 0), (ps[1], ps[4], "=", 3)])
    run = recompute(from_tournament=ts[2])
    assert run.mode == "incremental" and run.from_tournament_id == ts[2].pk
    assert run.events == 4
    assert (
        set(RatingHistory.objects.filter(tournament__in=ts[:2]).values_list("pk", "run_id"))
        == untouched
    )
    assert set(
        RatingHistory.objects.filter(tournament__in=ts[2:]).values_list("run_id", flat=True)
    ) == {run.pk}
    incremental = history_snapshot(), current_snapshot()
    recompute()
    assert (history_snapshot(), current_snapshot()) == incremental


def test_an_incremental_run_after_a_tournament_loses_its_rating_matches_full() -> None:
    _, ts = _history()
    recompute()
    ts[3].rated = False
    ts[3].save(update_fields=["rated"])
    recompute(from_tournament=ts[3])
    incremental = history_snapshot(), current_snapshot()
    recompute()
    assert (history_snapshot(), current_snapshot()) == incremental


def test_incremental_without_a_run_of_this_version_becomes_full() -> None:
    _, ts = _history(2)
    run = recompute(from_tournament=ts[1])
    assert run.mode == "full" and "recomputed in full" in run.note


@pytest.mark.parametrize("system", ["ogs", "glicko2", "egf1998"])
def test_other_systems_are_selectable_and_repeatable(settings: Any, system: str) -> None:
    settings.GOREF_RATING_SYSTEM = system
    _, ts = _history(3)
    run = recompute()
    assert run.algorithm == system
    first = history_snapshot()
    recompute(from_tournament=ts[1])
    assert history_snapshot() == first


def test_the_job_body_claims_runs_and_reports_progress() -> None:
    _history(3)
    job = Job.objects.create(kind="ratings", params={"from_tournament": None})
    assert ratings_job_run(job_id=job.pk) == JobState.DONE
    job.refresh_from_db()
    assert (job.state, job.done, job.total, job.percent) == (JobState.DONE, 4, 4, 100)
    assert RatingRun.objects.get().job_id == job.pk
    assert ratings_job_run(job_id=job.pk) == JobState.DONE  # a duplicate message does nothing
    assert RatingRun.objects.count() == 1


def test_the_close_of_a_rated_tournament_queues_the_update_on_commit(
    director: Any,
    alice: Any,
    bob: Any,
    tournament: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    import ratings.tasks

    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    monkeypatch.setattr(
        ratings.tasks.ratings_recompute, "delay", lambda job_id: ratings_job_run(job_id=job_id)
    )
    evaluations: list[Any] = []
    monkeypatch.setattr(
        ratings.tasks.promotions_evaluate, "delay", lambda **kw: evaluations.append(kw)
    )
    enter(tournament, alice, bob)
    g1 = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=alice, white=bob
    )
    g2 = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=2, black=bob, white=alice
    )
    for g, res in ((g1, "B+R"), (g2, "W+R")):
        game_services.game_result_enter(actor=director, game=g, result=res)
    # Every result locked, the tournament still open: the ratings wait for the close.
    with django_capture_on_commit_callbacks(execute=True) as locks:
        for g in (g1, g2):
            game_services.game_finalise(actor=director, game=g)
    assert not Job.objects.filter(kind="ratings").exists() and not RatingRun.objects.exists()
    assert not [c for c in locks if "ratings" in repr(c)]
    with django_capture_on_commit_callbacks(execute=True) as closing:
        tournament_services.tournament_close(actor=director, tournament=tournament)
    job = Job.objects.get(kind="ratings")
    assert job.params["from_tournament"] == tournament.pk and job.state == JobState.DONE
    assert job.params["reason"] == "tournament closed"
    # The update's job, then (once done) its run's promotion evaluation (docs/promotions.md §4).
    assert len(closing) == 2
    assert evaluations == [{"run_id": RatingRun.objects.get().pk}]
    assert RatingHistory.objects.filter(tournament=tournament).count() == 2
    assert PlayerRating.objects.get(player=alice).games == 2


def test_a_result_locked_after_the_close_re_rates_from_it(
    director: Any, tournament: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from ratings.services import ratings_on_result_locked

    game = GameFactory(tournament=tournament)
    assert ratings_on_result_locked(game) is None  # open: waits for the close
    Tournament.objects.filter(pk=tournament.pk).update(closed_at=timezone.now())
    job = ratings_on_result_locked(game)
    assert job is not None and job.params["reason"] == "result after the close"


def test_an_unrated_tournament_queues_nothing(
    director: Any, alice: Any, bob: Any, tournament: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament.rated = False
    tournament.save(update_fields=["rated"])
    enter(tournament, alice, bob)
    g = tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=alice, white=bob
    )
    game_services.game_result_enter(actor=director, game=g, result="B+R")
    with django_capture_on_commit_callbacks(execute=False):
        game_services.game_finalise(actor=director, game=g)
        tournament_services.tournament_close(actor=director, tournament=g.tournament)
    assert not Job.objects.filter(kind="ratings").exists()


def test_a_broker_outage_leaves_the_job_pending_for_the_sweep(
    director: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    import ratings.tasks
    from ratings.services import ratings_recompute_start, ratings_sweep

    def down(job_id: int) -> None:
        raise ConnectionError("broker down")

    federation_official_grant(actor=None, user=director)
    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        job = ratings_recompute_start(actor=director)
    job.refresh_from_db()
    assert job.state == JobState.PENDING
    sent: list[int] = []
    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", sent.append)
    later = job.created_at + dt.timedelta(minutes=5)
    assert ratings_sweep(now=later) == 1 and sent == [job.pk]


def test_a_game_with_more_than_nine_stones_is_reported_not_rated_and_the_rest_is() -> None:
    a, b, c = players(-20, 5, 0)
    t = event(D(2025, 1, 1), [(a, b, "B", 13), (c, b, "W", 0)])
    run = recompute()
    assert run.state == RatingRun.State.DONE and run.games == 1
    big = t.games.get(handicap=13)
    assert run.not_rated == [
        {"game": big.pk, "reason": "13 handicap stones: the EGD rates at most 9"}
    ]
    rated = set(RatingHistory.objects.filter(tournament=t).values_list("player_id", flat=True))
    assert rated == {b.pk, c.pk}  # a played only the 13-stone game


def test_a_handicap_past_the_pole_leaves_that_game_out_instead_of_failing() -> None:
    # A 6d (GoR 2600) receiving 9 stones plays at 3450, past β's pole at 3300.
    strong, weak, x, y = players(5, -10, -2, -1)
    t = event(D(2025, 1, 1), [(strong, weak, "W", 9), (x, y, "B", 0)])
    later = event(D(2025, 2, 1), [(x, y, "W", 0)])
    run = recompute()
    assert run.state == RatingRun.State.DONE and run.games == 2
    pole = t.games.get(handicap=9)
    assert run.not_rated == [
        {"game": pole.pk, "reason": "the handicap lifts Black to GoR 3300, the formula's pole"}
    ]
    assert RatingHistory.objects.filter(tournament=later).count() == 2
    assert not RatingHistory.objects.filter(tournament=t, player=strong).exists()


def _enter(t: Any, ranks: dict[Any, int]) -> None:
    from games.models import TournamentEntry

    TournamentEntry.objects.filter(tournament=t).delete()
    for p, r in ranks.items():
        TournamentEntry.objects.create(tournament=t, player=p, rank=r)


def test_entering_two_grades_higher_resets_upward_to_that_grades_gor_once_audited() -> None:
    from ops.models import AuditEntry

    a, b, c = players(-10, -10, -7)  # 10k, 10k, 7k
    first = event(D(2025, 1, 1), [(a, b, "W", 0)])  # a loses: below 10k's 1100
    _enter(first, {a: -10, b: -10})
    second = event(D(2025, 2, 1), [(a, c, "B", 0)])
    _enter(second, {a: -8, c: -7})  # a enters at 8k: two grades above his 10k
    third = event(D(2025, 3, 1), [(b, c, "B", 0)])
    _enter(third, {b: -9, c: -7})  # b one grade up: no reset
    recompute()
    after_first = RatingHistory.objects.get(tournament=first, player=a).rating_after
    assert after_first < 1100.0
    h = RatingHistory.objects.get(tournament=second, player=a)
    assert (h.reset_from, h.rating_before) == (pytest.approx(after_first), 1300.0)
    hb = RatingHistory.objects.get(tournament=third, player=b)
    assert hb.reset_from is None
    rows = AuditEntry.objects.filter(action="rating.entry_grade_reset")
    assert [(r.object_id, r.new_value["rating"], r.new_value["tournament"]) for r in rows] == [
        (str(a.pk), 1300.0, second.pk)
    ]
    recompute()  # the same reset again: no second audit row
    recompute(from_tournament=second)
    assert AuditEntry.objects.filter(action="rating.entry_grade_reset").count() == 1
    assert RatingHistory.objects.get(tournament=second, player=a).rating_before == 1300.0


def test_a_reset_never_lowers_a_rating() -> None:
    a, b = players(-10, -5)
    first = event(D(2025, 1, 1), [(a, b, "B", 0)])
    _enter(first, {a: -10, b: -5})
    from ratings.models import RatingHistory as RH

    second = event(D(2025, 2, 1), [(a, b, "B", 0)])
    _enter(second, {a: -9, b: -5})
    recompute()
    before = RH.objects.get(tournament=second, player=a)
    assert before.reset_from is None  # one grade up only
    third = event(D(2025, 3, 1), [(a, b, "B", 0)])
    _enter(third, {a: -30, b: -5})  # entering far lower never resets either
    recompute()
    assert RH.objects.get(tournament=third, player=a).reset_from is None


def test_the_class_weight_of_each_event_applies_in_a_run() -> None:
    a, b = players(-3, -2)
    t = event(D(2025, 1, 1), [(a, b, "B", 0)], egf_class="B")
    recompute()
    want = rate_event_textbook(
        {a.pk: 1800.0, b.pk: 1900.0}, [GameOutcome(a.pk, b.pk, 1.0)], weight=0.75
    )
    got = {h.player_id: h.rating_after for h in RatingHistory.objects.filter(tournament=t)}
    assert got == pytest.approx(want, abs=1e-9)
