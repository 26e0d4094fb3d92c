"""The round's results page under a fast typist, in Chromium: saves in flight at once
whose answers arrive out of order still leave the counter and the finalise button
right (found by the 100-player journey, tests/browser/test_big_day.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.people.services.grants import director_grant_admin
from games.tournament.services.rounds import round_pair
from tests.browser.test_journeys import expect_text
from tests.factories import PlayerFactory, enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_answers_out_of_order_leave_the_counter_right(
    visit: Any, director: Any, tournament: Any
) -> None:
    director_grant_admin(user=director)
    players = [PlayerFactory(family_name=f"Player{i}", given_name="P") for i in range(4)]
    enter(tournament, *players)
    round_pair(actor=director, tournament=tournament, round_number=1)

    page = visit(director)
    held: list[tuple[Any, Any]] = []

    def hold_the_first_save(route: Any) -> None:
        # The first save reaches the server (and is written) but its answer is held
        # back until the second save's answer is in.
        if route.request.method == "POST" and not held:
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route("**/rounds/1/results/", hold_the_first_save)
    # The page's clock stands still: its 10-second poll (which would count afresh
    # anyway) never runs here.
    page.clock.install()
    page.goto(f"{page.base}/tournaments/{tournament.pk}/rounds/1/results/")
    page.clock.pause_at(dt.datetime.now() + dt.timedelta(seconds=1))
    expect_text(page, "#counter", "0/2")
    assert not page.is_visible("#finalise")  # nothing to finalise yet
    page.keyboard.press("b")
    while not held:
        page.wait_for_timeout(20)
    page.keyboard.press("w")
    page.wait_for_selector("table.results tbody tr:nth-child(2) .value:text-is('W+')")
    route, answer = held[0]
    route.fulfill(response=answer)  # the older answer, with its count of 1
    page.wait_for_selector("table.results tbody tr:nth-child(1) .value:text-is('B+')")
    # Its count is not shown: the counts are read afresh instead.
    assert page.inner_text("#known") != "1"
    page.wait_for_selector("#counter:has-text('2/2')")
    expect_text(page, "#finalise", r"\(2\)")
    assert page.is_visible("#finalise")
