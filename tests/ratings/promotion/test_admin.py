"""Promotions in the admin: a policy with a bad parameter is refused with the engine's
message; candidates approved in bulk, rejected with a reason, decided one at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from ops.models import AuditEntry
from ratings.models import CandidateState, PromotionCandidate, PromotionPolicy
from ratings.promotion.evaluation import promotions_evaluate
from ratings.recompute import recompute
from tests.ratings.helpers import add_games, close, players

pytestmark = pytest.mark.django_db
POLICIES = "/admin/ratings/promotionpolicy/"
CANDIDATES = "/admin/ratings/promotioncandidate/"


@pytest.fixture
def two_candidates(alice: Any, bob: Any, tournament: Any, strong_trio: list[Any]) -> list[Any]:
    add_games(tournament, [(alice, p, "B", 0) for p in strong_trio])
    add_games(tournament, [(bob, p, "B", 0) for p in players(1, 1, 1)])
    close(tournament)
    recompute()
    promotions_evaluate()
    return list(PromotionCandidate.objects.order_by("id"))


def test_a_policy_with_a_bad_parameter_is_refused_with_its_message(
    client: Any, staff_director: Any
) -> None:
    client.force_login(staff_director)
    params = {"bands": {"kyu": {"criteria": [{"type": "wins_at_rank", "wins": 5, "window": 3}]}}}
    r = client.post(f"{POLICIES}add/", {"name": "Bad", "params": json.dumps(params)})
    assert r.status_code == 200
    assert (
        "bands.kyu.criteria[0].wins_at_rank.window: must be at least wins (5)" in r.content.decode()
    )
    assert PromotionPolicy.objects.count() == 1
    broken = client.post(f"{POLICIES}add/", {"name": "Bad", "params": "{not json"})
    assert broken.status_code == 200 and "Enter a valid JSON" in broken.content.decode()


def test_a_policy_is_shown_as_pretty_json_and_put_in_force_from_the_admin(
    client: Any, staff_director: Any
) -> None:
    client.force_login(staff_director)
    default = PromotionPolicy.objects.get()
    page = client.get(f"{POLICIES}{default.pk}/change/").content.decode()
    assert "\n  &quot;version&quot;: 1," in page
    r = client.post(
        f"{POLICIES}add/",
        {"name": "Strict", "params": '{"max_grades_per_event": 1}', "make_active": "on"},
    )
    assert r.status_code == 302
    assert PromotionPolicy.objects.get(active=True).name == "Strict"
    assert AuditEntry.objects.filter(action="promotion_policy.activated").exists()


def test_a_tournament_director_in_the_admin_cannot_set_the_default(
    client: Any, director: Any, tournament: Any
) -> None:
    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=director)
    director.groups.clear()  # staff who directs a tournament, not a federation director
    from django.contrib.auth.models import Permission

    director.user_permissions.add(*Permission.objects.filter(codename__endswith="promotionpolicy"))
    client.force_login(director)
    r = client.post(f"{POLICIES}add/", {"name": "Mine", "params": "{}"})
    assert r.status_code == 200 and "This field is required" in r.content.decode()
    ok = client.post(
        f"{POLICIES}add/", {"name": "Ours", "params": "{}", "tournament": tournament.pk}
    )
    assert ok.status_code == 302
    assert PromotionPolicy.objects.filter(tournament=tournament).exists()


def test_bulk_approve_from_the_changelist(
    client: Any, staff_director: Any, two_candidates: list[Any], alice: Any, bob: Any
) -> None:
    client.force_login(staff_director)
    r = client.post(
        CANDIDATES,
        {"action": "approve_selected", ACTION_CHECKBOX_NAME: [c.pk for c in two_candidates]},
        follow=True,
    )
    assert "2 candidate(s) approved" in r.content.decode()
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (str(alice.rank), str(bob.rank)) == ("2k", "1k")
    assert AuditEntry.objects.filter(action="player.promoted").count() == 2


def test_bulk_reject_asks_for_a_reason(
    client: Any, staff_director: Any, two_candidates: list[Any]
) -> None:
    client.force_login(staff_director)
    ids = [c.pk for c in two_candidates]
    ask = client.post(CANDIDATES, {"action": "reject_selected", ACTION_CHECKBOX_NAME: ids})
    assert ask.status_code == 200 and "Reject these promotion candidates" in ask.content.decode()
    r = client.post(
        CANDIDATES,
        {"action": "reject_selected", ACTION_CHECKBOX_NAME: ids, "reason": "Not at this event"},
        follow=True,
    )
    assert "2 candidate(s) rejected" in r.content.decode()
    assert set(PromotionCandidate.objects.values_list("state", flat=True)) == {"rejected"}
    assert AuditEntry.objects.filter(action="promotion.rejected").count() == 2


def test_one_candidate_is_decided_on_its_page(
    client: Any, staff_director: Any, two_candidates: list[Any]
) -> None:
    client.force_login(staff_director)
    first, second = two_candidates
    page = client.get(f"{CANDIDATES}{first.pk}/decide/").content.decode()
    assert first.evidence["detail"] in page.replace("&#x27;", "'")
    client.post(f"{CANDIDATES}{first.pk}/decide/", {"approve": "Approve"})
    client.post(f"{CANDIDATES}{second.pk}/decide/", {"reject": "Reject", "reason": "Wait"})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, second.state) == (CandidateState.APPROVED, CandidateState.REJECTED)


def test_a_director_sees_only_his_tournaments_candidates_in_the_admin(
    client: Any, other_director: Any, two_candidates: list[Any]
) -> None:
    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=other_director)
    other_director.groups.clear()
    from django.contrib.auth.models import Permission

    other_director.user_permissions.add(
        *Permission.objects.filter(codename__endswith="promotioncandidate")
    )
    client.force_login(other_director)
    assert client.get(f"{CANDIDATES}{two_candidates[0].pk}/decide/").status_code == 404
    r = client.post(
        CANDIDATES,
        {"action": "approve_selected", ACTION_CHECKBOX_NAME: [c.pk for c in two_candidates]},
    )
    assert set(PromotionCandidate.objects.values_list("state", flat=True)) == {"pending"}
    assert r.status_code in (200, 302)
