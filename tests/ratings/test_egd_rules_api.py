"""The EGD's rules through the API: a class-B event, HA[hN], a 13-stone game, an entry-grade reset.

Each test drives the public API as a director would (settings, entries, results,
close) and checks what the rating run wrote against the pure formula.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games import services
from games.models import Game
from games.tournament import services as tournament_services
from ops.models import AuditEntry
from ratings.models import RatingHistory, RatingRun
from ratings.recompute import recompute
from ratings.systems.base import GameOutcome
from ratings.systems.egf import rate_event_textbook
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/"


@pytest.fixture(autouse=True)
def _dates_fixed_not_recent(settings: Any) -> None:
    """The events here are dated 2025; closing one is not back-dating it."""
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000


def _event(api: Any, director: Any, day: dt.date, **settings: Any) -> Any:
    t = TournamentFactory(start_date=day, end_date=day, rated=True)
    t.directors.add(director)
    if settings:
        r = api.patch(f"{URL}{t.pk}/", settings, format="json")
        assert r.status_code == 200, r.content
    return t


def _enter(api: Any, t: Any, player: Any, rank: str) -> None:
    r = api.post(f"{URL}{t.pk}/entries/", {"player": player.pk, "rank": rank}, format="json")
    assert r.status_code == 201, r.content


def _play(director: Any, t: Any, black: Any, white: Any, result: str, handicap: int = 0) -> Game:
    rnd = t.games.count() + 1
    g = tournament_services.game_create(
        actor=director,
        tournament=t,
        round_number=rnd,
        black=black,
        white=white,
        handicap=handicap,
    )
    services.game_result_enter(actor=director, game=g, result=result)
    services.game_finalise(actor=director, game=g)
    return g


def _close(api: Any, t: Any) -> None:
    r = api.post(f"{URL}{t.pk}/close/")
    assert r.status_code == 200, r.content


def test_a_class_b_event_moves_ratings_three_quarters_as_far(api_as, director):
    api = api_as(director)
    a = PlayerFactory(declared_rank=-3)  # 3k: 1800
    b = PlayerFactory(declared_rank=-2)  # 2k: 1900
    t = _event(api, director, dt.date(2025, 5, 1), egf_class="B")
    _enter(api, t, a, "3k")
    _enter(api, t, b, "2k")
    _play(director, t, a, b, "B+R")
    _close(api, t)
    recompute()
    want = rate_event_textbook({a.pk: 1800.0, b.pk: 1900.0}, [GameOutcome(a.pk, b.pk, 1.0)])
    for p in (a, b):
        h = RatingHistory.objects.get(tournament=t, player=p)
        assert h.change == pytest.approx(0.75 * (want[p.pk] - h.rating_before), abs=1e-9)


def test_the_handicap_calculator_follows_the_h9_and_h3_rules(api_as, director):
    api = api_as(director)
    strong = PlayerFactory(declared_rank=4)  # 5d
    weak = PlayerFactory(declared_rank=-10)  # 10k: 14 grades
    for reduction, stones in ((9, 0), (3, 6), (0, 9)):
        t = _event(
            api,
            director,
            dt.date(2025, 5, 1),
            handicap_policy={"kind": "egf", "reduction": reduction},
        )
        _enter(api, t, strong, "5d")
        _enter(api, t, weak, "10k")
        body = api.get(
            "/api/v1/handicap/", {"black": weak.pk, "white": strong.pk, "tournament": t.pk}
        ).json()
        assert body["handicap"] == stones, (reduction, body)


def test_a_rated_event_with_a_13_stone_game_is_rated_without_it(api_as, director):
    api = api_as(director)
    weak, strong, c = (PlayerFactory(declared_rank=r) for r in (-20, 3, 0))
    t = _event(api, director, dt.date(2025, 5, 1))
    for p, rank in ((weak, "20k"), (strong, "4d"), (c, "1d")):
        _enter(api, t, p, rank)
    big = _play(director, t, weak, strong, "B+R", handicap=13)
    _play(director, t, c, strong, "W+R")
    _close(api, t)
    run = recompute()
    assert run.state == RatingRun.State.DONE and run.games == 1
    assert [r["game"] for r in run.not_rated] == [big.pk]
    body = api.get(f"/api/v1/games/{big.pk}/").json()
    assert body["rated"] is False and "13 handicap stones" in body["not_rated_reason"]
    assert not RatingHistory.objects.filter(player=weak).exists()


def test_entering_three_grades_higher_resets_the_rating_and_is_audited(api_as, director):
    api = api_as(director)
    a, b, c = (PlayerFactory(declared_rank=r) for r in (-10, -10, -7))
    first = _event(api, director, dt.date(2025, 1, 1))
    _enter(api, first, a, "10k")
    _enter(api, first, b, "10k")
    _play(director, first, a, b, "W+R")
    _close(api, first)
    second = _event(api, director, dt.date(2025, 2, 1))
    _enter(api, second, a, "7k")  # three grades above his 10k entry
    _enter(api, second, c, "7k")
    _play(director, second, a, c, "B+R")
    _close(api, second)
    recompute()
    h = RatingHistory.objects.get(tournament=second, player=a)
    assert h.rating_before == 1400.0 and h.reset_from is not None and h.reset_from < 1100.0
    (row,) = AuditEntry.objects.filter(action="rating.entry_grade_reset")
    assert row.old_value["rating"] == pytest.approx(h.reset_from, abs=1e-3)
    assert row.new_value == {"rating": 1400.0, "tournament": second.pk, "run": row.new_value["run"]}
