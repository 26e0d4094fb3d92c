"""Rulings that say what they do: each level's form names the result each choice leads
to, in words that cannot be read the other way."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.services import game_result_submit
from referee import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def dispute(nz_game, alice, bob):  # type: ignore[no-untyped-def]
    """Bob reported W+R; Alice claims she won on time."""
    game_result_submit(actor=bob.user, game=nz_game, result="W+R")
    return services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")


def choices(user, dispute):  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    page = client.get(reverse("referee:dispute", args=[dispute.pk]))
    assert page.status_code == 200
    return dict(page.context["form"].fields["decision"].choices)


def test_the_referee_reads_what_each_choice_does(dispute, referee):
    words = choices(referee, dispute)
    assert words["upheld"].startswith("Uphold the claim (alice's, time)")
    assert "the result you name below (now W+R)" in words["upheld"]
    assert words["dismissed"] == "Dismiss the claim (alice's, time): the result stays W+R."


def test_the_chief_reads_keep_or_reverse_after_an_upheld_ruling(dispute, referee, chief, bob):
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Flag fell", result="B+T"
    )
    services.dispute_appeal(actor=bob.user, dispute=dispute, reason="My flag had not fallen")
    words = choices(chief, dispute)
    assert "as the referee did: keep B+T (the referee's ruling)" in words["upheld"]
    assert words["dismissed"].endswith(
        "reversing the referee: back to W+R, the result before the dispute."
    )
    # What the words say is what the ruling does.
    dispute.refresh_from_db()
    services.dispute_rule(actor=chief, dispute=dispute, decision="dismissed", reasons="No flag")
    dispute.game.refresh_from_db()
    assert dispute.game.result_display == "W+R"


def test_after_a_dismissal_the_appeal_level_reads_keep_or_reverse(dispute, referee, chief, alice):
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No flag")
    services.dispute_appeal(actor=alice.user, dispute=dispute, reason="It fell")
    words = choices(chief, dispute)
    assert "as the referee did: keep W+R" in words["dismissed"]
    assert words["upheld"].startswith("Uphold the claim (alice's, time), reversing the referee")


def test_after_the_ruling_the_page_words_the_present_not_the_form(dispute, referee):
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Flag fell", result="B+T"
    )
    client = Client()
    client.force_login(referee)
    page = client.get(reverse("referee:dispute", args=[dispute.pk]))
    body = page.content.decode()
    # No form comparing with the result before the dispute ("the result stays W+R").
    assert page.context["form"] is None and "the result stays" not in body
    assert (
        "The referee has ruled: the result is now <strong>Black wins on time (B+T)</strong>" in body
    )


def test_a_dispute_without_a_record_draws_no_board(dispute, referee):
    client = Client()
    client.force_login(referee)
    body = client.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "<svg" not in body and "No game record." in body
