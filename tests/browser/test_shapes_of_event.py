"""Every shape of event at congress size, through the pages in Chromium: a 40-team event
of 5 boards, a 64-pair pair go event, a 128-player cup, and tables moved after the pairing
showing on the printed list and the slips."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Game, Team, TournamentEntry
from games.people.services.grants import director_grant_admin
from games.services import games_finalise, round_results_enter
from games.tournament.services import teams
from games.tournament.services.pairs import pair_enter
from tests.browser.test_journeys import expect_text
from tests.factories import PlayerFactory, enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _play_round(director: Any, tournament: Any, number: int, but: int = 0) -> None:
    """Every game of the round but the last ``but`` won by Black and finalised."""
    games = list(Game.objects.filter(tournament=tournament, round__number=number).order_by("table"))
    chosen = games[: len(games) - but]
    if not chosen:
        return
    round_results_enter(
        actor=director, round=chosen[0].round, results=[(g.pk, "B+R") for g in chosen]
    )
    games_finalise(actor=director, games=list(Game.objects.filter(pk__in=[g.pk for g in chosen])))


def test_a_40_team_event_of_5_boards(visit: Any, shot: Any, director: Any, tournament: Any) -> None:
    director_grant_admin(user=director)
    tournament.system, tournament.number_of_rounds = "swiss", 3
    tournament.save()
    people = [PlayerFactory(family_name=f"T{i:03d}", declared_rank=4 - i % 20) for i in range(200)]
    enter(tournament, *people)
    teams.team_params_set(actor=director, tournament=tournament, size=5)
    for n in range(40):
        teams.team_create(
            actor=director,
            tournament=tournament,
            name=f"Club {n:02d}",
            members=people[5 * n : 5 * n + 5],
        )
    page = visit(director)
    page.goto(f"{page.base}{reverse('games:teams', args=[tournament.pk])}")
    page.fill("#teams-pair input[name=round]", "1")
    page.click("#teams-pair button")
    expect_text(
        page, ".messagelist, .messages, body", r"20 match\(es\) paired: 100 board game\(s\)"
    )
    assert Game.objects.filter(tournament=tournament, round__number=1).count() == 100
    # Tables moved after the pairing: a second room from table 101.
    page.goto(f"{page.base}{reverse('games:round-tables', args=[tournament.pk, 1])}")
    page.fill("#tables-shift input[name=by]", "100")
    page.click("#tables-shift button")
    expect_text(page, "body", r"100 game\(s\) moved to new tables")
    printed = reverse("admin:games_tournament_pairing_print", args=[tournament.pk, 1])
    page.goto(f"{page.base}{printed}?by=table")
    expect_text(page, "table", r"\b101\b")
    page.goto(f"{page.base}{printed}?by=slips")
    expect_text(page, "body", r"table 200\b")
    # Results: two clicked on the results page, the rest entered as a sheet would.
    _play_round(director, tournament, 1, but=2)
    page.goto(f"{page.base}{reverse('games:round-results', args=[tournament.pk, 1])}?unknown=1")
    for _ in range(2):
        page.locator("table.results tbody tr[data-game]").first.locator(
            "button[data-key=w]"
        ).click()
        page.wait_for_timeout(300)
        page.goto(f"{page.base}{reverse('games:round-results', args=[tournament.pk, 1])}?unknown=1")
    page.goto(f"{page.base}{reverse('games:round-results', args=[tournament.pk, 1])}")
    page.click("#finalise button")
    page.goto(f"{page.base}{reverse('games:teams', args=[tournament.pk])}")
    expect_text(page, "table.team-standings", r"TEAMP")
    assert page.locator("table.team-standings tbody tr").count() == 40
    shot(page, "team-standings")
    export = page.request.get(
        f"{page.base}/api/v1/tournaments/{tournament.pk}/export/?format=opengotha"
    )
    assert export.ok and b"<Teams>" in export.body() and b'teamSize="5"' in export.body()
    assert Team.objects.filter(tournament=tournament).count() == 40


def test_a_64_pair_pair_go_event(visit: Any, shot: Any, director: Any, tournament: Any) -> None:
    director_grant_admin(user=director)
    people = [PlayerFactory(family_name=f"G{i:03d}", declared_rank=3 - i % 15) for i in range(128)]
    for n in range(1, 63):
        pair_enter(
            actor=director, tournament=tournament, members=[people[2 * n], people[2 * n + 1]]
        )
    page = visit(director)
    page.goto(f"{page.base}{reverse('games:pairs', args=[tournament.pk])}")
    page.fill("input[name=members]", f"#{people[0].pk} #{people[1].pk}")
    page.click("form:has(input[name=members]) button")
    expect_text(page, "body", r"G000 / G001 .* entered as")
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 63
    page.goto(f"{page.base}{reverse('admin:games_tournament_pair', args=[tournament.pk, 1])}")
    page.click("input[value='Preview the pairing']")
    page.click("button[value=confirm]")
    page.wait_for_load_state()
    games = Game.objects.filter(tournament=tournament, round__number=1)
    assert games.count() == 31  # 63 pairs: one bye
    assert all(g.black.is_pair and g.white.is_pair for g in games.select_related("black", "white"))
    _play_round(director, tournament, 1)
    page.goto(f"{page.base}{reverse('games:standings', args=[tournament.pk])}")
    expect_text(page, "body", r"G000 / G001")
    shot(page, "pair-go-standings")
    h9 = page.request.get(f"{page.base}/api/v1/tournaments/{tournament.pk}/export/?format=egf")
    assert h9.ok and b"the EGD rates none of these games" in h9.body()


def test_a_128_player_cup_on_a_phone(visit: Any, shot: Any, director: Any, tournament: Any) -> None:
    director_grant_admin(user=director)
    tournament.system, tournament.number_of_rounds = "cup", 7
    tournament.save()
    people = [PlayerFactory(family_name=f"C{i:03d}", declared_rank=8 - i % 30) for i in range(128)]
    enter(tournament, *people)
    page = visit(director)
    cup_url = f"{page.base}{reverse('games:cup', args=[tournament.pk])}"
    page.goto(cup_url)
    page.check("input[name=third_place]")
    page.click("form:has(input[value=options]) button")
    expect_text(page, "body", r"Saved: the bracket follows.")
    for number in (1, 2):
        page.goto(
            f"{page.base}{reverse('admin:games_tournament_pair', args=[tournament.pk, number])}"
        )
        page.click("input[value='Preview the pairing']")
        page.click("button[value=confirm]")
        page.wait_for_load_state()
        assert (
            Game.objects.filter(tournament=tournament, round__number=number).count() == 64 // number
        )
        _play_round(director, tournament, number)
    phone = visit(None, width=390, height=740)
    phone.goto(cup_url)
    expect_text(phone, "body", r"Round 3")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 400
    shot(phone, "cup-bracket-phone")
