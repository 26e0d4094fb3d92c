"""Corrections during an event (docs/tournaments.md, "Corrections during an event"): what
correcting an entry's rank, rating or McMahon correction after the start changes, and the
directors' bulk changes of a selection of entries (OpenGotha's Players Quick Check):
ratings from the federations' current lists, ranks raised or lowered, ranks from
ratings, final or preliminary registration.  Each write is audited per entry with its
before and after, and carries the rounds already paired."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model

from games.models import Tournament, TournamentEntry
from games.services import outbound
from games.tournament.services.entries import (
    CorrectionEffect,
    check_director,
    check_open_entries,
    correction_effect,
)
from ops.audit import audit_record_many
from ops.models import AuditAction
from ops.pages import cache
from ops.services import Actor
from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank


@dataclass(frozen=True)
class BulkChange:
    """What a bulk change did: entries changed, entries left as they were (already so, or
    nothing to take the value from), and the effect on the rounds."""

    changed: int
    unchanged: int
    effect: CorrectionEffect | None = None


def _bulk(
    *,
    actor: Actor,
    tournament: Tournament,
    entry_ids: Iterable[int] | None,
    fields: tuple[str, ...],
    new_values: Callable[[list[TournamentEntry]], dict[int, dict[str, Any]]],
) -> BulkChange:
    """Lock the selected entries (all when ``entry_ids`` is None), ask ``new_values`` for
    each one's new values, write those that differ in one bulk update, audit each."""
    check_director(actor, tournament)
    check_open_entries(tournament)
    entries = TournamentEntry.objects.select_for_update().filter(tournament=tournament)
    if entry_ids is not None:
        ids = sorted(set(entry_ids))
        entries = entries.filter(pk__in=ids)
    rows = list(entries.select_related("player").order_by("pk"))
    if entry_ids is not None and len(rows) != len(ids):
        raise ValidationError({"entries": "Choose entries of this tournament."})
    wanted = new_values(rows)
    changed: list[TournamentEntry] = []
    audit: list[tuple[Model, Any, Any]] = []
    for entry in rows:
        values = {k: v for k, v in wanted.get(entry.pk, {}).items() if getattr(entry, k) != v}
        if not values:
            continue
        old = {k: getattr(entry, k) for k in values}
        for k, v in values.items():
            setattr(entry, k, v)
        entry.full_clean(exclude=["tournament", "player"], validate_unique=False)
        changed.append(entry)
        audit.append((entry, old, values))
    effect = correction_effect(tournament, {k for _, _, new in audit for k in new})
    if effect is not None:
        audit = [(e, old, {**new, **effect.audit()}) for e, old, new in audit]
    TournamentEntry.objects.bulk_update(changed, list(fields), batch_size=500)
    audit_record_many(actor=actor, action=AuditAction.ENTRY_CHANGED, rows=audit)
    cache.changed_many(changed)
    return BulkChange(len(changed), len(rows) - len(changed), effect)


@transaction.atomic
def entries_ratings_update(
    *, actor: Actor, tournament: Tournament, entry_ids: Iterable[int] | None = None
) -> BulkChange:
    """Each selected entry's rating (all entries: ``entry_ids`` None) from the federations'
    current lists, found by the player's EGD PIN or FFG licence; the rating origin names
    the list.  A player no list knows keeps his rating."""

    def values(rows: list[TournamentEntry]) -> dict[int, dict[str, Any]]:
        listed = outbound.rating_list_rows_of([e.player for e in rows])
        out: dict[int, dict[str, Any]] = {}
        for e in rows:
            row = listed.get(e.player_id)
            if row is not None and row.rating is not None:
                origin = "EGF" if row.source == "egd" else row.source.upper()
                out[e.pk] = {"rating": row.rating, "rating_origin": origin}
        return out

    return _bulk(
        actor=actor,
        tournament=tournament,
        entry_ids=entry_ids,
        fields=("rating", "rating_origin"),
        new_values=values,
    )


@transaction.atomic
def entries_rank_shift(
    *, actor: Actor, tournament: Tournament, entry_ids: Iterable[int], by: int
) -> BulkChange:
    """Raise (``by`` > 0) or lower the selected entries' ranks by ``by`` ranks, as far as
    the ladder goes (30k to 9d)."""
    if isinstance(by, bool) or not isinstance(by, int) or not by or abs(by) > 39:
        raise ValidationError({"by": "Raise or lower by a whole number of ranks (not 0)."})
    return _bulk(
        actor=actor,
        tournament=tournament,
        entry_ids=entry_ids,
        fields=("rank",),
        new_values=lambda rows: {
            e.pk: {"rank": max(MIN_INDEX, min(MAX_INDEX, e.rank + by))} for e in rows
        },
    )


@transaction.atomic
def entries_ranks_from_ratings(
    *, actor: Actor, tournament: Tournament, entry_ids: Iterable[int] | None = None
) -> BulkChange:
    """Each selected entry's rank from its rating (the EGD's GoR bands, 100 points a rank);
    an unrated entry keeps its rank."""
    return _bulk(
        actor=actor,
        tournament=tournament,
        entry_ids=entry_ids,
        fields=("rank",),
        new_values=lambda rows: {
            e.pk: {"rank": max(MIN_INDEX, min(MAX_INDEX, Rank.from_gor(e.rating).index))}
            for e in rows
            if e.rating is not None
        },
    )


@transaction.atomic
def entries_final_set(
    *, actor: Actor, tournament: Tournament, entry_ids: Iterable[int], final: bool
) -> BulkChange:
    """The selected entries' registration made final or preliminary."""
    if not isinstance(final, bool):
        raise ValidationError({"final": "Final is true or false."})
    return _bulk(
        actor=actor,
        tournament=tournament,
        entry_ids=entry_ids,
        fields=("final",),
        new_values=lambda rows: {e.pk: {"final": final} for e in rows},
    )
