"""The review list of possible duplicates: two player records an import could not tell
apart (docs/tournaments.md, "One person across events").  An import flags the pair; a
director of that tournament or of one where either plays (or a federation official)
merges them or keeps them apart, and a pair kept apart is not asked about again."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import cache as page_cache
from games import permissions
from games.models import (
    DuplicateState,
    Game,
    Player,
    PossibleDuplicate,
    ResultSubmission,
    Tournament,
    TournamentEntry,
)
from games.people.engine.federation_ids import PLAYER_ID_FIELDS
from games.people.selectors import duplicates_visible
from games.people.services.players import player_audit_value
from games.services import outbound
from ops.audit import audit_record, audit_record_many
from ops.models import AuditAction
from ops.pages import cache
from ops.services import Actor, StateConflict, require


def duplicates_flag_many(
    *, actor: Actor, pairs: list[tuple[Player, Player, str]], tournament: Tournament | None
) -> int:
    """Put pairs on the review list, in three queries: the pairs already listed
    (in any state: one kept apart is never asked again) are skipped, the rest written and
    audited in bulk.  How many were queued.  Called inside the import's transaction: the
    flags live or die with the import."""
    if not pairs:
        return 0
    pks = {p.pk for a, b, _ in pairs for p in (a, b)}
    seen = {
        frozenset(pair)
        for pair in PossibleDuplicate.objects.filter(player__in=pks, other__in=pks).values_list(
            "player", "other"
        )
    }
    new = []
    for player, other, reason in pairs:
        key = frozenset((player.pk, other.pk))
        if key in seen or len(key) < 2:
            continue
        seen.add(key)
        new.append(
            PossibleDuplicate(
                player=player, other=other, reason=reason[:300], tournament=tournament
            )
        )
    PossibleDuplicate.objects.bulk_create(new)
    audit_record_many(
        actor=actor,  # the importing user
        action=AuditAction.PLAYER_DUPLICATE_FLAGGED,
        rows=[
            (d, None, {"player": d.player_id, "other": d.other_id, "reason": d.reason}) for d in new
        ],
    )
    return len(new)


def _locked(duplicate: PossibleDuplicate) -> PossibleDuplicate:
    dup = PossibleDuplicate.objects.select_for_update().filter(pk=duplicate.pk).first()
    if dup is None:  # merged meanwhile, with one of its players
        raise StateConflict("This pair is no longer on the review list.")
    return dup


_NOT_YOURS = (
    "Only a director of a tournament these players are in (or a federation official) "
    "decides this pair."
)


def can_decide(actor: Actor, dup: PossibleDuplicate) -> bool:
    if actor is None:
        return True
    return duplicates_visible(actor).filter(pk=dup.pk).exists()


@transaction.atomic
def duplicate_keep_apart(*, actor: Actor, duplicate: PossibleDuplicate) -> PossibleDuplicate:
    """Two different people: the pair leaves the review list for good (audited)."""
    require(can_decide(actor, duplicate), _NOT_YOURS)
    dup = _locked(duplicate)
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


@transaction.atomic
def duplicate_merge(*, actor: Actor, duplicate: PossibleDuplicate, keep: Player) -> Player:
    """One person: the other record's entries, games, result claims, rank history,
    promotions, honorary title, ruling acceptances and account move to ``keep``, his ids
    fill ``keep``'s empty ones, he is deleted, and the ratings are computed again from the
    first closed, rated event either played.  Audited with both records.  Refused (409)
    when the two played in one tournament, hold different ids of one kind, or both have
    an account: then they are two people, or a record needs correcting first."""
    require(can_decide(actor, duplicate), _NOT_YOURS)
    dup = _locked(duplicate)
    if dup.state != DuplicateState.OPEN:
        raise StateConflict(f"This pair was already decided: {dup.get_state_display()}.")
    if keep.pk not in (dup.player_id, dup.other_id):
        raise ValidationError({"keep": "Keep one of the two players of this pair."})
    gone_pk = dup.other_id if keep.pk == dup.player_id else dup.player_id
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone_pk]).order_by("pk")
    }
    kept, gone = locked[keep.pk], locked[gone_pk]
    for who in (kept, gone):
        if actor is not None:
            require(
                permissions.can_edit_player(actor, who),
                f"{who} plays in other directors' tournaments: ask one of them, or a superuser.",
            )
    shared = set(TournamentEntry.objects.filter(player=kept).values_list("tournament", flat=True))
    both = TournamentEntry.objects.filter(player=gone, tournament__in=shared).first()
    if both is not None:
        raise StateConflict(f"Both play in {both.tournament}: they are two people.")
    differ = [
        f
        for f in PLAYER_ID_FIELDS
        if getattr(kept, f) and getattr(gone, f) != getattr(kept, f) and getattr(gone, f)
    ]
    if differ:
        raise StateConflict(
            f"The two records hold different {', '.join(differ)}: correct one first, "
            "or keep them apart."
        )
    if kept.user_id and gone.user_id:
        raise StateConflict("Both records have an account: they cannot become one.")
    before = {"kept": player_audit_value(kept), "gone": {"id": gone.pk, **player_audit_value(gone)}}
    tournaments = set(
        TournamentEntry.objects.filter(player=gone).values_list("tournament", flat=True)
    ) | set(Game.objects.filter(Q(black=gone) | Q(white=gone)).values_list("tournament", flat=True))
    earliest = (
        Tournament.objects.filter(
            Q(pk__in=tournaments) | Q(entries__player=kept),
            rated=True,
            closed_at__isnull=False,
        )
        .order_by("end_date", "pk")
        .first()
    )
    TournamentEntry.objects.filter(player=gone).update(player=kept)
    Game.objects.filter(black=gone).update(black=kept)
    Game.objects.filter(white=gone).update(white=kept)
    Game.objects.filter(result_submitted_by=gone).update(result_submitted_by=kept)
    ResultSubmission.objects.filter(player=gone).update(player=kept)
    outbound.players_merged(kept=kept, gone=gone, earliest=earliest)
    fill = [f for f in PLAYER_ID_FIELDS if not getattr(kept, f) and getattr(gone, f)]
    values = {f: getattr(gone, f) for f in fill}
    user = gone.user
    dup.delete()  # the decision lives on in the audit entry, which names both records
    # The other pairs naming the merged record now name the kept one, unless that makes
    # a pair of one player or one already listed.
    for other in PossibleDuplicate.objects.filter(Q(player=gone) | Q(other=gone)):
        a = kept if other.player_id == gone.pk else other.player
        b = kept if other.other_id == gone.pk else other.other
        listed = PossibleDuplicate.objects.filter(player__in=(a, b), other__in=(a, b))
        if a.pk == b.pk or listed.exclude(pk=other.pk).exists():
            other.delete()
        else:
            PossibleDuplicate.objects.filter(pk=other.pk).update(player=a, other=b)
    gone_pk_value = gone.pk
    gone.delete()
    if values or (user is not None and kept.user_id is None):
        for f, v in values.items():
            setattr(kept, f, v)
        update = list(values)
        if user is not None and kept.user_id is None:
            kept.user = user
            update.append("user")
        kept.save(update_fields=update)
    # The games moved to the kept record, and maybe the gone one's account: both players'
    # pages and that account's header (config.navigation) must not show the old split.
    moved = [page_cache.user(user.pk)] if user is not None else []
    cache.touch(page_cache.player(kept.pk), page_cache.player(gone_pk_value), *moved)
    audit_record(
        actor=actor,
        action=AuditAction.PLAYER_MERGED,
        obj=kept,
        old=before,
        new={"kept": kept.pk, "gone": gone_pk_value, **player_audit_value(kept)},
    )
    return kept
