"""The promotions API and pages: who sees and decides what (404 vs 403), the error shape,
the certificate, and pinned query counts."""

from __future__ import annotations

from typing import Any

import pytest

from ops.models import AuditEntry
from ratings.models import CandidateState, PromotionCandidate, PromotionPolicy
from ratings.promotion.engine import DEFAULT_POLICY
from ratings.promotion.evaluation import promotions_evaluate
from ratings.recompute import recompute
from tests.factories import PlayerFactory, TournamentFactory
from tests.ratings.helpers import add_games, close, players

pytestmark = pytest.mark.django_db
CANDIDATES = "/api/v1/promotions/candidates/"


@pytest.fixture
def candidate(alice: Any, alice_wins: Any) -> PromotionCandidate:
    recompute()
    promotions_evaluate()
    return PromotionCandidate.objects.get()


def _url(candidate: PromotionCandidate, verb: str = "") -> str:
    return f"{CANDIDATES}{candidate.pk}/" + (f"{verb}/" if verb else "")


# --------------------------------------------------------------------------- who may


def test_anonymous_gets_401_for_candidates(api: Any, candidate: Any) -> None:
    assert api.get(CANDIDATES).status_code == 401
    assert api.post(_url(candidate, "approve")).status_code == 401


def test_outsider_and_another_tournaments_director_get_404(
    api_as: Any, outsider: Any, other_director: Any, candidate: Any
) -> None:
    for user in (outsider, other_director):
        client = api_as(user)
        assert client.get(CANDIDATES).json()["results"] == []
        assert client.get(_url(candidate)).status_code == 404
        r = client.post(_url(candidate, "approve"))
        assert r.status_code == 404 and r.json() == {"message": "Not found.", "extra": {}}
    assert PromotionCandidate.objects.get().state == CandidateState.PENDING


def test_the_player_sees_his_candidate_but_gets_403_deciding_it(
    api_as: Any, alice: Any, candidate: Any
) -> None:
    client = api_as(alice)
    assert [c["id"] for c in client.get(CANDIDATES).json()["results"]] == [candidate.pk]
    assert client.get(_url(candidate)).json()["new_rank"] == "2k"
    r = client.post(_url(candidate, "approve"))
    assert r.status_code == 403 and "decide a candidate" in r.json()["message"]
    assert (
        client.post(_url(candidate, "reject"), {"reason": "no"}, format="json").status_code == 403
    )


def test_the_triggering_tournaments_director_approves(
    api_as: Any, director: Any, alice: Any, candidate: Any
) -> None:
    r = api_as(director).post(_url(candidate, "approve"))
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["state"] == "approved" and body["decided_by"] == "director"
    assert body["rank_change"] is not None
    again = api_as(director).post(_url(candidate, "approve"))
    assert again.status_code == 409 and "already approved" in again.json()["message"]
    alice.refresh_from_db()
    assert str(alice.rank) == "2k"


def test_a_staff_director_sees_and_rejects_any_candidate(
    api_as: Any, staff_director: Any, candidate: Any
) -> None:
    client = api_as(staff_director)
    assert [c["id"] for c in client.get(CANDIDATES, {"state": "pending"}).json()["results"]] == [
        candidate.pk
    ]
    blank = client.post(_url(candidate, "reject"), {"reason": ""}, format="json")
    assert blank.status_code == 400 and blank.json()["extra"]["fields"]["reason"]
    r = client.post(_url(candidate, "reject"), {"reason": "Too early"}, format="json")
    assert r.status_code == 200 and r.json()["state"] == "rejected"
    assert AuditEntry.objects.get(action="promotion.rejected").actor == staff_director
    assert client.get(CANDIDATES, {"state": "pending"}).json()["results"] == []


def test_a_stale_candidate_is_a_409_with_a_clear_message(
    api_as: Any, director: Any, alice: Any, candidate: Any
) -> None:
    api_as(director).patch(f"/api/v1/players/{alice.pk}/", {"rank": "1k"}, format="json")
    r = api_as(director).post(_url(candidate, "approve"))
    assert r.status_code == 409
    assert "rank changed since this candidate was made" in r.json()["message"]


def test_candidate_filters_are_checked(api_as: Any, director: Any, candidate: Any) -> None:
    bad = api_as(director).get(CANDIDATES, {"state": "maybe"})
    assert bad.status_code == 400 and "state" in bad.json()["extra"]["fields"]
    other = TournamentFactory()
    assert api_as(director).get(CANDIDATES, {"tournament": other.pk}).json()["results"] == []
    assert (
        api_as(director)
        .get(CANDIDATES, {"tournament": candidate.trigger_tournament_id})
        .json()["count"]
        == 1
    )


def test_unknown_ids_are_404(api: Any, api_as: Any, director: Any) -> None:
    assert api_as(director).post(f"{CANDIDATES}999999/approve/").status_code == 404
    assert api.get("/api/v1/players/999999/ranks/").status_code == 404
    assert api.get("/ratings/promotions/999999/certificate/").status_code == 404


# --------------------------------------------------------------------------- public pages


def test_the_certificate_is_a_printable_page(
    client: Any, director: Any, alice: Any, candidate: Any
) -> None:
    from ratings.promotion.services import promotion_candidate_approve

    change = promotion_candidate_approve(actor=director, candidate=candidate)
    r = client.get(f"/ratings/promotions/{change.pk}/certificate/")
    page = r.content.decode()
    assert r.status_code == 200 and "@media print" in page
    assert "Liddell Alice" in page and "3k to the rank of" in page and "Wellington Open" in page


def test_a_correction_has_no_certificate_and_is_not_a_public_promotion(
    api: Any, client: Any, director: Any, tournament: Any, alice: Any
) -> None:
    from games.people.services import player_update
    from ratings.models import RankChange

    player_update(actor=director, player=alice, rank="1k")
    change = RankChange.objects.get()
    assert client.get(f"/ratings/promotions/{change.pk}/certificate/").status_code == 404
    assert api.get("/api/v1/promotions/").json()["results"] == []
    assert api.get(f"/api/v1/players/{alice.pk}/ranks/").json()[0]["kind"] == "correction"


def test_the_public_promotions_list_costs_a_fixed_number_of_queries(
    api: Any, client: Any, director: Any, django_assert_num_queries: Any
) -> None:
    from ratings.promotion.services import player_rank_set
    from ratings.ranks import Rank

    for p in players(-10, -9, -8, -7):
        player_rank_set(
            actor=director,
            player=p,
            new_rank=Rank(p.declared_rank + 1),
            kind="promotion",
            tournament=TournamentFactory(),
        )
    with django_assert_num_queries(2):  # count, page
        rows = api.get("/api/v1/promotions/").json()["results"]
    assert len(rows) == 4
    with django_assert_num_queries(1):
        assert client.get("/ratings/promotions/").status_code == 200


def test_the_candidates_list_costs_a_fixed_number_of_queries(
    api_as: Any, staff_director: Any, tournament: Any, django_assert_num_queries: Any
) -> None:
    strong = players(0, 0, 0)
    for _ in range(4):
        kyu = PlayerFactory(declared_rank=-3)
        add_games(tournament, [(kyu, p, "B", 0) for p in strong])
    close(tournament)
    recompute()
    assert promotions_evaluate().created == 4
    client = api_as(staff_director)
    # the federation-director check (groups), count, page
    with django_assert_num_queries(3):
        rows = client.get(CANDIDATES).json()["results"]
    assert len(rows) == 4


# --------------------------------------------------------------------------- policies


def test_policies_are_public_to_read(api: Any) -> None:
    (row,) = api.get("/api/v1/promotions/policies/").json()["results"]
    assert row["active"] and row["tournament"] is None and row["params"] == DEFAULT_POLICY.to_dict()


def test_a_bad_policy_parameter_is_a_400_naming_it(api_as: Any, staff_director: Any) -> None:
    params = {"bands": {"kyu": {"criteria": [{"type": "wins_at_rank", "wins": 5, "window": 3}]}}}
    r = api_as(staff_director).post(
        "/api/v1/promotions/policies/", {"name": "Bad", "params": params}, format="json"
    )
    assert r.status_code == 400
    assert r.json() == {
        "message": "params: bands.kyu.criteria[0].wins_at_rank.window: must be at least wins (5)",
        "extra": {
            "fields": {
                "params": "bands.kyu.criteria[0].wins_at_rank.window: must be at least wins (5)"
            }
        },
    }


def test_a_tournament_director_sets_his_tournaments_policy_only(
    api_as: Any, director: Any, tournament: Any
) -> None:
    client = api_as(director)
    url = "/api/v1/promotions/policies/"
    assert client.post(url, {"name": "Mine", "params": {}}, format="json").status_code == 403
    r = client.post(
        url,
        {"name": "Ours", "tournament": tournament.pk, "params": {}, "active": True},
        format="json",
    )
    assert r.status_code == 201 and r.json()["active"]
    default = PromotionPolicy.objects.get(tournament=None)
    assert client.patch(f"{url}{default.pk}/", {"name": "x"}, format="json").status_code == 403
    ok = client.patch(
        f"{url}{r.json()['id']}/", {"params": {"max_grades_per_event": 1}}, format="json"
    )
    assert ok.status_code == 200 and ok.json()["params"] == {"max_grades_per_event": 1}


def test_an_outsider_cannot_touch_policies(api_as: Any, outsider: Any) -> None:
    default = PromotionPolicy.objects.get()
    url = "/api/v1/promotions/policies/"
    assert api_as(outsider).post(f"{url}{default.pk}/activate/").status_code == 403
    assert api_as(outsider).post(url, {"name": "x", "params": {}}, format="json").status_code == 403
