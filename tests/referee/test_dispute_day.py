"""The browser journey of tests/browser/test_dispute_day.py through the pages with
Django's client (it runs where no Chromium is installed): a slip-code contest, the
director's finalise, the referee's ruling, an appeal from the slip, the chief's ruling,
both acceptances from the slips, and the close only then."""

from __future__ import annotations

from typing import Any

from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameState, Tournament
from games.services.codes import report_code
from games.services.results import current_claim
from games.tournament import services as tournament_services
from referee.models import Dispute, DisputeState
from tests.factories import PlayerFactory, enter


def said(response: Any) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def as_user(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_day_waits_for_the_referee(
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
    slips = {
        p.pk: reverse(
            "games:report", kwargs={"game_id": nz_game.pk, "code": report_code(nz_game, p.pk)}
        )
        for p in (alice, bob)
    }
    phone = Client()
    phone.post(slips[alice.pk], {"action": "report", "result": "B+R"})
    claim = current_claim(Game.objects.get(pk=nz_game.pk))
    phone.post(slips[bob.pk], {"action": "contest", "claim": claim, "reason": "Flag"})

    desk = as_user(director)
    results = f"/tournaments/{nz.pk}/rounds/1/results/"
    desk.post(results, {"game": other.pk, "result": "W+", "seen": ""})
    done = desk.post(results, {"action": "finalise"})
    assert "1 result(s) of round 1 are final." in said(done)
    assert "under an open dispute" in said(done)
    refused = desk.post(f"/tournaments/{nz.pk}/close/")
    assert "under an open dispute" in said(refused)

    dispute = Dispute.objects.get(game=nz_game)
    url = f"/referee/disputes/{dispute.pk}/rule/"
    ruled = as_user(referee).post(url, {"decision": "upheld", "result": "W+T", "reasons": "Flag"})
    assert ruled.status_code == 302, ruled.content.decode()[:2000]
    for slip in slips.values():
        body = phone.get(slip).content.decode()
        assert "The referee upheld the claim." in body and "White wins on time" in body

    phone.post(slips[alice.pk], {"action": "appeal", "reason": "I resigned first"})
    assert Dispute.objects.get(pk=dispute.pk).state == DisputeState.APPEALED
    as_user(chief).post(url, {"decision": "dismissed", "reasons": "Resigned first"})
    for slip in slips.values():
        assert "The chief referee dismissed the claim." in phone.get(slip).content.decode()
        phone.post(slip, {"action": "accept"})
    game = Game.objects.get(pk=nz_game.pk)
    assert game.state == GameState.FINAL and game.result_display == "B+R"

    closed = desk.post(f"/tournaments/{nz.pk}/close/")
    assert "The tournament is closed" in said(closed)
    assert Tournament.objects.get(pk=nz.pk).closed_at is not None
