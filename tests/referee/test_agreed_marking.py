"""A dead-stone dispute where both players marked the same stones (their count only
contradicts the claim) is ruled with the count of their marking, as a dead-stone
dispute: no change of kind, no play-out (docs/referee.md, "Dead stones not agreed")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from games import services as games
from games import tasks
from games.models import DeadStoneReview, Game, GameState, ScoringRun
from games.services import deadstones
from ops.models import AuditAction, AuditEntry
from referee import services
from referee.models import Dispute
from tests.factories import GameFactory, TournamentFactory
from tests.games.api_helpers import assert_error
from tests.games.rescore_helpers import Broker
from tests.games.test_deadstones import POSITION, TRUTH

CLAIM = "W+30.5"  # no marking of the position gives it


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    b = Broker()
    b.patch(monkeypatch)
    return b


@pytest.fixture
def game(director, referee, alice, bob) -> Game:  # type: ignore[no-untyped-def]
    t = TournamentFactory(name="Nine Stones", rules="chinese", board_size=9)
    t.directors.add(director)
    t.referees.add(referee)
    return GameFactory(tournament=t, black=alice, white=bob, komi=Decimal("8.5"))


def _disputed(game: Game, alice: Any, bob: Any, *, toggle: str = "") -> Dispute:
    """Alice claims W+30.5; the stone removal opens with the estimate C5 H5, which both
    keep (or Bob unmarks ``toggle``), and both agree: a dead-stone dispute."""
    games.game_result_submit(actor=alice.user, game=game, result=CLAIM, sgf=POSITION)
    run = ScoringRun.objects.get(game=game)
    tasks.rescore_game(run.pk)
    assert DeadStoneReview.objects.get(game=game).estimate == ["C5", "H5"]
    if toggle:
        deadstones.dead_stones_toggle(actor=bob.user, game=game, point=toggle)
    deadstones.dead_stones_agree(actor=alice.user, game=game)
    deadstones.dead_stones_agree(actor=bob.user, game=game)
    return Dispute.objects.get(game=game)


def rule(api: Any, dispute: Dispute, **body: Any) -> Any:
    return api.post(f"/api/v1/disputes/{dispute.pk}/rulings/", body, format="json")


def test_the_referee_rules_the_count_of_the_agreed_marking_through_the_api(
    api_as, game, alice, bob, referee, broker
):
    dispute = _disputed(game, alice, bob)
    assert dispute.kind == "dead-stones"
    record = Game.objects.get(pk=game.pk).sgf
    response = rule(api_as(referee), dispute, decision="upheld", reasons="They agree on C5 H5")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "dead-stones" and body["state"] == "ruled"
    assert body["rulings"][0]["result"] == TRUTH and body["rulings"][0]["moves"] == []
    ruled = Game.objects.get(pk=game.pk)
    assert ruled.result_display == TRUTH and ruled.dead_stones == ["C5", "H5"]
    assert ruled.sgf == record  # nothing was played out
    entry = AuditEntry.objects.get(action=AuditAction.GAME_RESULT_RULED)
    assert entry.old_value["result"] == CLAIM and entry.new_value["result"] == TRUTH
    assert entry.new_value["dead_stones"] == ["C5", "H5"]
    assert AuditEntry.objects.filter(action=AuditAction.DISPUTE_KIND_CHANGED).count() == 0


def test_both_accepting_the_count_makes_it_final(
    api_as, game, alice, bob, referee, director, chief, broker
):
    # With a chief referee to appeal to, the first acceptance leaves the other his appeal.
    services.tournament_officials_set(
        actor=director, tournament=game.tournament, chief_referee=chief, committee=[]
    )
    dispute = _disputed(game, alice, bob)
    rule(api_as(referee), dispute, decision="upheld", reasons="The agreed marking")
    for party in (alice, bob):
        api_as(party).post(f"/api/v1/disputes/{dispute.pk}/accept/")
    final = Game.objects.get(pk=game.pk)
    assert (final.state, final.result_display) == (GameState.FINAL, TRUTH)


def test_a_named_result_other_than_the_count_is_refused_naming_it(
    api_as, game, alice, bob, referee, broker
):
    dispute = _disputed(game, alice, bob)
    body = assert_error(
        rule(api_as(referee), dispute, decision="upheld", reasons="x", result="W+2.5"),
        400,
        "result",
    )
    assert TRUTH in str(body["extra"])
    assert Game.objects.get(pk=game.pk).result_display == CLAIM
    response = rule(api_as(referee), dispute, decision="upheld", reasons="x", result=TRUTH)
    assert response.status_code == 201


def test_different_markings_still_need_the_moves_played_out(
    api_as, game, alice, bob, referee, broker
):
    dispute = _disputed(game, alice, bob, toggle="H5")
    body = assert_error(rule(api_as(referee), dispute, decision="upheld", reasons="x"), 400)
    assert "moves" in str(body["extra"])
    assert Game.objects.get(pk=game.pk).state == GameState.DISPUTED


def test_a_dismissal_keeps_the_claim(api_as, game, alice, bob, referee, broker):
    dispute = _disputed(game, alice, bob)
    response = rule(api_as(referee), dispute, decision="dismissed", reasons="The claim stands")
    assert response.status_code == 201
    assert Game.objects.get(pk=game.pk).result_display == CLAIM


def test_the_desk_says_what_the_count_is_and_rules_it_without_moves(
    client, game, alice, bob, referee, broker
):
    dispute = _disputed(game, alice, bob)
    client.force_login(referee)
    page = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert f"the count with the stones both players marked dead, {TRUTH}" in page
    assert (
        f"Both players marked the same stones dead: only the count is in doubt, and it is {TRUTH}."
        in page
    )
    assert (
        f"Leave empty to rule the count with the stones both players marked dead (C5 H5): {TRUTH}."
        in page
    )
    response = client.post(
        reverse("referee:dispute-rule", args=[dispute.pk]),
        {"decision": "upheld", "reasons": "Both marked C5 and H5", "moves": ""},
    )
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).result_display == TRUTH
    assert Dispute.objects.get(pk=dispute.pk).kind == "dead-stones"
