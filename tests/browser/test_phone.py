"""A player's phone (375x740) in Chromium against a live server: he finds his table on
the round's "where do I play" page by typing his name, and reads the standings without
the page scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q

from games import services as games
from games.models import Game, Tournament
from games.tournament.services.rounds import round_pair
from tests.factories import PlayerFactory, enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}


@pytest.fixture
def event(director: Any, tournament: Tournament) -> Tournament:
    """A 12-player McMahon event with round 1 paired and one result final."""
    tournament.system = tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 5
    tournament.save()
    players = [
        PlayerFactory(
            family_name=f"Wolfeschlegelsteinhausen{i}", given_name="Hubert", declared_rank=2 - i
        )
        for i in range(11)
    ]
    players.append(PlayerFactory(family_name="Østergård", given_name="Søren", declared_rank=-3))
    enter(tournament, *players)
    created = round_pair(actor=director, tournament=tournament, round_number=1).created
    games.game_result_enter(actor=director, game=created[0], result="B+R")
    games.game_finalise(actor=director, game=created[0])
    return tournament


def overflow(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_a_player_types_his_name_and_sees_his_table(
    visit: Any, shot: Any, event: Tournament
) -> None:
    mine = Game.objects.get(
        Q(black__family_name="Østergård") | Q(white__family_name="Østergård"), tournament=event
    )
    page = visit(**PHONE)
    page.goto(f"{page.base}/tournaments/{event.pk}/")
    page.click(".where-now a")
    page.wait_for_selector("#where")
    assert page.inner_text("#where-count") == "6 tables"
    page.fill("#q", "osterg")  # no ø on his keyboard
    visible = page.locator("#where tbody tr:visible")
    assert visible.count() == 1
    row = visible.inner_text()
    assert "Østergård Søren" in row and row.split()[0] == str(mine.table)
    assert f"· {mine.komi}" in row
    assert page.inner_text("#where-count") == "1 of 6 tables"
    assert overflow(page) <= 0, "the page is wider than the phone"
    shot(page, "where-do-i-play")
    page.click("text=live standings")
    page.wait_for_selector("table.standings")
    assert page.url.endswith(f"/tournaments/{event.pk}/standings/")


def test_the_standings_fit_a_phone_with_place_name_and_score_in_view(
    visit: Any, shot: Any, event: Tournament
) -> None:
    page = visit(**PHONE)
    for url in (f"/tournaments/{event.pk}/standings/", f"/tournaments/{event.pk}/"):
        page.goto(page.base + url)
        page.wait_for_selector("table.standings")
        assert page.evaluate("document.documentElement.scrollWidth") == page.evaluate(
            "window.innerWidth"
        ), f"{url} scrolls sideways"
        headers = page.locator("table.standings thead th").all_inner_texts()
        assert headers[:3] == ["Pl", "Player", "MMS"]
        for column in ("th.name", "td.name >> nth=0", "td.score >> nth=0"):
            box = page.locator(f"table.standings {column}").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375, column
        shot(page, "standings-on-a-phone")
        # the rest scrolls inside its container, and the name stays in view meanwhile
        scroller = page.locator("table.standings")
        assert scroller.evaluate("t => t.scrollWidth > t.clientWidth")
        scroller.evaluate("t => t.scrollLeft = t.scrollWidth")
        name = page.locator("table.standings td.name >> nth=0").bounding_box()
        assert name is not None and 0 <= name["x"] < 375
        shot(page, "standings-scrolled")
