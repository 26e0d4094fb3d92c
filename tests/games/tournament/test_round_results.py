"""The round's results page: one click per game, saved at once through the result
service, a stale write refused with what changed, the counter and the filter."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import game_finalise, game_result_enter
from games.tournament.services.rounds import round_games_set
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(director: Any, tournament: Any) -> list[Game]:
    players = [PlayerFactory(family_name=f"Player{i}", given_name="P") for i in range(6)]
    enter(tournament, *players)
    ids = [p.pk for p in players]
    return round_games_set(
        actor=director,
        tournament=tournament,
        round_number=1,
        games=[(ids[0], ids[1], 0), (ids[2], ids[3], 0, Decimal(7)), (ids[4], ids[5], 0)],
    )


def url(tournament: Any, number: int = 1) -> str:
    return reverse("games:round-results", args=[tournament.pk, number])


@pytest.fixture
def as_director(director: Any) -> Client:
    c = Client()
    c.force_login(director)
    return c


def test_the_tournament_page_links_each_rounds_results_for_directors(
    as_director, tournament, games
):
    page = as_director.get(reverse("games:tournament", args=[tournament.pk]))
    assert url(tournament).encode() in page.content


def test_the_page_has_one_row_per_table_and_a_jigo_only_at_a_whole_komi(
    as_director, tournament, games
):
    page = as_director.get(url(tournament))
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [r.game.table for r in rows] == [1, 2, 3]
    assert [("0" in [c[2] for c in r.choices]) for r in rows] == [False, True, False]
    sheet = reverse("admin:games_round_results", args=[games[0].round_id])
    assert f'href="{sheet}"' in page.content.decode()
    assert page.context["known"] == 0 and page.context["total"] == 3


def test_one_click_saves_the_game_at_once_and_audits_it(as_director, tournament, games):
    response = as_director.post(
        url(tournament),
        {"game": games[0].pk, "result": "W+", "seen": ""},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["game"]["result"] == "W+" and body["known"] == 1 and body["total"] == 3
    games[0].refresh_from_db()
    assert games[0].result_display == "W+"
    assert AuditEntry.objects.filter(action="game.result_entered").count() == 1


def test_without_javascript_a_click_posts_and_comes_back(as_director, tournament, games):
    response = as_director.post(url(tournament), {"game": games[1].pk, "result": "0", "seen": ""})
    assert response.status_code == 302 and response["Location"].endswith(f"#game-{games[1].pk}")
    games[1].refresh_from_db()
    assert games[1].result_display == "0"


def test_a_stale_click_is_refused_with_what_changed(as_director, director, tournament, games):
    game_result_enter(actor=director, game=games[0], result="B+R")  # another operator
    response = as_director.post(
        url(tournament),
        {"game": games[0].pk, "result": "W+", "seen": ""},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 409
    body = response.json()
    assert "Table 1" in body["error"] and "B+R" in body["error"]
    assert body["game"]["result"] == "B+R"
    games[0].refresh_from_db()
    assert games[0].result_display == "B+R"
    # The page, without JavaScript, says the same with 409.
    page = as_director.post(url(tournament), {"game": games[0].pk, "result": "W+", "seen": ""})
    assert page.status_code == 409 and b"B+R" in page.content


def test_a_jigo_at_komi_6_5_and_a_locked_game_are_refused(as_director, director, tournament, games):
    jigo = as_director.post(
        url(tournament),
        {"game": games[0].pk, "result": "0", "seen": ""},
        HTTP_ACCEPT="application/json",
    )
    assert jigo.status_code == 400
    game_result_enter(actor=director, game=games[2], result="B+R")
    game_finalise(actor=director, game=games[2])
    locked = as_director.post(
        url(tournament),
        {"game": games[2].pk, "result": "W+", "seen": "B+R"},
        HTTP_ACCEPT="application/json",
    )
    assert locked.status_code == 409


def test_the_unknown_only_filter_and_the_live_answer(as_director, director, tournament, games):
    game_result_enter(actor=director, game=games[0], result="B+R")
    page = as_director.get(url(tournament), {"unknown": "1"})
    assert [r.game.pk for r in page.context["rows"]] == [games[1].pk, games[2].pk]
    assert page.context["known"] == 1 and page.context["total"] == 3
    live = as_director.get(url(tournament), {"format": "json"}).json()
    assert live["known"] == 1 and [g["result"] for g in live["games"]] == ["B+R", "", ""]


def test_others_get_404_and_visitors_the_login(client, outsider, tournament, games):
    assert client.get(url(tournament)).status_code == 302
    c = Client()
    c.force_login(outsider)
    assert c.get(url(tournament)).status_code == 404
    assert c.post(url(tournament), {"game": games[0].pk, "result": "B+"}).status_code == 404
    assert c.get(url(tournament, 99)).status_code == 404


def test_the_result_sheet_names_the_table_of_a_bad_line_and_marks_its_field(
    director, tournament, games
):
    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    sheet = reverse("admin:games_round_results", args=[games[0].round_id])
    data = {f"game_{games[0].pk}": "B+R", f"game_{games[2].pk}": "B+6", "finalise": ""}
    response = c.post(sheet, data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form[f"game_{games[2].pk}"].errors and not form[f"game_{games[0].pk}"].errors
    assert any(e.startswith("table 3, ") for e in response.context["sheet_errors"])
    assert not Game.objects.exclude(result_reason="").exists()  # all or nothing


def test_the_tournaments_admin_page_links_each_rounds_results(director, tournament, games):
    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    page = c.get(reverse("admin:games_tournament_change", args=[tournament.pk]))
    assert page.status_code == 200 and url(tournament).encode() in page.content


def test_the_known_results_are_finalised_in_one_click(as_director, director, tournament, games):
    game_result_enter(actor=director, game=games[0], result="B+R")
    game_result_enter(actor=director, game=games[1], result="0")
    page = as_director.get(url(tournament))
    assert page.context["to_finalise"] == 2
    done = as_director.post(url(tournament), {"action": "finalise"})
    assert done.status_code == 302
    states = dict(Game.objects.values_list("pk", "state"))
    assert states[games[0].pk] == states[games[1].pk] == "final"
    assert states[games[2].pk] == "scheduled"


def test_the_finalise_button_waits_hidden_for_the_results_entered_on_the_page(
    as_director, tournament, games
):
    """Found by the 100-player journey: with no result known when the page loaded, the
    button never appeared after the clicks, and the round could not be finalised
    without reloading the page."""
    page = as_director.get(url(tournament)).content.decode()
    assert '<form method="post" id="finalise" hidden>' in page
    assert '<span id="to-finalise">0</span>' in page
    body = as_director.post(
        url(tournament),
        {"game": games[0].pk, "result": "B+", "seen": ""},
        HTTP_ACCEPT="application/json",
    ).json()
    assert body["to_finalise"] == 1 and body["open"] == 3


def test_a_click_answers_its_row_and_the_counters_without_reading_the_round(
    as_director, director, tournament, games, monkeypatch
):
    """At a congress a click's answer built all 500 rows of the round: it reads the
    clicked game and the counters only."""
    from games.tournament import results_page

    game_finalise(
        actor=director, game=game_result_enter(actor=director, game=games[1], result="B+")
    )
    game_result_enter(actor=director, game=games[2], result="0")  # a jigo: known, open

    def whole_round(*args: Any) -> Any:
        raise AssertionError("the click's answer read every row of the round")

    with monkeypatch.context() as patched:
        patched.setattr(results_page, "result_rows", whole_round)
        body = as_director.post(
            url(tournament),
            {"game": games[0].pk, "result": "W+", "seen": ""},
            HTTP_ACCEPT="application/json",
        ).json()
    assert body["game"] == {
        "id": games[0].pk,
        "result": "W+",
        "state": "submitted",
        "state_display": body["game"]["state_display"],
        "locked": False,
    }
    assert body["games"] == []
    counters = {k: body[k] for k in ("known", "total", "to_finalise", "open")}
    assert counters == {"known": 3, "total": 3, "to_finalise": 2, "open": 2}
    # The page counts the same way.
    page = as_director.get(url(tournament))
    assert {k: page.context[k] for k in counters} == counters


def test_both_win_is_one_click_scores_a_win_for_each_and_is_never_rated(
    as_director, director, tournament, games
):
    from games.tournament.engine.model import Outcome
    from games.tournament.selectors import event_of

    response = as_director.post(
        url(tournament),
        {"game": games[1].pk, "result": "both win", "seen": ""},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["game"]["result"] == "both win"
    games[1].refresh_from_db()
    assert games[1].result_reason == "both_win" and games[1].not_rated_reason
    assert AuditEntry.objects.filter(action="game.result_entered").count() == 1
    # Corrected by the next click like any result, and a stale click is refused.
    stale = as_director.post(
        url(tournament),
        {"game": games[1].pk, "result": "both win", "seen": ""},
        HTTP_ACCEPT="application/json",
    )
    assert stale.status_code == 409
    back = as_director.post(
        url(tournament),
        {"game": games[1].pk, "result": "B+", "seen": "both win"},
        HTTP_ACCEPT="application/json",
    )
    assert back.status_code == 200 and back.json()["game"]["result"] == "B+"
    again = as_director.post(
        url(tournament), {"game": games[1].pk, "result": "both win", "seen": "B+"}
    )
    assert again.status_code == 302
    games[1].refresh_from_db()
    game_finalise(actor=director, game=games[1])
    played = [g for g in event_of(tournament).event.games if g.round == 1]
    assert Outcome.BOTH_WIN in {g.outcome for g in played}
