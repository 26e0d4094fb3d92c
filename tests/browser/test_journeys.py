"""The real journeys, in Chromium against a live server: a director sets up a tournament,
players submit and confirm, a contest and an illegal move reach the referee desk, an
appeal goes up to the committee, and anyone finds the player and rating pages from the
header.  Screenshots: var/artifacts/ (see the browser conftest)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from games import services as games
from games.engine.record import parse_record
from games.models import DeadStoneReview, Game, GameState, Tournament
from games.people.services.grants import director_grant_admin
from ratings.recompute import recompute
from referee import services as referee_services
from referee.models import Dispute
from tests.factories import GameFactory, TournamentFactory
from tests.games.rescore_helpers import count
from tests.games.test_deadstones import POSITION
from tests.ratings.helpers import event
from tests.referee.conftest import sgf
from tests.referee.test_kinds import WALLS
from tests.referee.test_procedure_fixes import KO_THEN_MORE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Black walls off the left, White the right; both pass: a count decides it.
COUNTED = sgf(*WALLS, "B pass", "W pass")


def expect_text(page: Any, selector: str, pattern: str) -> str:
    """The text of ``selector``, checked against the regular expression ``pattern``."""
    page.wait_for_selector(selector)
    text: str = page.inner_text(selector)
    assert re.search(pattern, text), f"{selector!r} says {text!r}, expected /{pattern}/"
    return text


def test_a_director_creates_a_tournament_and_names_a_referee(
    visit: Any, shot: Any, director: Any, referee: Any
) -> None:
    director_grant_admin(user=director)
    # The federation lets him create tournaments (directors of one do not by default).
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    page = visit(director)
    page.goto(f"{page.base}/admin/games/tournament/add/")
    page.fill("#id_name", "Auckland Autumn Open")
    # A rated tournament is dated from today on: a director cannot date one back.
    today = timezone.localdate()
    page.fill("#id_start_date", today.isoformat())
    page.fill("#id_end_date", (today + dt.timedelta(days=1)).isoformat())
    page.select_option("#id_rules", "nz")
    page.fill("#id_board_size", "9")
    page.select_option("#id_referees", label=referee.get_username())
    shot(page, "admin-new-tournament")
    page.click("input[name=_save]")
    expect_text(page, ".messagelist", "was added successfully")
    shot(page, "admin-tournament-saved")
    tournament = Tournament.objects.get(name="Auckland Autumn Open")
    assert tournament.komi == Decimal(7)  # the New Zealand rules' komi, left empty on the form
    assert list(tournament.referees.all()) == [referee]
    assert list(tournament.directors.all()) == [director]


def test_a_player_submits_a_record_and_the_opponent_confirms_what_the_engine_checked(
    visit: Any, shot: Any, nz_game: Any, alice: Any, bob: Any, scoring_inline: Any
) -> None:
    result = count(COUNTED, rules="nz", komi="7")
    page = visit(alice.user)
    page.goto(f"{page.base}/games/{nz_game.pk}/")
    page.click("text=Submit the result")
    page.fill("#id_result", result)
    page.fill("#id_sgf", COUNTED)
    shot(page, "submit-form")
    page.click("main form button[type=submit]")
    expect_text(page, ".messages", "Result submitted")
    expect_text(page, "#verification", rf"counted {re.escape(result)} .*: matches the result")
    shot(page, "submitted-and-checked")

    page = visit(bob.user)
    expect_text(page, "header", "My games 1 to confirm")
    page.click("header >> text=My games")
    expect_text(page, "#waiting + ul", rf"submitted .*\({re.escape(result)}\)")
    shot(page, "my-games-waiting")
    page.click("#waiting + ul a")
    expect_text(page, "#verification", "matches the result")
    assert page.is_visible("#sgf-download")
    shot(page, "opponent-sees-verification")
    page.click("button[name=confirm]")
    expect_text(page, ".messages", "confirmed")
    shot(page, "confirmed")
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.CONFIRMED and nz_game.result_display == result


def test_a_contest_reaches_the_referee_desk(
    visit: Any, shot: Any, nz_game: Any, alice: Any, bob: Any, referee: Any
) -> None:
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    page = visit(bob.user)
    page.goto(f"{page.base}/games/{nz_game.pk}/")
    page.fill("#id_reason", "I never resigned: Alice lost on time.")
    shot(page, "contest")
    page.click("button[name=contest]")
    expect_text(page, ".messages", "referee desk")

    page = visit(referee)
    page.click("header >> text=Referee desk")
    expect_text(page, "main", "I never resigned")
    shot(page, "desk-queue")
    dispute = Dispute.objects.get(game=nz_game)
    page.goto(f"{page.base}/referee/disputes/{dispute.pk}/")
    expect_text(page, "h1", "result or count")
    page.select_option("#kind-form select", "time")
    page.click("button[name=change-kind]")
    expect_text(page, "h1", "Dispute .*: time")
    expect_text(page, "#audit", "changed what the dispute is about: result → time")
    shot(page, "desk-dispute-kind-changed")


def test_a_referee_rules_on_the_illegal_move_the_engine_found(
    visit: Any, shot: Any, nz_game: Any, alice: Any, referee: Any, scoring_inline: Any
) -> None:
    record = sgf(*KO_THEN_MORE)
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R", sgf=record)
    dispute = Dispute.objects.get(game=nz_game)  # opened by the engine's check

    page = visit(referee)
    page.click("header >> text=Referee desk")
    page.click(f"a[href='/referee/disputes/{dispute.pk}/']")
    expect_text(page, "#board figcaption", "after move 7 of 11 \\(the move in dispute")
    expect_text(page, "#first-illegal", "move 7, Black A1: ko")
    shot(page, "illegal-move-dispute")
    page.click("#step-forward")
    expect_text(page, "#board figcaption", "after move 8 of 11")
    shot(page, "stepped-to-move-8")
    page.click("text=the disputed move (7)")
    page.check("input[name=decision][value=upheld]")
    page.fill("#id_reasons", "Immediate ko recapture: Black's move 7 becomes a pass.")
    page.click("#ruling-form button[type=submit]")
    expect_text(page, ".messages", "Recorded")
    shot(page, "ruled")
    nz_game.refresh_from_db()
    moves = [(m.color.letter, m.point) for m in parse_record(nz_game.sgf).moves]
    original = [(m.color.letter, m.point) for m in parse_record(record).moves]
    assert moves == [*original[:6], ("B", None), *original[7:]]


def test_an_appeal_goes_to_the_chief_referee_and_then_the_committee(
    visit: Any,
    shot: Any,
    nz_game: Any,
    alice: Any,
    bob: Any,
    referee: Any,
    chief: Any,
    members: Any,
) -> None:
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    dispute = referee_services.dispute_open(
        actor=bob.user, game=nz_game, kind="time", claim="Black's flag fell first."
    )
    referee_services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="The flag fell.", result="W+T"
    )
    url = f"/referee/disputes/{dispute.pk}/"

    page = visit(alice.user)
    page.goto(page.base + url)
    page.fill("input[name=reason]", "The clock was faulty.")
    page.click("button[name=appeal]")
    expect_text(page, ".messages", "Appeal lodged")

    page = visit(chief)
    page.goto(page.base + url)
    expect_text(page, "#appeals", "alice appealed to the chief referee .*The clock was faulty")
    assert page.input_value("#id_result") == "W+T"  # the standing result, kept if left
    page.check("input[name=decision][value=upheld]")
    page.fill("#id_reasons", "The clock was checked and works.")
    shot(page, "chief-referee-rules")
    page.click("#ruling-form button[type=submit]")
    expect_text(page, ".messages", "Recorded")

    page = visit(alice.user)
    page.goto(page.base + url)
    page.fill("input[name=reason]", "I ask the committee.")
    page.click("button[name=appeal]")
    for member in members[:2]:
        page = visit(member)
        page.goto(page.base + url)
        page.check("input[name=decision][value=upheld]")
        page.fill("#id_result", "W+T")
        page.fill("#id_reasons", "The flag fell before the move.")
        page.click("#ruling-form button[type=submit]")
        expect_text(page, ".messages", "Recorded")
    expect_text(page, "main", "the committee, by 2 votes")
    shot(page, "committee-ruled")

    page = visit(alice.user)
    page.goto(f"{page.base}/games/{nz_game.pk}/")
    expect_text(page, "#result", "W\\+T")
    assert page.locator("#raise-dispute").count() == 0
    shot(page, "game-final")
    assert Game.objects.get(pk=nz_game.pk).state == GameState.FINAL


def test_a_player_marks_a_chain_dead_with_one_click_on_the_board(
    visit: Any, shot: Any, director: Any, alice: Any, bob: Any, scoring_inline: Any
) -> None:
    t = TournamentFactory(name="Nine", rules="chinese", board_size=9)
    t.directors.add(director)
    game = GameFactory(tournament=t, black=alice, white=bob, komi=Decimal("8.5"))
    # No estimate, nor one with at most two chains flipped, counts this claim: the
    # players get the stone-removal page, the estimate's C5 and H5 marked dead.
    games.game_result_submit(actor=alice.user, game=game, result="W+30.5", sgf=POSITION)
    review = DeadStoneReview.objects.get(game=game)
    # The estimate is sure of every chain of this position; one unsure chain shows its square.
    review.unsure = [["C5"]]
    review.save(update_fields=["unsure"])

    page = visit(alice.user)
    page.goto(f"{page.base}/games/{game.pk}/dead-stones/")
    expect_text(page, "#board figcaption", "Crosses: stones marked dead. Squares: chains the")
    expect_text(page, "#click-hint", "Click a stone")  # shown by the script: CSP let it run
    assert page.locator("#board .unsure-mark").count() == 1
    assert page.locator("#board .dead-mark").count() == 2
    expect_text(page, "#chains tr:has-text('White F9')", r"\talive\t")
    shot(page, "removal-page")

    with page.expect_navigation():
        page.click("#board circle[data-point='G4']")  # a stone inside White's wall
    expect_text(page, "#chains tr:has-text('White F9')", r"\tdead\t")
    wall = DeadStoneReview.objects.get(game=game).marking("B")
    assert {"F9", "G4", "J2", "C5", "H5"} <= set(wall)
    assert page.locator("#board .dead-mark").count() == len(wall)
    assert page.locator("#board .dead-mark").count() > 2
    shot(page, "wall-marked-dead")


def test_player_and_rating_pages_are_reached_from_the_header(visit: Any, shot: Any) -> None:
    from tests.ratings.helpers import players

    ps = players(-5, -3, -1, 1)
    ps[0].family_name, ps[0].given_name = "Sato", "Ken"
    ps[0].save()
    for k in range(2):
        event(
            dt.date(2026, 2, 1 + 7 * k),
            [(ps[0], ps[1], "B", 0), (ps[2], ps[3], "W", 0), (ps[0], ps[2], "W", 0)],
            name=f"Club night {k + 1}",
        )
    recompute()

    page = visit()
    page.goto(page.base + "/")
    page.click("header >> text=Ratings")
    expect_text(page, "h1", "Ratings")
    shot(page, "ratings")
    page.click("header >> text=Promotions")
    expect_text(page, "h1", "(?i)promotions")
    page.click("header >> text=Tournaments")
    page.click("text=Club night 2")
    page.click("table.crosstable >> text=Sato Ken")
    expect_text(page, "h1", "Sato Ken")
    assert page.locator("svg.chart circle").count() >= 2
    shot(page, "player-page")
    page.click("text=head to head >> nth=0")
    expect_text(page, "h2", "Sato Ken")
    shot(page, "head-to-head")

    phone = visit(width=390, height=800)
    phone.goto(f"{phone.base}/tournaments/{Tournament.objects.get(name='Club night 2').pk}/")
    overflow = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a phone"
    shot(phone, "tournament-on-a-phone")


def test_a_director_pairs_over_a_warning_then_enters_results_by_keyboard(
    visit: Any, shot: Any, director: Any, tournament: Any
) -> None:
    """Round 1 has a game without a final result: "Pair round 2" names it first, the
    preview's rows (swap, komi) are sent as one field, and the round's results page
    saves a game per key press."""
    from games.tournament.services.rounds import round_pair
    from tests.factories import PlayerFactory, enter

    director_grant_admin(user=director)
    players = [
        PlayerFactory(family_name=f"Player{i}", given_name="P", declared_rank=rank)
        for i, rank in enumerate([2, 1, 0, -1], start=1)
    ]
    tournament.system = tournament.handicap_policy = "mcmahon"
    tournament.number_of_rounds = 3
    tournament.save()
    enter(tournament, *players)
    first = round_pair(actor=director, tournament=tournament, round_number=1).created
    games.game_result_enter(actor=director, game=first[0], result="B+R")
    games.game_finalise(actor=director, game=first[0])

    page = visit(director)
    page.goto(f"{page.base}/admin/games/tournament/{tournament.pk}/rounds/2/pair/")
    expect_text(page, "#unfinished", "1 game of earlier rounds has no final result")
    shot(page, "pair-round-warning")
    page.click("text=Preview the pairing")
    page.wait_for_selector("#pairing-rows")
    page.check("tr[data-row] >> nth=0 >> [data-role=swap]")
    page.fill("tr[data-row] >> nth=0 >> [data-role=komi]", "7")
    page.check("input[name=accept_unfinished]")
    shot(page, "pair-round-preview")
    page.click("button[value=confirm]")
    expect_text(page, ".messagelist", "Round 2: 2 games paired")
    table1 = Game.objects.get(round__number=2, table=1)
    assert table1.komi == Decimal(7)

    page.goto(f"{page.base}/tournaments/{tournament.pk}/rounds/2/results/")
    expect_text(page, "#counter", "0/2")
    page.keyboard.press("b")  # the first row has the focus
    page.wait_for_selector("#counter:has-text('1/2')")
    page.keyboard.press("w")
    page.wait_for_selector("#counter:has-text('2/2')")
    shot(page, "round-results")
    results = dict(Game.objects.filter(round__number=2).values_list("table", "result_winner"))
    assert results == {1: "B", 2: "W"}
