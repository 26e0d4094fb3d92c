"""A round where the day meets the referee, in Chromium against a live server: one game
is contested from a slip code on a phone, the director finalises the rest, the disputed
game stays open, the referee rules, both slip pages show the ruling, one player appeals
from his phone, the chief referee decides, and the event closes only after that.
Screenshots: var/artifacts/ (see the browser conftest)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameState, Tournament
from games.services.codes import report_code
from games.tournament import services as tournament_services
from referee.models import Dispute, DisputeState
from tests.browser.test_journeys import expect_text
from tests.factories import PlayerFactory, enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 740}


def slip_url(page: Any, game: Game, player: Any) -> str:
    code = report_code(game, player.pk)
    return page.base + reverse("games:report", kwargs={"game_id": game.pk, "code": code})


def test_a_disputed_game_waits_for_its_rulings_and_the_close_waits_for_it(
    visit: Any,
    shot: Any,
    nz: Tournament,
    nz_game: Game,
    alice: Any,
    bob: Any,
    director: Any,
    referee: Any,
    chief: Any,
) -> None:
    # Played today: a director closes it (an event dated back is a federation official's).
    today = timezone.localdate()
    Tournament.objects.filter(pk=nz.pk).update(start_date=today, end_date=today)
    carol = PlayerFactory(family_name="Carol", given_name="Cee")
    dave = PlayerFactory(family_name="Dave", given_name="Dee")
    enter(nz, carol, dave)
    other = tournament_services.game_create(
        actor=None, tournament=nz, round_number=1, black=carol, white=dave, table=2
    )

    # Table 1: Alice reports from her slip, Bob contests from his, both on phones.
    black = visit(**PHONE)
    black.goto(slip_url(black, nz_game, alice))
    black.click("#report button:has-text('Black wins by resignation')")
    expect_text(black, "#reported", r"You reported Black wins by resignation")
    white = visit(**PHONE)
    white.goto(slip_url(white, nz_game, bob))
    expect_text(white, "#claim", r"reported Black wins by resignation")
    white.fill("#reason", "My opponent's flag fell before he says I resigned.")
    white.click("#report button:has-text('Contest')")
    expect_text(white, ".messages", "a referee will look at it")
    expect_text(white, "#ruling", "The referee rules next")
    shot(white, "phone-contested")

    # The director enters table 2 with a click and finalises the known results.
    desk = visit(director)
    desk.goto(f"{desk.base}/tournaments/{nz.pk}/rounds/1/results/")
    expect_text(desk, "#disputed-note", "1 disputed game")
    desk.click(f"#game-{other.pk} button[value='W+']")
    desk.wait_for_selector("#counter:has-text('2/2')")
    desk.click("#finalise button")
    expect_text(desk, ".messages", r"1 result\(s\) of round 1 are final")
    expect_text(desk, ".messages", "table 1 .*under an open dispute: the referee rules first")
    shot(desk, "finalised-but-the-dispute")
    assert Game.objects.get(pk=other.pk).state == GameState.FINAL
    assert Game.objects.get(pk=nz_game.pk).state == GameState.DISPUTED

    # The close is refused while the dispute is open.
    desk.goto(f"{desk.base}/tournaments/{nz.pk}/")
    desk.click("text=Close the tournament")
    expect_text(desk, ".messages", "under an open dispute")
    assert Tournament.objects.get(pk=nz.pk).closed_at is None

    # The referee rules: White wins on time.
    dispute = Dispute.objects.get(game=nz_game)
    url = f"/referee/disputes/{dispute.pk}/"
    page = visit(referee)
    page.goto(page.base + url)
    page.check("input[name=decision][value=upheld]")
    page.fill("#id_result", "W+T")
    page.fill("#id_reasons", "Black's flag fell before the resignation.")
    page.click("#ruling-form button[type=submit]")
    expect_text(page, ".messages", "Recorded")
    expect_text(page, "#ruled-now", r"the result is now White wins on time \(W\+T\)")
    assert page.locator("#ruling-form").count() == 0

    # Both slip pages show the ruling in words.
    for phone in (black, white):
        phone.reload()
        expect_text(phone, "#ruling", "The referee upheld the claim")
        expect_text(phone, "#ruling", r"White wins on time \(W\+T\)")
        expect_text(phone, "#ruling", "Black's flag fell before the resignation")
    overflow = black.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the slip page is {overflow}px wider than the phone"
    shot(black, "phone-ruling")

    # Alice appeals from her phone, with her reason.
    black.fill("#appeal-reason", "I resigned before my flag fell: ask the table next to us.")
    black.click("#ruling button:has-text('Appeal to the chief referee')")
    expect_text(black, ".messages", "Your appeal is sent")
    expect_text(black, "#ruling", "You appealed to the chief referee")
    white.reload()
    expect_text(white, "#ruling", "Your opponent appealed to the chief referee")
    assert Dispute.objects.get(pk=dispute.pk).state == DisputeState.APPEALED

    # The chief referee decides: the claim is dismissed, back to Black by resignation.
    page = visit(chief)
    page.goto(page.base + url)
    page.check("input[name=decision][value=dismissed]")
    page.fill("#id_reasons", "The neighbours saw the resignation first.")
    page.click("#ruling-form button[type=submit]")
    expect_text(page, ".messages", "Recorded")

    # Both accept from their phones: the result is final.
    for phone in (white, black):
        phone.reload()
        expect_text(phone, "#ruling", "The chief referee dismissed the claim")
        expect_text(phone, "#ruling", r"Black wins by resignation \(B\+R\)")
        phone.click("#ruling button:has-text('Accept the ruling')")
        expect_text(phone, ".messages", "You accept the ruling")
    shot(black, "phone-accepted")
    game = Game.objects.get(pk=nz_game.pk)
    assert game.state == GameState.FINAL and game.result_display == "B+R"

    # Only now does the event close.
    desk.goto(f"{desk.base}/tournaments/{nz.pk}/")
    desk.click("text=Close the tournament")
    expect_text(desk, ".messages", "The tournament is closed")
    assert Tournament.objects.get(pk=nz.pk).closed_at is not None
