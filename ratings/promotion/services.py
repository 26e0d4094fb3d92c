"""Promotion writes: policies, the rank history, approving and rejecting candidates.

Every change of ``Player.declared_rank`` (the official rank) goes through
``player_rank_set``, which writes its ``RankChange``.  Who decides: docs/promotions.md §5.  Services as everywhere: docs/operations.md §2.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from games import permissions
from games.models import Player, Tournament
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import (
    UNSET,
    Actor,
    StateConflict,
    Unset,
    as_user,
    validate_and_save,
)
from ratings.models import (
    CandidateState,
    Direction,
    PromotionCandidate,
    PromotionPolicy,
    RankChange,
    RankChangeKind,
)
from ratings.promotion.emails import promotion_email_send
from ratings.promotion.engine import DEFAULT_POLICY, PolicyError
from ratings.promotion.engine import PromotionPolicy as PolicyValue
from ratings.ranks import Rank

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- who may


def is_federation_director(user: Any) -> bool:
    """A federation official (``games.permissions``): decides for the whole federation.
    Directing a tournament, even with admin access, is not enough."""
    return permissions.is_federation_official(user)


def can_manage_policy(user: Any, tournament: Tournament | None) -> bool:
    """The default is the federation's; a tournament's policy is also its directors'."""
    if is_federation_director(user):
        return True
    return tournament is not None and permissions.is_director(user, tournament)


def can_decide(user: Any, candidate: PromotionCandidate) -> bool:
    """Federation directors, and the directors of the tournament that triggered it."""
    if is_federation_director(user):
        return True
    return permissions.is_director(user, candidate.trigger_tournament)


def can_see_candidate(user: Any, candidate: PromotionCandidate) -> bool:
    """Those who decide it, and the player himself.  Nobody else (the API answers 404)."""
    player = permissions.player_for(user)
    return (player is not None and player.pk == candidate.player_id) or can_decide(user, candidate)


# --------------------------------------------------------------------------- policies


def policy_value(policy: PromotionPolicy | None) -> PolicyValue:
    """The engine's frozen policy for a row (None: the built-in ``DEFAULT_POLICY``)."""
    if policy is None:
        return DEFAULT_POLICY
    return PolicyValue.from_dict(policy.params)


def policies_for(tournament_ids: Iterable[int]) -> dict[int | None, PromotionPolicy | None]:
    """The active policy row per tournament id (two queries), and ``None`` → the default.

    A tournament without its own active policy maps to the active default; with
    no active default row at all, to ``None`` (the built-in ``DEFAULT_POLICY``).
    """
    ids = set(tournament_ids)
    rows = PromotionPolicy.objects.filter(active=True, tournament_id__in=ids)
    own = {p.tournament_id: p for p in rows}
    default = PromotionPolicy.objects.filter(active=True, tournament__isnull=True).first()
    out: dict[int | None, PromotionPolicy | None] = {t: own.get(t, default) for t in ids}
    out[None] = default
    return out


def _check_params(params: Any) -> None:
    try:
        PolicyValue.from_dict(params)
    except PolicyError as exc:
        raise ValidationError({"params": str(exc)}) from None


def _policy_audit(policy: PromotionPolicy) -> dict[str, Any]:
    return {
        "name": policy.name,
        "tournament": policy.tournament_id,
        "active": policy.active,
        "params": policy.params,
    }


def promotion_policy_create(
    *,
    actor: Actor,
    name: str,
    params: Any,
    tournament: Tournament | None = None,
    active: bool = False,
) -> PromotionPolicy:
    """A new policy (inactive unless ``active``: then it replaces the one in force)."""
    if not can_manage_policy(actor, tournament):
        raise PermissionDenied("Only federation directors (or the tournament's) set policies.")
    _check_params(params)
    with transaction.atomic():
        policy = PromotionPolicy(
            name=(name or "").strip(),
            tournament=tournament,
            params=params,
            created_by=as_user(actor),
        )
        validate_and_save(policy)
        audit_record(
            actor=actor,
            action=AuditAction.PROMOTION_POLICY_CREATED,
            obj=policy,
            new=_policy_audit(policy),
        )
        if active:
            policy = promotion_policy_activate(actor=actor, policy=policy)
    return policy


def promotion_policy_update(
    *, actor: Actor, policy: PromotionPolicy, name: str | Unset = UNSET, params: Any = UNSET
) -> PromotionPolicy:
    """Change a policy's name or parameters; candidates already made keep their evidence."""
    if not can_manage_policy(actor, policy.tournament):
        raise PermissionDenied("Only federation directors (or the tournament's) set policies.")
    with transaction.atomic():
        old = _policy_audit(policy)
        fields = []
        if name is not UNSET:
            policy.name = (name or "").strip()
            fields.append("name")
        if params is not UNSET:
            _check_params(params)
            policy.params = params
            fields.append("params")
        if fields:
            validate_and_save(policy, update_fields=[*fields, "updated_at"])
            audit_record(
                actor=actor,
                action=AuditAction.PROMOTION_POLICY_CHANGED,
                obj=policy,
                old=old,
                new=_policy_audit(policy),
            )
    return policy


def promotion_policy_activate(*, actor: Actor, policy: PromotionPolicy) -> PromotionPolicy:
    """Put ``policy`` in force for its scope; the one it replaces is switched off."""
    if not can_manage_policy(actor, policy.tournament):
        raise PermissionDenied("Only federation directors (or the tournament's) set policies.")
    with transaction.atomic():
        policy = PromotionPolicy.objects.select_for_update().get(pk=policy.pk)
        if policy.active:
            return policy
        _check_params(policy.params)
        same_scope = PromotionPolicy.objects.select_for_update().filter(active=True)
        if policy.tournament_id is None:
            same_scope = same_scope.filter(tournament__isnull=True)
        else:
            same_scope = same_scope.filter(tournament_id=policy.tournament_id)
        replaced = [p.pk for p in same_scope]
        PromotionPolicy.objects.filter(pk__in=replaced).update(active=False)
        policy.active = True
        validate_and_save(policy, update_fields=["active", "updated_at"])
        audit_record(
            actor=actor,
            action=AuditAction.PROMOTION_POLICY_ACTIVATED,
            obj=policy,
            old={"replaced": replaced},
            new=_policy_audit(policy),
        )
    return policy


def promotion_policy_deactivate(*, actor: Actor, policy: PromotionPolicy) -> PromotionPolicy:
    """Switch a tournament's policy off (the default applies again).

    The federation default cannot be switched off, only replaced: activate
    another default instead, so a policy is always in force.
    """
    if not can_manage_policy(actor, policy.tournament):
        raise PermissionDenied("Only federation directors (or the tournament's) set policies.")
    if policy.is_default and policy.active:
        raise ValidationError(
            {"active": "The federation default cannot be switched off: activate another one."}
        )
    with transaction.atomic():
        if PromotionPolicy.objects.filter(pk=policy.pk, active=True).update(active=False):
            policy.active = False
            audit_record(
                actor=actor,
                action=AuditAction.PROMOTION_POLICY_DEACTIVATED,
                obj=policy,
                old={"active": True},
                new={"active": False},
            )
    return policy


# --------------------------------------------------------------------------- the rank history


def player_rank_set(
    *,
    actor: Actor,
    player: Player,
    new_rank: Rank,
    kind: str,
    since: dt.date | None = None,
    reason: str = "",
    evidence: dict[str, Any] | None = None,
    candidate: PromotionCandidate | None = None,
    tournament: Tournament | None = None,
) -> RankChange:
    """Set the official rank and record the change (the only writer of ``declared_rank``
    besides ``player_create``).  Callers check permissions and audit; call it inside
    their transaction.  ``since`` defaults to today (the day a director set it)."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        old = locked.declared_rank
        if old == new_rank.index:
            raise StateConflict(f"{player} is already {new_rank}.")
        locked.declared_rank = new_rank.index
        validate_and_save(locked, update_fields=["declared_rank"])
        player.declared_rank = new_rank.index
        return rank_change_log(
            actor=actor,
            player=player,
            old_rank=old,
            kind=kind,
            since=since,
            reason=reason,
            evidence=evidence,
            candidate=candidate,
            tournament=tournament,
        )


def rank_change_log(
    *,
    actor: Actor,
    player: Player,
    old_rank: int,
    kind: str,
    since: dt.date | None = None,
    reason: str = "",
    evidence: dict[str, Any] | None = None,
    candidate: PromotionCandidate | None = None,
    tournament: Tournament | None = None,
) -> RankChange:
    """Write the ``RankChange`` for a rank already saved on ``player``.

    ``games.people.services.players.player_update`` calls it (kind ``correction``) after
    a director changed the declared rank; a correction is audited here.
    """
    change = RankChange(
        player=player,
        old_rank=old_rank,
        new_rank=player.declared_rank,
        kind=kind,
        since=since or timezone.localdate(),
        reason=reason,
        evidence=evidence or {},
        candidate=candidate,
        tournament=tournament,
        changed_by=as_user(actor),
    )
    validate_and_save(change)
    if kind == RankChangeKind.CORRECTION:
        audit_record(
            actor=actor,
            action=AuditAction.PLAYER_RANK_CORRECTED,
            obj=player,
            old={"rank": str(Rank(old_rank))},
            new={"rank": str(player.rank), "reason": reason},
        )
    return change


# --------------------------------------------------------------------------- candidates


def _stale_reason(candidate: PromotionCandidate, player: Player) -> str | None:
    if player.declared_rank != candidate.old_rank:
        return (
            f"{player}'s rank changed since this candidate was made: it was "
            f"{candidate.old_rank_value}, it is now {player.rank}. Reject it; the next "
            "evaluation proposes what the new rank calls for."
        )
    if RankChange.objects.filter(player=player, changed_at__gt=candidate.created_at).exists():
        return (
            f"{player}'s rank was changed (and changed back) since this candidate was made. "
            "Reject it; the next evaluation proposes what the rank calls for."
        )
    return None


def promotion_candidate_approve(*, actor: Actor, candidate: PromotionCandidate) -> RankChange:
    """Approve: the player's official rank changes, with its ``RankChange``, an audit entry
    and an e-mail to the player (on commit).  A stale or decided candidate is refused (409)."""
    with transaction.atomic():
        c = (
            PromotionCandidate.objects.select_for_update(of=("self",))
            .select_related("player", "trigger_tournament", "policy")
            .get(pk=candidate.pk)
        )
        if not can_decide(actor, c):
            raise PermissionDenied(
                "Only federation directors, or the directors of the "
                "tournament that triggered it, decide a candidate."
            )
        if c.state != CandidateState.PENDING:
            raise StateConflict(f"This candidate was already {c.state}.", code="decided")
        player = Player.objects.select_for_update().get(pk=c.player_id)
        stale = _stale_reason(c, player)
        if stale:
            raise StateConflict(stale, code="stale")
        promoted = c.direction == Direction.PROMOTE
        evidence = {
            **c.evidence,
            "criterion": c.criterion,
            "policy": c.policy.name if c.policy is not None else "built-in default",
        }
        change = player_rank_set(
            actor=actor,
            player=player,
            new_rank=c.new_rank_value,
            kind=RankChangeKind.PROMOTION if promoted else RankChangeKind.DEMOTION,
            since=c.trigger_tournament.end_date,
            evidence=evidence,
            candidate=c,
            tournament=c.trigger_tournament,
        )
        c.state = CandidateState.APPROVED
        c.decided_by = as_user(actor)
        c.decided_at = timezone.now()
        c.save(update_fields=["state", "decided_by", "decided_at"])
        audit_record(
            actor=actor,
            action=AuditAction.PLAYER_PROMOTED if promoted else AuditAction.PLAYER_DEMOTED,
            obj=player,
            old={"rank": str(c.old_rank_value)},
            new={
                "rank": str(c.new_rank_value),
                "candidate": c.pk,
                "rank_change": change.pk,
                "criterion": c.criterion,
                "tournament": c.trigger_tournament_id,
                "evidence": c.evidence,
            },
        )
        transaction.on_commit(partial(promotion_email_send, change.pk))
    candidate.state, candidate.decided_by, candidate.decided_at = (
        c.state,
        c.decided_by,
        c.decided_at,
    )
    return change


def promotion_candidate_reject(
    *, actor: Actor, candidate: PromotionCandidate, reason: str
) -> PromotionCandidate:
    """Reject with a reason (audited).  The same decision is never proposed again: the
    idempotency key stays taken."""
    reason = (reason or "").strip()
    with transaction.atomic():
        c = (
            PromotionCandidate.objects.select_for_update(of=("self",))
            .select_related("trigger_tournament")
            .get(pk=candidate.pk)
        )
        if not can_decide(actor, c):
            raise PermissionDenied(
                "Only federation directors, or the directors of the "
                "tournament that triggered it, decide a candidate."
            )
        if not reason:
            raise ValidationError({"reason": "Say why the candidate is rejected."})
        if c.state != CandidateState.PENDING:
            raise StateConflict(f"This candidate was already {c.state}.", code="decided")
        c.state = CandidateState.REJECTED
        c.reason = reason
        c.decided_by = as_user(actor)
        c.decided_at = timezone.now()
        c.save(update_fields=["state", "reason", "decided_by", "decided_at"])
        audit_record(
            actor=actor,
            action=AuditAction.PROMOTION_REJECTED,
            obj=c,
            old={"state": CandidateState.PENDING},
            new={
                "state": CandidateState.REJECTED,
                "reason": reason,
                "player": c.player_id,
                "new_rank": str(c.new_rank_value),
            },
        )
    return c


@dataclass
class BulkOutcome:
    done: list[PromotionCandidate] = field(default_factory=list)
    refused: list[tuple[PromotionCandidate, str]] = field(default_factory=list)


def promotion_candidates_decide(
    *, actor: Actor, candidates: Iterable[PromotionCandidate], approve: bool, reason: str = ""
) -> BulkOutcome:
    """Approve (or reject) several, each in its own transaction: one stale candidate
    does not hold up the others; the refusals come back with their messages."""
    out = BulkOutcome()
    for c in candidates:
        try:
            if approve:
                promotion_candidate_approve(actor=actor, candidate=c)
            else:
                promotion_candidate_reject(actor=actor, candidate=c, reason=reason)
        except (ValidationError, PermissionDenied) as exc:
            msg = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            out.refused.append((c, msg))
        else:
            out.done.append(c)
    return out
