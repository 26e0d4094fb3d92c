"""Each kind of dispute end to end through the API, with a recorded game (docs/referee.md)."""

from __future__ import annotations

from decimal import Decimal

from games import services as games
from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import score
from games.models import Game, GameState
from games.tournament import services as tournament_services
from ops.models import AuditEntry
from referee.models import Dispute, DisputeState
from tests.games.api_helpers import assert_error
from tests.referee.conftest import sgf

KO = ("B A1", "W B1", "B B2", "W J9", "B A3", "W A2", "B A1")  # move 7 retakes the ko
WALLS = tuple(m for r in range(1, 10) for m in (f"B D{r}", f"W F{r}"))
DEAD = (*WALLS, "B pass", "W B5", "B pass", "W pass")  # White B5 inside Black's area
PLAY_OUT = ["C5", "B4", "pass", "B6", "pass", "C4", "pass", "C6", "pass", "A5"]


def open_(api, game, **body):  # type: ignore[no-untyped-def]
    return api.post(f"/api/v1/games/{game.pk}/disputes/", body, format="json")


def rule(api, dispute_id, **body):  # type: ignore[no-untyped-def]
    return api.post(f"/api/v1/disputes/{dispute_id}/rulings/", body, format="json")


def close(api, dispute_id):  # type: ignore[no-untyped-def]
    return api.post(f"/api/v1/disputes/{dispute_id}/close/")


def moves_of(text):  # type: ignore[no-untyped-def]
    return [(m.color.letter, m.point) for m in parse_record(text).moves]


def test_an_upheld_repetition_replaces_the_move_with_a_pass_and_play_goes_on(
    api_as, nz_game, alice, bob, referee
):
    response = open_(api_as(bob), nz_game, kind="repetition", sgf=sgf(*KO), claim="Ko retaken")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["move_number"] == 7 and body["state"] == "open"
    assert body["evidence"]["legality"]["first_illegal"]["point"] == "A1"
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.DISPUTED
    response = rule(api_as(referee), body["id"], decision="upheld", reasons="NZ rules: a pass.")
    assert response.status_code == 201, response.content
    nz_game.refresh_from_db()
    assert moves_of(nz_game.sgf) == [*moves_of(sgf(*KO))[:6], ("B", None)]
    entry = AuditEntry.objects.get(action="game.record_replaced")
    assert entry.actor == referee and entry.old_value["sgf"] == "" and entry.new_value["sgf"]
    assert close(api_as(referee), body["id"]).status_code == 200
    nz_game.refresh_from_db()
    # No result yet: play goes on from the corrected record.
    assert nz_game.state == GameState.SCHEDULED


def test_a_repetition_claimed_after_the_next_move_is_refused_with_the_reason(api_as, nz_game, bob):
    response = open_(api_as(bob), nz_game, kind="repetition", sgf=sgf(*KO, "W pass"), move_number=7)
    body = assert_error(response, 400, "move_number")
    assert "Too late" in body["extra"]["fields"]["move_number"]
    assert not Dispute.objects.exists()
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.SCHEDULED


def test_an_upheld_illegal_move_restores_the_record_with_a_pass_for_the_offender(
    api_as, nz_game, alice, referee
):
    record = sgf("B E5", "W C3", "B G7", "W E5", "B D4")
    games.game_result_submit(actor=alice.user, game=nz_game, result="W+R", sgf=record)
    response = open_(api_as(alice), nz_game, kind="illegal-move", claim="White played on E5")
    body = response.json()
    assert body["move_number"] == 4  # the engine's first illegal move
    response = rule(api_as(referee), body["id"], decision="upheld", reasons="Occupied point.")
    assert response.status_code == 201
    nz_game.refresh_from_db()
    # White's move 4 becomes his pass; Black's move 5 is still legal and stays.
    assert moves_of(nz_game.sgf) == [*moves_of(record)[:3], ("W", None), moves_of(record)[4]]
    assert nz_game.result_display == "W+R"  # the result stays unless the ruling names one


def test_an_illegal_move_without_a_record_is_a_forfeit_for_the_offender(
    api_as, nz_game, alice, bob, referee
):
    games.game_result_submit(actor=bob.user, game=nz_game, result="W+R")
    dispute = open_(api_as(alice), nz_game, kind="illegal-move", claim="He moved a stone").json()
    assert (
        rule(
            api_as(referee),
            dispute["id"],
            decision="upheld",
            reasons="Moved a stone; the board cannot be restored.",
        ).status_code
        == 201
    )
    nz_game.refresh_from_db()
    assert nz_game.result_display == "B+F"
    entry = AuditEntry.objects.get(action="game.result_ruled")
    assert (entry.old_value["result"], entry.new_value["result"]) == ("W+R", "B+F")


def test_upheld_dead_stones_are_played_out_owner_first_and_the_game_is_scored_again(
    api_as, nz_game, alice, bob, referee
):
    record = sgf(*DEAD)
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="W+9", sgf=record, dead_stones=["B5"]
    )
    dispute = open_(api_as(bob), nz_game, kind="dead-stones", claim="B5 lives").json()
    assert dispute["evidence"]["owner"] == "W" and dispute["evidence"]["stones"] == ["B5"]
    response = rule(
        api_as(referee), dispute["id"], decision="upheld", reasons="Played out.", moves=PLAY_OUT
    )
    assert response.status_code == 201, response.content
    nz_game.refresh_from_db()
    colours = ["W", "B"] * 5
    from games.engine.coords import parse_point

    continuation = [
        (c, None if m == "pass" else parse_point(m, 9))
        for c, m in zip(colours, PLAY_OUT, strict=True)
    ]
    # Black was to move: his pass comes first, then White (the owner) plays out.
    assert moves_of(nz_game.sgf) == [*moves_of(record), ("B", None), *continuation]
    final = replay(parse_record(nz_game.sgf), get_rules("nz"), strict=False)
    assert final.board.get(parse_point("B5", 9)) is None  # captured in the continuation
    expected = score(final, komi=Decimal(7)).result.to_sgf()
    assert nz_game.result_display == expected == "W+7" and nz_game.dead_stones == []
    assert response.json()["rulings"][0]["moves"] == PLAY_OUT


def test_a_continuation_with_an_illegal_move_is_refused(api_as, nz_game, alice, bob, referee):
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="W+9", sgf=sgf(*DEAD), dead_stones=["B5"]
    )
    dispute = open_(api_as(bob), nz_game, kind="dead-stones").json()
    response = rule(api_as(referee), dispute["id"], decision="upheld", reasons="x", moves=["D5"])
    assert "continuation is illegal" in assert_error(response, 400, "moves")["message"]


def test_a_result_dispute_shows_the_count_and_the_referee_rules_the_result(
    api_as, nz_game, alice, bob, referee
):
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="B+3", sgf=sgf(*DEAD), dead_stones=["B5"]
    )
    dispute = open_(api_as(bob), nz_game, kind="result", claim="Miscounted").json()
    assert dispute["evidence"]["count"]["result"] == "W+7"
    assert (
        rule(
            api_as(referee), dispute["id"], decision="upheld", reasons="Recounted", result="W+7"
        ).status_code
        == 201
    )
    nz_game.refresh_from_db()
    assert nz_game.result_display == "W+7" and nz_game.result_submitted_by is None


def test_time_resignation_and_conduct_rulings_set_the_result(api_as, nz_game, alice, bob, referee):
    for kind, result in (("time", "W+T"), ("resignation", "B+R"), ("conduct", "B+F")):
        dispute = open_(api_as(alice), nz_game, kind=kind, claim=kind).json()
        assert (
            rule(
                api_as(referee), dispute["id"], decision="upheld", reasons="Seen.", result=result
            ).status_code
            == 201
        )
        assert close(api_as(referee), dispute["id"]).status_code == 200
        nz_game.refresh_from_db()
        assert nz_game.result_display == result and nz_game.state == GameState.SUBMITTED


def test_a_polite_resignation_is_ruled_a_win_by_resignation(api_as, nz_game, alice, bob, referee):
    claim = "White put one of her captured stones on the board (WGA 9x9 rules)"
    dispute = open_(api_as(alice), nz_game, kind="resignation", claim=claim).json()
    rule(
        api_as(referee),
        dispute["id"],
        decision="upheld",
        reasons="Polite resignation",
        result="B+R",
    )
    nz_game.refresh_from_db()
    assert nz_game.result_display == "B+R"


def test_a_dismissed_claim_leaves_result_and_record_and_the_opponent_may_confirm(
    api_as, nz_game, alice, bob, referee
):
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R", sgf=sgf(*KO[:3]))
    before = Game.objects.values("sgf", "result_winner", "result_reason").get(pk=nz_game.pk)
    dispute = open_(api_as(bob), nz_game, kind="other", claim="?").json()
    assert (
        rule(api_as(referee), dispute["id"], decision="dismissed", reasons="No grounds").status_code
        == 201
    )
    assert close(api_as(referee), dispute["id"]).status_code == 200
    assert Game.objects.values("sgf", "result_winner", "result_reason").get(pk=nz_game.pk) == before
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.SUBMITTED and nz_game.result_submitted_by_id == alice.pk
    games.game_result_confirm(actor=bob.user, game=nz_game)
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.CONFIRMED


def test_an_automatic_result_dispute_is_idempotent_and_never_opens_on_a_locked_game(
    nz_game, alice, bob, director
):
    from referee.services import dispute_open_automatic

    games.game_result_submit(actor=alice.user, game=nz_game, result="B+3", sgf=sgf(*DEAD))
    first = dispute_open_automatic(game=nz_game, claim="re-score W+16", evidence={"count": 1})
    again = dispute_open_automatic(game=nz_game, claim="re-score W+16", evidence={"count": 1})
    assert first is not None and again == first and first.raised_by is None
    assert Dispute.objects.filter(state=DisputeState.OPEN).count() == 1
    # A locked game: nothing opens, the mismatch is noted.
    locked = tournament_services.game_create(
        actor=None, tournament=nz_game.tournament, round_number=2, black=alice, white=bob
    )
    games.game_result_enter(actor=director, game=locked, result="B+3")
    games.game_finalise(actor=director, game=locked)
    assert dispute_open_automatic(game=locked, claim="re-score W+16", evidence={"x": 1}) is None
    entry = AuditEntry.objects.get(action="dispute.not_opened_locked")
    assert entry.object_id == str(locked.pk) and entry.new_value["claim"] == "re-score W+16"
