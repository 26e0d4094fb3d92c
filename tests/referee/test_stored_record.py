"""A dispute rules on the game's stored record: a different record attached to the claim
is kept as evidence and shown as a diff, never stored in the game's place."""

from __future__ import annotations

from typing import Any

from django.test import Client

from games import services as games
from tests.referee.conftest import sgf
from tests.referee.test_kinds import KO, moves_of, open_, rule

# The claimant's own version: the same ko, but an invented other game around it.
FORGED = ("B A1", "W B1", "B B2", "W E5", "B A3", "W A2", "B A1")


def test_an_upheld_ruling_keeps_the_stored_record_not_the_claimants(
    api_as: Any, nz_game: Any, alice: Any, bob: Any, referee: Any
) -> None:
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="B+R", sgf=sgf(*KO, "W pass", "B pass")
    )
    nz_game.refresh_from_db()
    stored = nz_game.sgf
    response = open_(
        api_as(bob), nz_game, kind="illegal-move", sgf=sgf(*FORGED), claim="Ko retaken at 7"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["evidence"]["record"] == stored
    assert body["evidence"]["attached_record"] == sgf(*FORGED)
    assert "-4 W J9" in body["evidence"]["attached_diff"]
    assert "+4 W E5" in body["evidence"]["attached_diff"]
    ruled = rule(api_as(referee), body["id"], decision="upheld", reasons="Ko: a pass.")
    assert ruled.status_code == 201, ruled.content
    nz_game.refresh_from_db()
    kept = moves_of(nz_game.sgf)
    assert ("W", moves_of(sgf("W E5"))[0][1]) not in kept  # nothing of the claimant's version
    assert kept[:6] == moves_of(stored)[:6] and kept[6] == ("B", None)


def test_the_dispute_page_shows_the_diff(
    api_as: Any, nz_game: Any, alice: Any, bob: Any, referee: Any
) -> None:
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R", sgf=sgf(*KO))
    pk = open_(api_as(bob), nz_game, kind="result", sgf=sgf(*FORGED), claim="x").json()["id"]
    c = Client()
    c.force_login(referee)
    page = c.get(f"/referee/disputes/{pk}/").content.decode()
    assert 'id="attached-diff"' in page and "+4 W E5" in page


def test_with_no_stored_record_the_attached_one_is_the_record(
    api_as: Any, nz_game: Any, bob: Any
) -> None:
    body = open_(api_as(bob), nz_game, kind="repetition", sgf=sgf(*KO), claim="x").json()
    assert body["evidence"]["record"] == sgf(*KO)
    assert "attached_record" not in body["evidence"]
