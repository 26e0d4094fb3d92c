"""Promotions, the Django half: evaluation after a rating job, approval, rejection,
the rank history, policies per tournament, stale candidates."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command

from games.people.services import player_update
from games.people.services.grants import federation_official_grant
from ops.models import AuditEntry
from ops.services import StateConflict
from ratings.models import (
    CandidateState,
    PromotionCandidate,
    PromotionPolicy,
    RankChange,
    RankChangeKind,
    RatingRun,
)
from ratings.promotion import services as promo
from ratings.promotion.engine import DEFAULT_POLICY
from ratings.promotion.evaluation import promotions_evaluate
from ratings.ranks import Rank
from ratings.recompute import recompute
from ratings.services import player_award_honorary, ratings_recompute_start
from tests.ratings.helpers import add_games, close, event, players

pytestmark = pytest.mark.django_db


def _recompute(director: Any, capture: Any) -> None:
    with capture(execute=True):
        ratings_recompute_start(actor=None)


def test_a_fresh_install_has_one_active_default_policy_the_engines_default() -> None:
    (policy,) = PromotionPolicy.objects.all()
    assert policy.active and policy.tournament is None
    assert policy.params == DEFAULT_POLICY.to_dict()


def test_the_default_policy_end_to_end(
    director: Any,
    alice: Any,
    alice_wins: Any,
    evaluate_now: Any,
    client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _recompute(director, django_capture_on_commit_callbacks)
    assert evaluate_now == [{"run_id": RatingRun.objects.get().pk}]
    candidate = PromotionCandidate.objects.get(player=alice)
    assert (candidate.old_rank_value, candidate.new_rank_value) == (Rank.kyu(3), Rank.kyu(2))
    assert candidate.state == CandidateState.PENDING and candidate.direction == "promote"
    assert candidate.criterion == "rating_threshold"
    assert candidate.trigger_tournament == alice_wins
    assert candidate.policy == PromotionPolicy.objects.get(active=True, tournament=None)
    assert candidate.evidence["events"] == [alice_wins.pk]
    assert len(candidate.evidence["games"]) == 3 and "2k" in candidate.evidence["detail"]
    # nobody else moves: the three 1d players lost
    assert PromotionCandidate.objects.count() == 1

    with django_capture_on_commit_callbacks(execute=True):
        change = promo.promotion_candidate_approve(actor=director, candidate=candidate)
    alice.refresh_from_db()
    candidate.refresh_from_db()
    assert alice.rank == Rank.kyu(2) and candidate.state == CandidateState.APPROVED
    assert candidate.decided_by == director
    assert (change.old_rank, change.new_rank, change.kind) == (-3, -2, RankChangeKind.PROMOTION)
    assert change.since == alice_wins.end_date and change.changed_by == director
    assert change.candidate == candidate and change.evidence["criterion"] == "rating_threshold"
    entry = AuditEntry.objects.get(action="player.promoted")
    assert entry.actor == director and entry.object_id == str(alice.pk)
    assert entry.old_value == {"rank": "3k"} and entry.new_value["rank"] == "2k"
    assert entry.new_value["candidate"] == candidate.pk
    (message,) = mail.outbox
    assert message.to == ["alice@example.org"] and "2k" in message.subject
    assert f"/ratings/promotions/{change.pk}/certificate/" in message.body

    page = client.get(f"/players/{alice.pk}/").content.decode()
    assert "Rank history" in page and f"/ratings/promotions/{change.pk}/certificate/" in page
    listing = client.get("/ratings/promotions/").content.decode()
    assert "Liddell Alice" in listing and "Wellington Open" in listing
    api = client.get("/api/v1/promotions/").json()["results"]
    assert [(r["player"], r["old_rank"], r["new_rank"]) for r in api] == [(alice.pk, "3k", "2k")]
    ranks = client.get(f"/api/v1/players/{alice.pk}/ranks/").json()
    assert [(r["kind"], r["new_rank"], r["tournament"]) for r in ranks] == [
        ("promotion", "2k", alice_wins.pk)
    ]

    # The step of that event is used up: the next rating job proposes nothing new.
    _recompute(director, django_capture_on_commit_callbacks)
    assert PromotionCandidate.objects.count() == 1


def test_evaluating_twice_makes_the_same_rows(alice: Any, alice_wins: Any) -> None:
    recompute()
    first = promotions_evaluate(tournament_ids=[alice_wins.pk])
    rows = list(PromotionCandidate.objects.values_list("id", "idempotency_key"))
    second = promotions_evaluate(tournament_ids=[alice_wins.pk])
    assert (first.created, second.created, second.decisions) == (1, 0, 1)
    assert list(PromotionCandidate.objects.values_list("id", "idempotency_key")) == rows
    assert rows[0][1] == f"promotion:{alice.pk}:2k:{alice_wins.pk}"
    call_command("evaluate_promotions", "--tournament", str(alice_wins.pk))
    call_command("evaluate_promotions")
    assert PromotionCandidate.objects.count() == 1


def test_the_command_names_an_unknown_tournament() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no tournament with id 999999"):
        call_command("evaluate_promotions", "--tournament", "999999")


def test_a_rejected_candidate_is_audited_and_not_proposed_again(
    director: Any, alice: Any, alice_wins: Any
) -> None:
    recompute()
    promotions_evaluate()
    candidate = PromotionCandidate.objects.get()
    with pytest.raises(ValidationError, match="Say why"):
        promo.promotion_candidate_reject(actor=director, candidate=candidate, reason=" ")
    promo.promotion_candidate_reject(actor=director, candidate=candidate, reason="Sandbagging")
    candidate.refresh_from_db()
    assert candidate.state == CandidateState.REJECTED and candidate.reason == "Sandbagging"
    entry = AuditEntry.objects.get(action="promotion.rejected")
    assert entry.actor == director and entry.new_value["reason"] == "Sandbagging"
    alice.refresh_from_db()
    assert alice.rank == Rank.kyu(3) and not RankChange.objects.exists() and not mail.outbox
    assert promotions_evaluate().created == 0
    with pytest.raises(StateConflict, match="already rejected"):
        promo.promotion_candidate_approve(actor=director, candidate=candidate)


def test_a_stale_candidate_is_refused(director: Any, alice: Any, alice_wins: Any) -> None:
    recompute()
    promotions_evaluate()
    candidate = PromotionCandidate.objects.get()
    player_update(actor=director, player=alice, rank="4k")  # a director corrects the record
    correction = RankChange.objects.get()
    assert (correction.kind, correction.old_rank, correction.new_rank) == ("correction", -3, -4)
    assert AuditEntry.objects.filter(action="player.rank_corrected").count() == 1
    with pytest.raises(StateConflict, match="rank changed since this candidate was made"):
        promo.promotion_candidate_approve(actor=director, candidate=candidate)
    player_update(actor=director, player=alice, rank="3k")  # ... and back
    with pytest.raises(StateConflict, match="changed back"):
        promo.promotion_candidate_approve(actor=director, candidate=candidate)
    alice.refresh_from_db()
    assert alice.rank == Rank.kyu(3) and RankChange.objects.count() == 2


def test_a_tournament_policy_overrides_the_default(
    director: Any, alice: Any, alice_wins: Any
) -> None:
    params = DEFAULT_POLICY.to_dict()
    params["bands"]["kyu"] = {
        "combine": "any",
        "criteria": [  # type: ignore[index]
            {"type": "wins_at_rank", "wins": 3, "window": 3, "handicap": "adjust"}
        ],
    }
    own = promo.promotion_policy_create(
        actor=director, name="Club ladder", params=params, tournament=alice_wins, active=True
    )
    recompute()
    promotions_evaluate()
    candidate = PromotionCandidate.objects.get()
    assert candidate.policy == own and candidate.criterion == "wins_at_rank"
    assert "3 wins" in candidate.evidence["detail"]


def test_the_default_applies_where_a_tournament_has_no_active_policy(
    director: Any, alice: Any, alice_wins: Any
) -> None:
    params = DEFAULT_POLICY.to_dict()
    params["bands"]["kyu"]["criteria"] = []  # type: ignore[index]
    quiet = promo.promotion_policy_create(
        actor=director, name="No kyu promotions", params=params, tournament=alice_wins
    )
    recompute()
    assert promotions_evaluate().created == 1  # inactive: the default applies
    PromotionCandidate.objects.all().delete()
    promo.promotion_policy_activate(actor=director, policy=quiet)
    assert promotions_evaluate().created == 0


def test_activating_a_default_replaces_the_one_in_force(staff_director: Any) -> None:
    old = PromotionPolicy.objects.get(active=True)
    new = promo.promotion_policy_create(
        actor=staff_director, name="Strict", params={"max_grades_per_event": 1}, active=True
    )
    old.refresh_from_db()
    assert new.active and not old.active
    assert AuditEntry.objects.filter(action="promotion_policy.activated").count() == 1
    with pytest.raises(ValidationError, match="cannot be switched off"):
        promo.promotion_policy_deactivate(actor=staff_director, policy=new)


def test_a_bad_parameter_is_refused_with_the_engines_message(staff_director: Any) -> None:
    bad = {"bands": {"kyu": {"criteria": [{"type": "wins_at_rank", "wins": 5, "window": 3}]}}}
    with pytest.raises(ValidationError) as err:
        promo.promotion_policy_create(actor=staff_director, name="Bad", params=bad)
    assert err.value.message_dict["params"] == [
        "bands.kyu.criteria[0].wins_at_rank.window: must be at least wins (5)"
    ]


def test_only_a_federation_director_sets_the_default(director: Any) -> None:
    with pytest.raises(PermissionDenied):
        promo.promotion_policy_create(actor=director, name="Mine", params={})


def test_bulk_approval_approves_each_and_reports_the_stale(
    director: Any, alice: Any, bob: Any, tournament: Any, strong_trio: list[Any]
) -> None:
    add_games(tournament, [(alice, p, "B", 0) for p in strong_trio])
    add_games(tournament, [(bob, p, "B", 0) for p in players(1, 1, 1)])
    close(tournament)
    recompute()
    assert promotions_evaluate().created == 2
    a, b = PromotionCandidate.objects.order_by("player__family_name")  # Builder, Liddell
    player_update(actor=director, player=bob, rank="1k")
    outcome = promo.promotion_candidates_decide(actor=director, candidates=[a, b], approve=True)
    assert [c.pk for c in outcome.done] == [b.pk]
    assert [(c.pk, "rank changed" in why) for c, why in outcome.refused] == [(a.pk, True)]
    alice.refresh_from_db()
    assert alice.rank == Rank.kyu(2)


def test_the_honorary_title_is_in_the_rank_history_and_never_evaluated(
    director: Any, alice: Any, alice_wins: Any
) -> None:
    federation_official_grant(actor=None, user=director)
    player_award_honorary(actor=director, player=alice, reason="Forty years of teaching")
    alice.refresh_from_db()
    change = RankChange.objects.get()
    assert alice.declared_rank == 9 and change.kind == RankChangeKind.HONORARY
    assert (change.old_rank, change.reason) == (-3, "Forty years of teaching")
    recompute()
    assert promotions_evaluate().decisions == 0


def test_rank_since_counts_only_events_after_the_last_change(
    director: Any, alice: Any, alice_wins: Any
) -> None:
    recompute()
    promotions_evaluate()
    promo.promotion_candidate_approve(actor=director, candidate=PromotionCandidate.objects.get())
    # A later event at 2k where she beats 2d players: the threshold moves her on (2 grades max).
    later = event(dt.date(2026, 5, 2), [(alice, p, "B", 0) for p in players(1, 1, 1, 1)])
    recompute()
    promotions_evaluate()
    newest = PromotionCandidate.objects.get(state=CandidateState.PENDING)
    assert newest.trigger_tournament == later and newest.old_rank == -2
    assert newest.new_rank - newest.old_rank <= 2
