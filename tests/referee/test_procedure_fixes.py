"""The dispute procedure where it used to go wrong: the move an automatic dispute is
about, the committee's last word, an appeal ruling that names no result, the play-out
a ruling appends, and a contested result reaching the referee desk."""

from __future__ import annotations

from typing import Any

import pytest

from games import services as games
from games import tasks
from games.models import GameState, ScoringRun
from games.services import scoring_worker
from ops.models import AuditEntry
from ops.services import StateConflict
from referee import selectors, services
from referee.models import Dispute, DisputeState
from tests.games.api_helpers import assert_error
from tests.games.rescore_helpers import Broker
from tests.referee.conftest import sgf
from tests.referee.test_kinds import DEAD, PLAY_OUT, moves_of, open_

# Move 7 retakes the ko at once; play went on for four more moves after it.
KO_THEN_MORE = (
    "B A1",
    "W B1",
    "B B2",
    "W J9",
    "B A3",
    "W A2",
    "B A1",
    "W E5",
    "B F5",
    "W E6",
    "B F6",
)


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    b = Broker()
    b.patch(monkeypatch)
    return b


def rescore(game: Any) -> ScoringRun:
    run = ScoringRun.objects.get(game=game)
    tasks.rescore_game(run.pk)
    run.refresh_from_db()
    return run


def test_an_automatic_dispute_names_the_illegal_move_and_the_ruling_passes_that_move_only(
    nz_game, alice, referee, broker
):
    record = sgf(*KO_THEN_MORE)
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R", sgf=record)
    run = rescore(nz_game)
    assert run.first_illegal["number"] == 7
    dispute = Dispute.objects.get(game=nz_game)
    assert dispute.raised_by is None and dispute.move_number == 7
    services.dispute_rule(actor=referee, dispute=dispute, decision="upheld", reasons="Ko.")
    nz_game.refresh_from_db()
    played = moves_of(record)
    # The retake becomes Black's pass; White's and Black's later moves stay.
    assert moves_of(nz_game.sgf) == [*played[:6], ("B", None), *played[7:]]


def test_later_moves_are_kept_only_while_they_stay_legal(nz_game, alice, referee):
    # Move 4 (White on E5) is on an occupied point; Black's move 5 on D4 stays, then
    # White's move 6 retakes a point that is no longer free once move 4 is a pass.
    record = sgf("B E5", "W C3", "B G7", "W E5", "B D4", "W D4", "B C4")
    games.game_result_submit(actor=alice.user, game=nz_game, result="W+R", sgf=record)
    dispute = services.dispute_open(
        actor=alice.user, game=nz_game, kind="illegal-move", claim="E5 was occupied"
    )
    assert dispute.move_number == 4
    services.dispute_rule(actor=referee, dispute=dispute, decision="upheld", reasons="Occupied.")
    nz_game.refresh_from_db()
    played = moves_of(record)
    assert moves_of(nz_game.sgf) == [*played[:3], ("W", None), played[4]]


def _to_committee(nz_game: Any, alice: Any, bob: Any, referee: Any, chief: Any) -> Dispute:
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    dispute = services.dispute_open(actor=bob.user, game=nz_game, kind="time", claim="Flag fell")
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Flag", result="W+T"
    )
    dispute = services.dispute_appeal(actor=alice.user, dispute=dispute, reason="Faulty clock")
    services.dispute_rule(actor=chief, dispute=dispute, decision="upheld", reasons="It fell")
    return services.dispute_appeal(actor=alice.user, dispute=dispute, reason="Still faulty")


def test_the_committees_ruling_is_final_and_nothing_reopens_the_game(
    api_as, nz_game, alice, bob, referee, chief, members
):
    dispute = _to_committee(nz_game, alice, bob, referee, chief)
    for member in members[:2]:
        services.dispute_rule(
            actor=member, dispute=dispute, decision="upheld", reasons="Fell", result="W+T"
        )
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.FINAL and nz_game.result_display == "W+T"
    response = api_as(alice).post(
        f"/api/v1/games/{nz_game.pk}/result/", {"result": "B+R"}, format="json"
    )
    assert "committee's ruling is final" in assert_error(response, 409)["message"]
    response = open_(api_as(alice), nz_game, kind="other", claim="Once more")
    assert "committee's ruling is final" in assert_error(response, 409)["message"]
    # The ruling is the committee's, not the member's whose vote made the majority.
    ruling = dispute.rulings.get(level=3)
    assert ruling.decided_by is None and len(ruling.votes) == 2


def test_an_upheld_appeal_without_a_result_keeps_the_standing_result(
    client, nz_game, alice, bob, referee, chief
):
    record = sgf("B E5", "W C3", "B G7", "W E5", "B D4")
    games.game_result_submit(actor=bob.user, game=nz_game, result="W+R", sgf=record)
    dispute = services.dispute_open(
        actor=alice.user, game=nz_game, kind="illegal-move", claim="E5 was occupied"
    )
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Forfeit", result="B+F"
    )
    dispute = services.dispute_appeal(actor=bob.user, dispute=dispute, reason="Too harsh")
    # The form the chief referee sees offers the standing result.
    client.force_login(chief)
    form = client.get(f"/referee/disputes/{dispute.pk}/").context["form"]
    assert form.initial.get("result") == "B+F"
    services.dispute_rule(
        actor=chief, dispute=dispute, decision="upheld", reasons="The referee's ruling stands."
    )
    nz_game.refresh_from_db()
    assert nz_game.result_display == "B+F"


def test_the_play_out_a_dead_stone_ruling_appends_is_legal(nz_game, alice, bob, referee, broker):
    record = sgf(*DEAD)
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="W+9", sgf=record, dead_stones=["B5"]
    )
    ScoringRun.objects.all().delete()  # the submission's own check is not the point here
    dispute = services.dispute_open(actor=bob.user, game=nz_game, kind="dead-stones", claim="B5")
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Played out.", moves=PLAY_OUT
    )
    nz_game.refresh_from_db()
    outcome = scoring_worker.compute(nz_game)
    assert outcome.first_illegal is None and outcome.computed_result == nz_game.result_display


def test_a_contest_opens_a_result_dispute_on_the_desk_with_the_reason(nz_game, alice, bob, referee):
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    games.game_result_contest(actor=bob.user, game=nz_game, reason="I never resigned")
    dispute = Dispute.objects.get(game=nz_game)
    assert dispute.kind == "result" and dispute.claim == "I never resigned"
    assert dispute.raised_by == bob.user and dispute.state == DisputeState.OPEN
    assert dispute.evidence["game"]["state"] == "submitted"
    assert list(selectors.dispute_queue(user=referee)) == [dispute]
    # The referee makes it a conduct dispute; the change is in the trail.
    services.dispute_kind_set(actor=referee, dispute=dispute, kind="conduct")
    dispute.refresh_from_db()
    assert dispute.kind == "conduct"
    entry = AuditEntry.objects.get(action="dispute.kind_changed")
    assert (entry.old_value, entry.new_value) == ({"kind": "result"}, {"kind": "conduct"})
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No.")
    with pytest.raises(StateConflict):  # once ruled, the kind is what was ruled on
        services.dispute_kind_set(actor=referee, dispute=dispute, kind="result")
