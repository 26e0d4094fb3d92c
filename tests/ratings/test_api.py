"""The ratings and handicap API: the NZ rule at its edges, placements, what-if, history,
permissions and bad input in the agreed error shape."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from games import services as game_services
from games.models import GameState
from games.tournament import services as tournament_services
from ops.models import AuditEntry, Job
from ratings.models import HonoraryTitle
from ratings.recompute import recompute
from tests.factories import TournamentFactory
from tests.ratings.helpers import event, players, rate
from tests.ratings.vectors import NZ_HANDICAP_EDGES

pytestmark = pytest.mark.django_db
URL = "/api/v1/handicap/"


def _pair(diff: float) -> tuple[Any, Any]:
    strong, weak = players(0, 0)
    rate(strong, 2100 + round(diff * 100))
    rate(weak, 2100)
    return strong, weak


@pytest.mark.parametrize(("diff", "handicap", "even_allowed"), NZ_HANDICAP_EDGES)
def test_the_nz_rule_at_its_edges(api: Any, diff: float, handicap: int, even_allowed: bool) -> None:
    strong, weak = _pair(diff)
    got = api.get(URL, {"black": strong.pk, "white": weak.pk}).json()
    assert (got["handicap"], got["even_game_allowed"]) == (handicap, even_allowed)
    assert got["rating_difference"] == pytest.approx(diff)
    if handicap:
        assert (got["black"], got["white"]) == (weak.pk, strong.pk)  # the weaker takes Black
        assert Decimal(got["komi"]) == 0
    else:
        assert got["nigiri"] is True and Decimal(got["komi"]) == 7
    assert got["explanation"]


def test_a_9x9_tournament_caps_at_five(api: Any) -> None:
    strong, weak = _pair(12)
    t = TournamentFactory(board_size=9, rules="nz")
    got = api.get(URL, {"black": strong.pk, "white": weak.pk, "tournament": t.pk}).json()
    assert got["handicap"] == 5 and got["board_size"] == 9
    assert "capped at 5" in got["explanation"]


def test_the_tournaments_own_cap_and_policy_apply(api: Any) -> None:
    strong, weak = _pair(4.2)
    t = TournamentFactory(rules="nz", handicap_cap=3)
    assert (
        api.get(URL, {"black": strong.pk, "white": weak.pk, "tournament": t.pk}).json()["handicap"]
        == 3
    )
    t2 = TournamentFactory(rules="nz", handicap_policy="none")
    assert (
        api.get(URL, {"black": strong.pk, "white": weak.pk, "tournament": t2.pk}).json()["handicap"]
        == 0
    )
    t3 = TournamentFactory(rules="nz", handicap_policy="egf", handicap_reduction=2)
    assert (
        api.get(URL, {"black": strong.pk, "white": weak.pk, "tournament": t3.pk}).json()["handicap"]
        == 2
    )


@pytest.mark.parametrize(
    ("size", "diff", "where"),
    [
        (19, 9, "Q16 D4 Q4 D16 Q10 D10 K16 K4 K10"),
        (19, 3, "Q16 D4 Q4"),
        (13, 5, "K10 D4 K4 D10 G7"),
        (13, 2, "K10 D4"),
        (9, 4, "G7 C3 G3 C7"),
        (9, 7, "G7 C3 G3 C7 E5"),
    ],
)
def test_fixed_placements_come_back_as_points(api: Any, size: int, diff: int, where: str) -> None:
    strong, weak = _pair(diff)
    t = TournamentFactory(board_size=size, rules="japanese")
    got = api.get(URL, {"black": strong.pk, "white": weak.pk, "tournament": t.pk}).json()
    assert got["placement"] == where.split()
    assert Decimal(got["komi"]) == Decimal("0.5")


def test_free_placement_under_nz_rules_has_white_passing(api: Any) -> None:
    strong, weak = _pair(3)
    got = api.get(URL, {"black": strong.pk, "white": weak.pk}).json()
    assert (got["placement"], got["white_passes"], got["rules"]) == (["free"], 2, "nz")


def test_unrated_players_count_at_their_declared_rank(api: Any) -> None:
    a, b = players(-3, 0)  # 3k and 1d: 3 stones
    got = api.get(URL, {"black": a.pk, "white": b.pk}).json()
    assert (got["handicap"], got["black"]) == (3, a.pk)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"black": "x", "white": "B"}, "black"),
        ({"white": "B"}, "black"),
        ({"black": "A", "white": "A"}, "white"),
        ({"black": 999999, "white": "B"}, "black"),
        ({"black": "A", "white": "B", "tournament": 999999}, "tournament"),
        ({"black": "A", "white": "B", "tournament": "t"}, "tournament"),
    ],
)
def test_bad_handicap_queries_are_400_naming_the_field(api: Any, params: Any, field: str) -> None:
    a, b = players(0, 0)
    ids = {"A": a.pk, "B": b.pk}
    r = api.get(URL, {k: ids.get(v, v) if isinstance(v, str) else v for k, v in params.items()})
    assert r.status_code == 400
    body = r.json()
    assert set(body) == {"message", "extra"} and field in body["extra"]["fields"]


# --------------------------------------------------------------------------- what-if


def test_what_if_uses_current_ratings_and_stores_nothing(api: Any) -> None:
    a, b = players(0, 0)
    rate(a, 2100)
    rate(b, 2100)
    got = api.get(
        "/api/v1/ratings/what-if/", {"black": a.pk, "white": b.pk, "winner": "black"}
    ).json()
    assert got["black"]["rating_after"] == pytest.approx(2109.306, abs=1e-3)
    assert got["white"]["rating_after"] == pytest.approx(2091.725, abs=1e-3)
    posted = api.post(
        "/api/v1/ratings/what-if/", {"black": a.pk, "white": b.pk, "winner": "jigo"}, format="json"
    ).json()
    assert posted["black"]["change"] == pytest.approx(0.516, abs=1e-3)
    assert a.rating.__class__.objects.get(player=a).rating == 2100


def test_what_if_refuses_bad_input(api: Any) -> None:
    a, b = players(0, 0)
    for body in (
        {"black": a.pk, "white": a.pk, "winner": "black"},
        {"black": a.pk, "white": b.pk, "winner": "nobody"},
        ["x"],
    ):
        r = api.post("/api/v1/ratings/what-if/", body, format="json")
        assert r.status_code == 400 and "message" in r.json()


# --------------------------------------------------------------------------- history and players


def test_player_history_is_public_with_a_pinned_query_count(
    api: Any, django_assert_num_queries: Any
) -> None:
    a, b = players(-3, -2)
    for k in range(3):
        event(dt.date(2025, 1, 1 + k), [(a, b, "B", 0)])
    recompute()
    with django_assert_num_queries(2):
        rows = api.get(f"/api/v1/players/{a.pk}/history/").json()
    assert [r["rating_before"] for r in rows[1:]] == [r["rating_after"] for r in rows[:-1]]
    assert rows[0]["rating_before"] == 1800 and rows[0]["wins"] == 1


def test_unknown_players_are_404(api: Any) -> None:
    assert api.get("/api/v1/players/999999/history/").status_code == 404
    r = api.get("/api/v1/players/999999/")
    assert r.status_code == 404 and set(r.json()) == {"message", "extra"}


def test_the_player_endpoint_gains_rating_fields(api: Any) -> None:
    a, b = players(-3, -2)
    event(dt.date(2025, 1, 1), [(a, b, "B", 0)])
    recompute()
    got = api.get(f"/api/v1/players/{a.pk}/").json()
    assert got["rating"] > 1800 and got["rating_rank"] == "3k" and got["provisional"] is True
    assert got["rank"] == "3k"  # the declared rank, unchanged
    unrated = api.get(f"/api/v1/players/{players(-7)[0].pk}/").json()
    assert (unrated["rating"], unrated["rating_rank"], unrated["provisional"]) == (None, None, True)


# --------------------------------------------------------------------------- directors only


def test_recompute_is_for_officials_and_answers_202_with_a_job(
    api_as: Any,
    director: Any,
    tournament: Any,
    outsider: Any,
    alice: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: Any,
    settings: Any,
) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the dates here are fixed, not recent
    import ratings.tasks

    sent: list[int] = []
    monkeypatch.setattr(ratings.tasks.ratings_recompute, "delay", sent.append)
    assert api_as(outsider).post("/api/v1/ratings/recompute/").status_code == 403
    assert api_as(alice).post("/api/v1/ratings/recompute/").status_code == 403
    # A full recompute is the federation's; a director recomputes from his own tournament.
    assert api_as(director).post("/api/v1/ratings/recompute/", {}, format="json").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        r = api_as(director).post(
            "/api/v1/ratings/recompute/", {"from_tournament": tournament.pk}, format="json"
        )
    assert r.status_code == 202
    job = Job.objects.get(pk=r.json()["job"])
    assert r.json()["url"] == f"/api/v1/jobs/{job.pk}/" and sent == [job.pk]
    followed = api_as(director).get(r.json()["url"]).json()
    assert (followed["id"], followed["kind"], followed["state"]) == (job.pk, "ratings", "pending")
    assert AuditEntry.objects.filter(action="ratings.recompute_requested").count() == 1
    bad = api_as(director).post(
        "/api/v1/ratings/recompute/", {"from_tournament": 999999}, format="json"
    )
    assert bad.status_code == 400 and "from_tournament" in bad.json()["extra"]["fields"]


def test_recompute_without_credentials_is_401(api: Any) -> None:
    assert api.post("/api/v1/ratings/recompute/").status_code == 401


def test_the_honorary_title_is_a_federation_officials_audited_decision(
    api_as: Any, staff_director: Any, tournament: Any, outsider: Any, alice: Any
) -> None:
    director = staff_director  # a federation official
    url = f"/api/v1/players/{alice.pk}/honorary/"
    assert api_as(outsider).post(url, {"reason": "x"}, format="json").status_code == 403
    assert api_as(director).post(url, {"reason": ""}, format="json").status_code == 400
    r = api_as(director).post(url, {"reason": "Lifetime of teaching"}, format="json")
    assert r.status_code == 201 and r.json()["rank"] == "9p+"
    assert HonoraryTitle.objects.get(player=alice).awarded_by == director
    entry = AuditEntry.objects.get(action="player.honorary_awarded")
    assert entry.new_value["reason"] == "Lifetime of teaching"
    assert api_as(director).post(url, {"reason": "again"}, format="json").status_code == 400
    assert api_as(director).get(f"/api/v1/players/{alice.pk}/").json()["rating_rank"] == "9p+"
    assert (
        api_as(director)
        .post("/api/v1/players/999999/honorary/", {"reason": "x"}, format="json")
        .status_code
        == 404
    )


# --------------------------------------------------------------------------- the even-game choice


def _close_pair_game(tournament: Any, alice: Any, bob: Any, diff: float) -> Any:
    rate(alice, 2100)
    rate(bob, 2100 + round(diff * 100))
    for player in (alice, bob):  # the entries take the ratings as they are now
        tournament_services.entry_add(actor=None, tournament=tournament, player=player)
    return tournament_services.game_create(
        actor=None, tournament=tournament, round_number=1, black=bob, white=alice, handicap=None
    )


def test_a_new_game_takes_the_advised_handicap_and_komi(
    tournament: Any, alice: Any, bob: Any
) -> None:
    game = _close_pair_game(tournament, alice, bob, 2.4)
    assert (game.handicap, game.komi, game.black, game.white) == (3, Decimal("0.5"), alice, bob)
    assert game.even_game_chosen is None


def test_players_may_choose_an_even_game_under_half_a_stone(
    api_as: Any, tournament: Any, alice: Any, bob: Any, outsider: Any
) -> None:
    game = _close_pair_game(tournament, alice, bob, 0.3)
    assert (game.handicap, game.komi) == (1, Decimal(0))
    url = f"/api/v1/games/{game.pk}/even-game/"
    assert api_as(outsider).post(url).status_code == 403
    r = api_as(bob).post(url)
    assert r.status_code == 200
    assert r.json() == {"game": game.pk, "handicap": 0, "komi": "6.5", "even_game_chosen": True}
    assert AuditEntry.objects.filter(
        action="game.even_game_chosen", object_id=str(game.pk)
    ).exists()
    assert api_as(bob).post(url).status_code == 409  # already even
    assert api_as(bob).post("/api/v1/games/999999/even-game/").status_code == 404


def test_an_even_game_is_refused_from_half_a_stone_and_after_a_result(
    api_as: Any, tournament: Any, alice: Any, bob: Any, director: Any
) -> None:
    game = _close_pair_game(tournament, alice, bob, 0.5)
    r = api_as(alice).post(f"/api/v1/games/{game.pk}/even-game/")
    assert r.status_code == 400 and "handicap" in r.json()["extra"]["fields"]
    rate(bob, 2120)
    game_services.game_result_enter(actor=director, game=game, result="B+R")
    assert game.__class__.objects.get(pk=game.pk).state == GameState.SUBMITTED
    assert api_as(director).post(f"/api/v1/games/{game.pk}/even-game/").status_code == 409
