"""The review list of possible duplicates: two player records an import could not tell
apart (docs/tournaments.md, "One person across events").  An import flags the pair; a
director of that tournament (or a superuser) keeps them apart, and they are not asked
about again."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import permissions
from games.models import DuplicateState, Player, PossibleDuplicate, Tournament
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, require


def already_decided(player: Player, other: Player) -> bool:
    """Whether a person already said these two are different people."""
    return PossibleDuplicate.objects.filter(
        player__in=(player, other), other__in=(player, other), state=DuplicateState.APART
    ).exists()


def duplicate_flag(
    *, player: Player, other: Player, reason: str, tournament: Tournament | None
) -> PossibleDuplicate | None:
    """Put the pair on the review list (None: already there, or already kept apart).
    Called inside the import's transaction: the flag lives or dies with the import."""
    if PossibleDuplicate.objects.filter(
        player__in=(player, other), other__in=(player, other)
    ).exists():
        return None
    dup = PossibleDuplicate.objects.create(
        player=player, other=other, reason=reason[:300], tournament=tournament
    )
    audit_record(
        actor=None,
        action=AuditAction.PLAYER_DUPLICATE_FLAGGED,
        obj=dup,
        new={"player": player.pk, "other": other.pk, "reason": dup.reason},
    )
    return dup


def can_decide(actor: Actor, dup: PossibleDuplicate) -> bool:
    if actor is None or permissions.is_superuser(actor):
        return True
    return dup.tournament is not None and permissions.is_director(actor, dup.tournament)


@transaction.atomic
def duplicate_keep_apart(*, actor: Actor, duplicate: PossibleDuplicate) -> PossibleDuplicate:
    """Two different people: the pair leaves the review list for good (audited)."""
    require(
        can_decide(actor, duplicate),
        "Only a director of the tournament that raised it (or a superuser) decides this pair.",
    )
    dup = PossibleDuplicate.objects.select_for_update().get(pk=duplicate.pk)
    if dup.state != DuplicateState.OPEN:
        raise StateConflict(f"This pair was already decided: {dup.get_state_display()}.")
    dup.state = DuplicateState.APART
    dup.decided_at = timezone.now()
    dup.save(update_fields=["state", "decided_at"])
    audit_record(
        actor=actor,
        action=AuditAction.PLAYER_DUPLICATE_KEPT_APART,
        obj=dup,
        old={"state": DuplicateState.OPEN.value},
        new={"state": dup.state},
    )
    return dup
