"""Appeals (WMSG 2008 rules, Appendix 1, item 10): referee, then chief referee, then the committee by majority."""

from __future__ import annotations

from games import services as games
from games.models import GameState
from ops.models import AuditEntry
from referee.models import CommitteeVote, DisputeState
from tests.games.api_helpers import assert_error
from tests.referee.test_kinds import open_, rule


def appeal(api, dispute_id):  # type: ignore[no-untyped-def]
    return api.post(f"/api/v1/disputes/{dispute_id}/appeal/", {"reason": "Wrong"}, format="json")


def test_an_appeal_chain_of_three_levels_ends_with_a_two_to_one_committee_vote(
    api_as, nz_game, alice, bob, referee, chief, members
):
    games.game_result_submit(actor=alice.user, game=nz_game, result="B+R")
    dispute = open_(api_as(bob), nz_game, kind="time", claim="Black's flag fell").json()
    pk = dispute["id"]
    # Level 1: the referee upholds, White wins on time.
    assert (
        rule(api_as(referee), pk, decision="upheld", reasons="Flag", result="W+T").status_code
        == 201
    )
    nz_game.refresh_from_db()
    assert nz_game.result_display == "W+T"
    # Alice appeals; the chief referee dismisses the claim: back to the submitted result.
    assert appeal(api_as(alice), pk).json()["state"] == "appealed"
    assert_error(appeal(api_as(alice), pk), 409)  # once per level
    assert rule(api_as(chief), pk, decision="dismissed", reasons="Clock fault").status_code == 201
    nz_game.refresh_from_db()
    assert nz_game.result_display == "B+R"
    # Bob appeals to the committee: upheld, dismissed, upheld.
    assert appeal(api_as(bob), pk).json()["level"] == 3
    first = rule(api_as(members[0]), pk, decision="upheld", reasons="Flag fell", result="W+T")
    assert first.status_code == 202 and first.json()["state"] == "appealed"
    second = rule(api_as(members[1]), pk, decision="dismissed", reasons="Clock fault")
    assert second.status_code == 202
    third = rule(api_as(members[2]), pk, decision="upheld", reasons="Flag fell", result="W+T")
    assert third.status_code == 201, third.content
    body = third.json()
    assert [r["level"] for r in body["rulings"]] == [1, 2, 3]
    assert [r["decision"] for r in body["rulings"]] == ["upheld", "dismissed", "upheld"]
    votes = body["rulings"][2]["votes"]
    assert sorted(v["decision"] for v in votes) == ["dismissed", "upheld", "upheld"]
    # The last ruling stands and is final: closed, and the game's result locked.
    assert body["state"] == "closed"
    nz_game.refresh_from_db()
    assert nz_game.result_display == "W+T" and nz_game.state == GameState.FINAL
    assert nz_game.result_submitted_by is None
    assert_error(appeal(api_as(bob), pk), 409)
    actions = list(
        AuditEntry.objects.filter(object_type="referee.dispute")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "dispute.opened",
        "dispute.ruled",
        "dispute.appealed",
        "dispute.ruled",
        "dispute.appealed",
        "dispute.vote",
        "dispute.vote",
        "dispute.vote",
        "dispute.ruled",
        "dispute.closed",
    ]
    changes = AuditEntry.objects.filter(action="game.result_ruled").order_by("id")
    assert [(e.old_value["result"], e.new_value["result"]) for e in changes] == [
        ("B+R", "W+T"),
        ("W+T", "B+R"),
        ("B+R", "W+T"),
    ]


def test_a_committee_member_votes_once_and_a_two_nil_majority_decides_at_once(
    api_as, nz_game, alice, bob, referee, chief, members
):
    pk = open_(api_as(alice), nz_game, kind="conduct", claim="Phone rang").json()["id"]
    rule(api_as(referee), pk, decision="dismissed", reasons="No")
    appeal(api_as(alice), pk)
    rule(api_as(chief), pk, decision="dismissed", reasons="No")
    appeal(api_as(alice), pk)
    rule(api_as(members[0]), pk, decision="upheld", reasons="Yes", result="B+F")
    assert_error(
        rule(api_as(members[0]), pk, decision="upheld", reasons="Again", result="B+F"), 409
    )
    response = rule(api_as(members[1]), pk, decision="upheld", reasons="Yes", result="B+F")
    assert response.status_code == 201 and response.json()["state"] == "closed"
    assert_error(rule(api_as(members[2]), pk, decision="dismissed", reasons="Late"), 409)
    assert CommitteeVote.objects.count() == 2
    nz_game.refresh_from_db()
    assert nz_game.result_display == "B+F"


def test_without_a_chief_referee_there_is_no_appeal(api_as, game, alice, bob, referee):
    pk = open_(api_as(alice), game, kind="other", claim="x").json()["id"]
    rule(api_as(referee), pk, decision="dismissed", reasons="No")
    body = assert_error(appeal(api_as(alice), pk), 409)
    assert "no chief referee" in body["message"]


def test_a_ruled_dispute_that_nobody_appeals_is_closed_by_an_official(
    api_as, nz_game, alice, bob, referee, director
):
    pk = open_(api_as(alice), nz_game, kind="other", claim="x").json()["id"]
    assert_error(api_as(director).post(f"/api/v1/disputes/{pk}/close/"), 409)  # not ruled yet
    rule(api_as(referee), pk, decision="dismissed", reasons="No")
    assert_error(api_as(alice).post(f"/api/v1/disputes/{pk}/close/"), 403)
    response = api_as(director).post(f"/api/v1/disputes/{pk}/close/")
    assert response.status_code == 200 and response.json()["state"] == DisputeState.CLOSED
