"""The review list of possible duplicates in a real browser: a file imported with two
records of one of its players' names, the director follows the tournament page's link,
keeps one pair apart and merges the other (docs/tournaments.md, "One person across
events")."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import DuplicateState, Player, PossibleDuplicate, TournamentEntry
from games.tournament.services.files import tournament_import
from tests.browser.test_journeys import expect_text
from tests.factories import PlayerFactory
from tests.games.tournament.test_files import SIMPLE_MM

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_keeps_one_pair_apart_and_merges_the_other(
    visit: Any, shot: Any, director: Any
) -> None:
    first = PlayerFactory(family_name="Robin", given_name="Clé", egd_pin="12345678")
    second = PlayerFactory(family_name="ROBIN", given_name="Cle")
    tournament = tournament_import(actor=None, data=SIMPLE_MM.read_bytes()).tournament
    tournament.directors.add(director)
    new = TournamentEntry.objects.get(tournament=tournament, player__name_key=first.name_key)
    page = visit(director)
    page.goto(f"{page.base}/tournaments/{tournament.pk}/")
    page.click("text=2 possible duplicates to review")
    expect_text(page, "main", r"2 pairs to review")
    shot(page, "the-review-list")
    apart = PossibleDuplicate.objects.get(other=first)
    page.click(f"#duplicate-{apart.pk} button[value=apart]")
    expect_text(page, ".messages", r"are kept apart")
    merge = PossibleDuplicate.objects.get(other=second)
    page.click(f"#duplicate-{merge.pk} button[value='{second.pk}']")
    expect_text(page, ".messages", rf"Merged into ROBIN Cle \(#{second.pk}\)")
    expect_text(page, "main", r"0 pairs to review")
    shot(page, "both-decided")
    assert PossibleDuplicate.objects.get(pk=apart.pk).state == DuplicateState.APART
    assert not Player.objects.filter(pk=new.player_id).exists()
    assert TournamentEntry.objects.get(pk=new.pk).player_id == second.pk
