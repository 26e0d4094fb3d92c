"""Re-scoring with dead stones nobody marked: the estimate verifies a right claim, never a
wrong one; a flip waits for the opponent's confirmation; otherwise the players mark the
dead stones on the stone-removal page, and only a disagreement becomes a dispute."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.staticfiles import finders

from games import services, tasks
from games.models import DeadStoneReview, Game, GameState, ScoringRun
from games.services import deadstones
from ops.models import AuditEntry
from referee.models import Dispute
from tests.factories import GameFactory, TournamentFactory
from tests.games.rescore_helpers import Broker, count

# A finished 9x9 game: a lone White stone at C5 in Black's area, a Black one at H5 in
# White's.  Chinese rules, komi 8.5: B+0.5 with both dead, W+0.5 with every stone alive.
POSITION = (
    "(;GM[1]FF[4]SZ[9]KM[8.5]"
    "AB[ba][da][ea][ab][bb][cb][db][eb][dc][ec][ad][bd][cd][dd][ed][ee][he][af][bf][cf][df]"
    "[ef][bg][dg][eg][ah][bh][ch][dh][eh][bi][di][ei]"
    "AW[fa][ha][fb][gb][hb][ib][fc][fd][gd][hd][id][ce][fe][ff][gf][hf][if][fg][hg][fh][gh]"
    "[hh][ih][fi][hi];B[];W[])"
)
TRUTH = count(POSITION, "chinese", "8.5", dead=[(2, 4), (7, 4)])
ALL_ALIVE = count(POSITION, "chinese", "8.5")
WHITE_STONE_ONLY = count(POSITION, "chinese", "8.5", dead=[(2, 4)])


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    b = Broker()
    b.patch(monkeypatch)
    return b


@pytest.fixture
def small(director, alice, bob) -> Game:  # type: ignore[no-untyped-def]
    t = TournamentFactory(name="Nine", rules="chinese", board_size=9)
    t.directors.add(director)
    return GameFactory(tournament=t, black=alice, white=bob, komi=Decimal("8.5"))


def submit(game: Game, player: Any, result: str) -> ScoringRun:
    services.game_result_submit(actor=player.user, game=game, result=result, sgf=POSITION)
    run = ScoringRun.objects.get(game=game)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    return run


def test_the_claims_differ_as_the_position_says() -> None:
    assert (TRUTH, ALL_ALIVE) == ("B+0.5", "W+0.5")
    assert WHITE_STONE_ONLY not in (TRUTH, ALL_ALIVE)


def test_a_right_claim_is_verified_with_the_estimated_dead_stones(small, alice, broker, client):
    run = submit(small, alice, TRUTH)
    assert (run.matches, run.dead_source, run.step) == (True, "estimated", "verified")
    assert run.dead_stones == ["C5", "H5"] and run.computed_result == TRUTH
    assert not Dispute.objects.exists() and not DeadStoneReview.objects.exists()
    page = client.get(f"/games/{small.pk}/").content.decode()
    assert "matches the result. Dead stones: estimated by the engine." in page


def test_a_wrong_claim_equal_to_the_all_alive_count_is_not_verified(small, alice, broker):
    # Counted with every stone alive this claim was verified.  Now only flipping both
    # lone stones back to alive gives it: that waits for the opponent's confirmation.
    run = submit(small, alice, ALL_ALIVE)
    assert (run.matches, run.step, run.dead_source) == (None, "confirm", "flipped")
    assert sorted(run.flipped) == [["C5"], ["H5"]] and run.dead_stones == []


def test_a_flip_waits_for_the_opponents_confirmation_which_agrees_to_it(
    small, alice, bob, broker, django_capture_on_commit_callbacks
):
    run = submit(small, alice, WHITE_STONE_ONLY)
    assert (run.matches, run.dead_source, run.step) == (None, "flipped", "confirm")
    assert run.flipped == [["H5"]] and run.dead_stones == ["C5"]
    assert run.computed_result == WHITE_STONE_ONLY
    broker.execute = True
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_confirm(actor=bob.user, game=small)
    game = Game.objects.get(pk=small.pk)
    assert game.state == GameState.CONFIRMED and game.dead_stones == ["C5"]
    run.refresh_from_db()
    assert (run.matches, run.dead_source, run.step) == (True, "submitted", "verified")


def test_the_opponent_sees_the_flipped_stones_on_the_game_page(small, alice, bob, broker, client):
    submit(small, alice, WHITE_STONE_ONLY)
    client.force_login(bob.user)
    page = client.get(f"/games/{small.pk}/").content.decode()
    # B+4.5, in words
    assert "The engine counts <strong>Black wins by 4.5 points</strong> if these stones" in page
    assert 'id="dead-stones-confirm"' in page and "Confirming the result agrees to them" in page
    assert "it waits for the players&#x27; confirmation" in page


def _removal(small: Game, alice: Any) -> DeadStoneReview:
    submit(small, alice, "W+30.5")  # no set of at most two flips gives this
    return DeadStoneReview.objects.get(game=small)


def test_otherwise_the_players_mark_the_dead_stones_starting_from_the_estimate(
    small, alice, broker
):
    review = _removal(small, alice)
    run = ScoringRun.objects.get(game=small)
    assert (run.matches, run.step, run.dispute_id) == (None, "removal", None)
    assert review.state == "open" and review.estimate == ["C5", "H5"]
    assert review.marking("B") == review.marking("W") == ["C5", "H5"]
    assert not Dispute.objects.exists()
    assert Game.objects.get(pk=small.pk).state == GameState.SUBMITTED


def test_a_click_toggles_a_whole_chain_and_withdraws_the_agreement(small, alice, broker):
    _removal(small, alice)
    review = deadstones.dead_stones_toggle(actor=alice.user, game=small, point="C5")
    assert review.marking("B") == ["H5"] and review.marking("W") == ["C5", "H5"]
    review = deadstones.dead_stones_toggle(actor=alice.user, game=small, point="E1")
    assert "E1" in review.marking("B") and "E9" in review.marking("B")  # the whole wall
    deadstones.dead_stones_agree(actor=alice.user, game=small)
    review = deadstones.dead_stones_toggle(actor=alice.user, game=small, point="E1")
    assert review.black_agreed_at is None and review.marking("B") == ["H5"]


def test_each_click_is_audited_with_the_marking_before_and_after(small, alice, broker):
    _removal(small, alice)
    deadstones.dead_stones_toggle(actor=alice.user, game=small, point="C5")
    row = AuditEntry.objects.filter(action="dead_stones.marking_changed").get()
    assert row.actor == alice.user
    assert row.old_value == {"color": "B", "marking": ["C5", "H5"]}
    assert row.new_value == {"color": "B", "marking": ["H5"], "point": "C5"}


def test_the_same_marking_that_bears_out_the_claim_is_stored_and_verified(
    small, alice, bob, broker, django_capture_on_commit_callbacks
):
    _removal(small, alice)
    # The claim W+30.5 cannot be made by any marking; change it to the truth first.
    Game.objects.filter(pk=small.pk).update(result_winner="B", result_margin=Decimal("0.5"))
    assert deadstones.dead_stones_agree(actor=alice.user, game=small).state == "open"
    broker.execute = True
    with django_capture_on_commit_callbacks(execute=True):
        done = deadstones.dead_stones_agree(actor=bob.user, game=small)
    assert (done.state, done.result) == ("agreed", TRUTH)
    assert Game.objects.get(pk=small.pk).dead_stones == ["C5", "H5"]
    run = ScoringRun.objects.get(game=small)
    assert (run.matches, run.dead_source) == (True, "submitted")


def test_two_markings_open_a_dead_stone_dispute_with_both(small, alice, bob, broker):
    _removal(small, alice)
    deadstones.dead_stones_toggle(actor=bob.user, game=small, point="H5")
    deadstones.dead_stones_agree(actor=alice.user, game=small)
    done = deadstones.dead_stones_agree(actor=bob.user, game=small)
    dispute = Dispute.objects.get(game=small)
    assert done.state == "disputed" and done.dispute_id == dispute.pk
    assert dispute.kind == "dead-stones"
    evidence = dispute.evidence["automatic"]
    assert evidence["markings"] == {"B": ["C5", "H5"], "W": ["C5"]}
    assert evidence["estimate"] == ["C5", "H5"]
    assert Game.objects.get(pk=small.pk).state == GameState.DISPUTED


def test_an_agreed_marking_that_contradicts_the_claim_is_disputed(small, alice, bob, broker):
    _removal(small, alice)
    deadstones.dead_stones_agree(actor=alice.user, game=small)
    assert deadstones.dead_stones_agree(actor=bob.user, game=small).state == "disputed"
    assert "not the submitted W+30.5" in Dispute.objects.get(game=small).claim


def test_the_stone_removal_page_is_for_the_players(small, alice, bob, outsider, broker, client):
    _removal(small, alice)
    url = f"/games/{small.pk}/dead-stones/"
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(alice.user)
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="point" value="C5">Mark alive' in body and 'id="agree"' in body
    response = client.post(url, {"point": "C5"})
    assert response.status_code == 302
    assert DeadStoneReview.objects.get(game=small).marking("B") == ["H5"]
    bad = client.post(url, {"point": "Z99"})
    assert bad.status_code == 400
    client.force_login(bob.user)
    game_page = client.get(f"/games/{small.pk}/").content.decode()
    assert 'id="dead-stones-removal"' in game_page and url in game_page
    assert "it waits for the players to mark them" in game_page


def _board(body: str) -> ET.Element:
    """The page's SVG board, parsed."""
    return ET.fromstring(body[body.index("<svg") : body.index("</svg>") + len("</svg>")])


def _with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_a_player_clicks_the_stones_of_the_board_with_the_tables_form(small, alice, broker, client):
    review = _removal(small, alice)
    review.unsure = [["C5"]]
    review.save(update_fields=["unsure"])
    url = f"/games/{small.pk}/dead-stones/"
    client.force_login(alice.user)
    body = client.get(url).content.decode()
    board = _board(body)
    stones = _with_class(board, "stone")
    assert stones and _with_class(board, "clickable") == stones
    by_point = {s.get("data-point"): s for s in stones}
    assert "white" in (by_point["C5"].get("class") or "") and "G4" in by_point
    # The unsure chain has its square, and the caption says what the marks mean.
    assert len(_with_class(board, "unsure-mark")) == 1
    assert "Crosses: stones marked dead." in body
    assert "Squares: chains the engine is unsure of." in body
    # The script posts this form: the CSRF token and a point, as a table button does.
    assert re.search(
        r'<form method="post" id="board-toggle" hidden>'
        r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">'
        r'<input type="hidden" name="point"></form>',
        body,
    )
    assert re.search(r'<script src="/static/games/dead_stones.js" nonce="[^"]+" defer>', body)
    assert finders.find("games/dead_stones.js")
    # Any stone of a chain names it: G4 toggles the whole White wall, as its button (F9) does.
    assert client.post(url, {"point": "G4"}).status_code == 302
    marking = DeadStoneReview.objects.get(game=small).marking("B")
    assert {"F9", "G4", "J2"} <= set(marking) and "C5" in marking


def test_a_director_sees_the_marks_but_no_stone_to_click(small, alice, director, broker, client):
    review = _removal(small, alice)
    review.unsure = [["C5"]]
    review.save(update_fields=["unsure"])
    client.force_login(director)
    body = client.get(f"/games/{small.pk}/dead-stones/").content.decode()
    board = _board(body)
    assert _with_class(board, "stone") and _with_class(board, "clickable") == []
    assert all(e.get("data-point") is None for e in board.iter())
    assert len(_with_class(board, "unsure-mark")) == 1
    assert len(_with_class(board, "dead-mark")) == 2
    assert 'id="board-toggle"' not in body and "dead_stones.js" not in body


def test_a_stranger_cannot_toggle(small, alice, broker, outsider):
    from django.core.exceptions import PermissionDenied

    _removal(small, alice)
    with pytest.raises(PermissionDenied):
        deadstones.dead_stones_toggle(actor=outsider, game=small, point="C5")


def test_no_stone_removal_for_a_result_already_confirmed(small, alice, bob, broker):
    services.game_result_submit(actor=alice.user, game=small, result="W+30.5", sgf=POSITION)
    services.game_result_confirm(actor=bob.user, game=small)
    run = ScoringRun.objects.get(game=small)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    assert (run.step, run.matches) == ("removal", None)
    assert not DeadStoneReview.objects.exists()


# --------------------------------------------------------------------------- comparing markings


def _agree_on_the_page(client: Any, game: Game, *players: Any) -> str:
    """Each player presses "Agree to this marking"; the last answer's page, followed."""
    body = ""
    for player in players:
        client.force_login(player.user)
        response = client.post(f"/games/{game.pk}/dead-stones/", {"agree": ""}, follow=True)
        assert response.status_code == 200
        body = response.content.decode()
    return body


def test_the_same_marking_against_the_claim_is_not_called_different(
    small, alice, bob, broker, client
):
    _removal(small, alice)  # both start from the estimate C5 H5; the claim is W+30.5
    client.force_login(alice.user)
    page = client.get(f"/games/{small.pk}/dead-stones/").content.decode()
    assert "Your opponent's marking is the same as yours." in page
    body = _agree_on_the_page(client, small, alice, bob)
    assert "The markings differ" not in body
    assert (
        f"You both marked the same stones dead, but with them the game counts {TRUTH}, "
        "not the submitted W+30.5: a referee will decide."
    ) in body
    dispute = Dispute.objects.get(game=small)
    assert dispute.evidence["automatic"]["same_marking"] is True


def test_markings_are_compared_as_points_whatever_their_order_or_spelling(
    small, alice, bob, broker, client
):
    review = _removal(small, alice)
    Game.objects.filter(pk=small.pk).update(result_winner="B", result_margin=Decimal("0.5"))
    review.black_marking = ["h5", "c5"]  # White keeps the estimate, C5 H5
    review.save(update_fields=["black_marking"])
    client.force_login(alice.user)
    page = client.get(f"/games/{small.pk}/dead-stones/").content.decode()
    assert "Your opponent's marking is the same as yours." in page
    assert 'name="point" value="C5">Mark alive' in page  # shown as dead, as marked
    assert 'name="point" value="H5">Mark alive' in page
    body = _agree_on_the_page(client, small, alice, bob)
    assert f"Both players agree: the game counts {TRUTH}." in body
    assert Game.objects.get(pk=small.pk).dead_stones == ["C5", "H5"]
    assert not Dispute.objects.exists()


def test_different_markings_are_named_on_the_page_and_said_to_differ(
    small, alice, bob, broker, client
):
    _removal(small, alice)
    deadstones.dead_stones_toggle(actor=bob.user, game=small, point="H5")
    client.force_login(alice.user)
    page = client.get(f"/games/{small.pk}/dead-stones/").content.decode()
    assert "Your opponent's marking differs from yours at H5." in page
    body = _agree_on_the_page(client, small, alice, bob)
    assert "The markings differ: a referee will decide." in body
    assert Dispute.objects.get(game=small).evidence["automatic"]["same_marking"] is False
