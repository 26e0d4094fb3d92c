"""Rulings reach the players where they are: after a ruling both slip-code pages show the
decision in words, the result and the reasons, and each code holder accepts it or
appeals it (to the chief referee, within the appeal window, with his reason) without
an account; the appeal and its outcome show there too."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Game, GameState
from games.services.codes import report_code
from ops.models import AuditAction, AuditEntry
from referee import services as referee_services
from referee.models import Dispute, DisputeState, RulingAcceptance

PHONE = {"HTTP_USER_AGENT": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile"}


def slip(game: Game, player: Any) -> str:
    code = report_code(game, player.pk)
    return reverse("games:report", kwargs={"game_id": game.pk, "code": code})


def phone() -> Client:
    return Client(REMOTE_ADDR="198.51.100.9", **PHONE)


@pytest.fixture
def contested(nz_game: Game, alice: Any, bob: Any) -> Dispute:
    """Alice reports B+R from her slip, Bob contests it from his."""
    c = phone()
    c.post(slip(nz_game, alice), {"action": "report", "result": "B+R"})
    claim = games.results.current_claim(Game.objects.get(pk=nz_game.pk))
    c.post(slip(nz_game, bob), {"action": "contest", "claim": claim, "reason": "I lost on time?"})
    return Dispute.objects.get(game=nz_game)


@pytest.fixture
def ruled(contested: Dispute, referee: Any) -> Dispute:
    return referee_services.dispute_rule(
        actor=referee,
        dispute=contested,
        decision="upheld",
        reasons="White's flag fell before the resignation",
        result="B+T",
    )


def test_both_slip_pages_show_the_ruling_in_words(
    ruled: Dispute, nz_game: Game, alice: Any, bob: Any
) -> None:
    for player in (alice, bob):
        body = phone().get(slip(nz_game, player)).content.decode()
        assert "The referee upheld the claim." in body
        assert "<strong>Black wins on time</strong> (B+T)" in body
        assert "Reasons: White&#x27;s flag fell before the resignation" in body
        assert "Accept the ruling" in body and "Appeal to the chief referee" in body
        assert "disputed: a referee or a director" not in body  # not the stale sentence


def test_before_the_ruling_the_page_says_who_rules(
    contested: Dispute, nz_game: Game, alice: Any
) -> None:
    body = phone().get(slip(nz_game, alice)).content.decode()
    assert "The referee rules next" in body and "Accept the ruling" not in body


def test_a_code_holder_accepts_without_an_account(
    ruled: Dispute, nz_game: Game, alice: Any, bob: Any
) -> None:
    response = phone().post(slip(nz_game, alice), {"action": "accept"})
    assert response.status_code == 302
    assert RulingAcceptance.objects.filter(player=alice).count() == 1
    entry = AuditEntry.objects.get(action=AuditAction.DISPUTE_ACCEPTED)
    assert entry.actor is None and entry.new_value["by_code"] is True
    assert entry.new_value["address"] == "198.51.100.9"
    body = phone().get(slip(nz_game, bob)).content.decode()
    assert "Your opponent accepted this ruling." in body
    # Both accept: the ruled result is final, and both pages still say why.
    phone().post(slip(nz_game, bob), {"action": "accept"})
    nz_game.refresh_from_db()
    assert nz_game.state == GameState.FINAL and nz_game.result_display == "B+T"
    body = phone().get(slip(nz_game, alice)).content.decode()
    assert "The referee upheld the claim." in body and "The dispute is closed." in body


def test_a_code_holder_appeals_with_his_reason_and_sees_the_outcome(
    ruled: Dispute, nz_game: Game, alice: Any, bob: Any, chief: Any
) -> None:
    refused = phone().post(slip(nz_game, alice), {"action": "appeal", "reason": "  "})
    assert refused.status_code == 400 and "Say why you appeal" in refused.content.decode()
    response = phone().post(
        slip(nz_game, alice), {"action": "appeal", "reason": "He resigned first"}
    )
    assert response.status_code == 302
    ruled.refresh_from_db()
    assert ruled.state == DisputeState.APPEALED and ruled.level == 2
    entry = AuditEntry.objects.get(action=AuditAction.DISPUTE_APPEALED)
    assert entry.new_value["player"] == alice.pk and entry.new_value["by_code"] is True
    body = phone().get(slip(nz_game, bob)).content.decode()
    assert "Your opponent appealed to the chief referee: “He resigned first”." in body
    assert "The chief referee rules next" in body
    referee_services.dispute_rule(
        actor=chief, dispute=ruled, decision="dismissed", reasons="Resigned before the flag"
    )
    body = phone().get(slip(nz_game, alice)).content.decode()
    assert "You appealed to the chief referee" in body
    assert "The chief referee dismissed the claim." in body
    assert "<strong>Black wins by resignation</strong> (B+R)" in body


def test_the_appeal_window_closes(ruled: Dispute, nz_game: Game, alice: Any, settings) -> None:
    settings.GOREF_APPEAL_MINUTES = 30
    later = timezone.now() + timedelta(minutes=31)
    with time_machine.travel(later, tick=False):
        body = phone().get(slip(nz_game, alice)).content.decode()
        assert "The time to appeal this ruling has ended." in body
        assert "Appeal to the chief referee" not in body
        response = phone().post(slip(nz_game, alice), {"action": "appeal", "reason": "late"})
        assert response.status_code == 409 and "The time to appeal" in response.content.decode()


def test_a_code_for_another_game_cannot_answer_this_ruling(
    ruled: Dispute, nz_game: Game, alice: Any
) -> None:
    from games.services.codes import CodeHolder

    stranger = CodeHolder(player=alice, game_id=nz_game.pk + 1000, address=None)
    with pytest.raises(Exception, match="another game"):
        referee_services.dispute_accept(actor=stranger, dispute=ruled)


def test_the_desk_offers_the_appeal_until_the_window_closes(
    ruled: Dispute, alice: Any, settings
) -> None:
    settings.GOREF_APPEAL_MINUTES = 30
    client = Client()
    client.force_login(alice.user)
    url = reverse("referee:dispute", args=[ruled.pk])
    body = client.get(url).content.decode()
    assert 'name="appeal"' in body and "until " in body
    with time_machine.travel(timezone.now() + timedelta(minutes=31), tick=False):
        assert 'name="appeal"' not in client.get(url).content.decode()
