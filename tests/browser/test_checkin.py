"""The check-in grid in Chromium: a click changes its cell in place, without reloading
the page (a 102-player grid reloaded on every toggle)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import TournamentEntry
from tests.factories import PlayerFactory, enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_click_changes_the_cell_in_place(visit: Any, director: Any, tournament: Any) -> None:
    (entry,) = enter(tournament, PlayerFactory(family_name="Toggle", given_name="Tom"))
    page = visit(director)
    page.goto(f"{page.base}/tournaments/{tournament.pk}/checkin/")
    page.evaluate("window.notReloaded = true")
    cell = page.locator(f"#entry-{entry.pk} button[title='round 2']")
    cell.click()
    page.wait_for_selector(f"#entry-{entry.pk} button[title='round 2'].a")
    assert cell.inner_text() == "absent"
    cell.click()
    page.wait_for_selector(f"#entry-{entry.pk} button[title='round 2'].b")
    assert page.evaluate("window.notReloaded") is True  # the same page: no reload
    entry = TournamentEntry.objects.get(pk=entry.pk)
    assert entry.presence(2) == "b"
