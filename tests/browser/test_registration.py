"""Registration from the federations' rating lists in a real browser: a director types a
few letters of a name on the entries page, picks the player from the EGD list, and he is
entered with the list's rank, rating, club and PIN (docs/tournaments.md, "Entries")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.models import TournamentEntry
from ratings.lists import rating_list_import
from tests.browser.test_journeys import expect_text
from tests.factories import TournamentFactory
from tests.ratings.test_rating_lists import EGD_SAMPLE, FFG

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_types_a_few_letters_and_enters_a_listed_player(
    visit: Any, shot: Any, director: Any
) -> None:
    rating_list_import(actor=None, data=EGD_SAMPLE)
    rating_list_import(actor=None, data=Path(FFG).read_bytes())
    tournament = TournamentFactory(name="Berlin Spring Cup")
    tournament.directors.add(director)
    page = visit(director)
    page.goto(f"{page.base}/tournaments/{tournament.pk}/entries/")
    page.type("#search", "jörg mü", delay=40)
    page.wait_for_selector("#found a.listed")
    shot(page, "typed-a-few-letters")
    expect_text(page, "#found", r"Müller Jörg Peter \(3d, 2310, Berl, DE\) — EGD 10234567")
    page.click("#found a.listed")
    page.click("form:has(#search) button[type=submit]")
    expect_text(page, ".messages", r"Müller Jörg Peter entered from the EGD list")
    shot(page, "entered-from-the-list")
    entry = TournamentEntry.objects.select_related("player").get(tournament=tournament)
    assert entry.player.egd_pin == "10234567"
    assert (entry.rank, entry.rating, entry.club, entry.country) == (2, 2310, "Berl", "DE")


def test_the_keyboard_picks_a_line_of_the_search_list(visit: Any, director: Any) -> None:
    """Arrows move through the list, Enter picks the line (without submitting the form),
    Escape closes the list."""
    rating_list_import(actor=None, data=EGD_SAMPLE)
    tournament = TournamentFactory(name="Berlin Autumn Cup")
    tournament.directors.add(director)
    page = visit(director)
    page.goto(f"{page.base}/tournaments/{tournament.pk}/entries/")
    page.type("#search", "jörg mü", delay=40)
    page.wait_for_selector("#found a.listed")
    page.press("#search", "Escape")
    assert page.locator("#found a").count() == 0
    page.type("#search", " ", delay=40)  # a new answer opens the list again
    page.wait_for_selector("#found a.listed")
    page.press("#search", "ArrowDown")
    assert page.get_attribute("#found a.active", "aria-selected") == "true"
    page.press("#search", "Enter")  # picks the line: the list closes, nothing is posted
    assert page.locator("#found a").count() == 0
    assert page.input_value("#search").startswith("Müller")
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    page.press("#search", "Enter")  # the form's own Enter now enters him
    expect_text(page, ".messages", r"Müller Jörg Peter entered from the EGD list")
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1
