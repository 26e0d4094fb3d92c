"""Corrections during an event in a real browser: on a started tournament's entries page a
director corrects a rank (told which rounds are already paired and what it changes),
then updates the ratings from the EGD list (docs/tournaments.md, "Corrections during an
event")."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import TournamentEntry
from ratings.lists import rating_list_import
from tests.browser.test_journeys import expect_text
from tests.ratings.test_rating_lists import EGD_SAMPLE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_corrects_a_rank_and_updates_the_ratings_after_round_one(
    visit: Any, shot: Any, director: Any, game: Any
) -> None:
    rating_list_import(actor=None, data=EGD_SAMPLE)
    game.black.egd_pin = "10234567"  # Müller Jörg Peter's PIN on the sample list
    game.black.save(update_fields=["egd_pin"])
    entry = TournamentEntry.objects.get(tournament=game.tournament, player=game.black)
    page = visit(director)
    page.goto(f"{page.base}/tournaments/{game.tournament_id}/entries/")
    page.select_option(f"select[form=edit-{entry.pk}]", "1k")
    page.click(f"#edit-{entry.pk} button[type=submit]")
    expect_text(page, ".messages", r"Round\(s\) 1 already paired")
    expect_text(page, ".messages", r"McMahon start score")
    shot(page, "rank-corrected-after-round-1")
    page.click("text=Update ratings from the current lists")
    expect_text(page, ".messages", r"1 entries changed, 1 unchanged")
    shot(page, "ratings-updated")
    entry.refresh_from_db()
    assert (entry.rank, entry.rating, entry.rating_origin) == (-1, 2310, "EGF")
