"""The federations' rating lists in goref: import one (replacing the older list of the same
source, recording what changed) and search them (docs/ratings.md, "Rating lists").
Entering a listed player is the tournament wing's write, from ``ratings.selectors``'
plain rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, QuerySet

from games import permissions
from games.people.engine.names import name_key
from games.people.selectors import MAX_QUERY, MAX_RESULTS, search_words
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict
from ratings import rating_lists
from ratings.models import RatingList, RatingListEntry, RatingListToken

BATCH = 5000


@dataclass(frozen=True)
class ListImport:
    rating_list: RatingList
    unreadable: int


def _key(row: rating_lists.ListedPlayer | RatingListEntry) -> str:
    return row.federation_id or name_key(row.family_name, row.given_name)


def rating_list_import(*, actor: Actor, data: bytes, published: date | None = None) -> ListImport:
    """``_list_import`` in its own transaction; two first imports of one source at the
    same moment: the second is a 409, never a 500."""
    try:
        return _list_import(actor=actor, data=data, published=published)
    except IntegrityError:
        raise StateConflict("Another import of this list ran at the same moment: retry.") from None


@transaction.atomic
def _list_import(*, actor: Actor, data: bytes, published: date | None = None) -> ListImport:
    """Store a published list (its source recognised from the content).  A list older
    than the one stored is refused (409); the same or a newer one replaces its entries."""
    if actor is not None and not (
        permissions.is_superuser(actor) or permissions.is_federation_official(actor)
    ):
        raise PermissionDenied("Only a federation official imports a rating list.")
    try:
        parsed = rating_lists.read(data, today=published)
    except rating_lists.ListFormatError as e:
        raise ValidationError({"file": str(e)}) from None
    when = published or parsed.published
    current, _ = RatingList.objects.select_for_update().get_or_create(
        source=parsed.source, defaults={"published": when}
    )
    if current.entries_count and when < current.published:
        raise StateConflict(
            f"The {parsed.source.upper()} list of {current.published} is newer than this one "
            f"({when}): nothing was imported."
        )
    old = {
        _key(e): e.rating if e.rating is not None else e.list_rating
        for e in RatingListEntry.objects.filter(rating_list=current).only(
            "federation_id", "family_name", "given_name", "rating", "list_rating"
        )
    }
    new: dict[str, Any] = {}
    rows = []
    for p in parsed.players:
        new[_key(p)] = p.rating if p.rating is not None else p.list_rating
        rows.append(
            RatingListEntry(
                rating_list=current,
                federation_id=p.federation_id[:10],
                family_name=p.family_name[:80],
                given_name=p.given_name[:80],
                name_key=name_key(p.family_name, p.given_name),
                rank=p.rank,
                rating=p.rating,
                list_rating=p.list_rating[:12],
                club=p.club[:10],
                country=p.country[:2],
                raw_line=p.raw,
            )
        )
    before = {"published": str(current.published), "entries": current.entries_count}
    changes = {
        "added": len(new.keys() - old.keys()),
        "removed": len(old.keys() - new.keys()),
        "rating_changed": sum(1 for k in new.keys() & old.keys() if new[k] != old[k]),
    }
    RatingListToken.objects.filter(rating_list=current).delete()
    RatingListEntry.objects.filter(rating_list=current).delete()
    RatingListEntry.objects.bulk_create(rows, batch_size=BATCH)
    _words_write(current, rows)
    current.published = when
    current.entries_count = len(rows)
    current.changes = changes
    current.save()
    audit_record(
        actor=actor,
        action=AuditAction.RATING_LIST_IMPORTED,
        obj=current,
        old=before,
        new={"published": str(when), "entries": len(rows), **changes},
    )
    return ListImport(current, parsed.unreadable)


def _words_write(rating_list: RatingList, rows: list[RatingListEntry]) -> None:
    """The words table of the list's new entries, then fresh planner statistics: after
    100,000 rows the old ones make PostgreSQL pick a nested loop that reads every word of
    a prefix once per candidate (seconds instead of milliseconds)."""
    table = RatingListToken._meta.db_table
    if connection.vendor == "postgresql":
        # One statement, no Python object per word (200,000 of them for the EGD list).
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (rating_list_id, entry_id, token) "
                "SELECT DISTINCT rating_list_id, id, unnest(string_to_array(name_key, ' ')) "
                f"FROM {RatingListEntry._meta.db_table} WHERE rating_list_id = %s",
                [rating_list.pk],
            )
    else:
        RatingListToken.objects.bulk_create(
            (
                RatingListToken(rating_list=rating_list, entry=e, token=w)
                for e in rows
                for w in set(e.name_key.split())
            ),
            batch_size=BATCH,
        )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {table}")


def search_lists(q: str) -> list[RatingListEntry]:
    """The list entries whose name has a word starting with each word typed (accents,
    case and order ignored), or whose federation id is the text typed."""
    text = q.strip()[:MAX_QUERY]
    found: dict[int, RatingListEntry] = {}
    if any(c.isdigit() for c in text):  # every federation id has digits; names rarely do
        by_id = RatingListEntry.objects.filter(federation_id=text).order_by()
        found |= {e.pk: e for e in by_id.select_related("rating_list")[:MAX_RESULTS]}
    words = sorted(set(search_words(text)), key=len, reverse=True)
    if words:
        # The words table first, the entries last, in one statement.  The longest word
        # (the rarest, as a rule) walks its index range; each other word is one probe of
        # the entry's own words.  A word that matches almost nothing ends the search at
        # once; common ones stop at the first 20 entries.  (Twice as many ids: an entry
        # may hold two words that start alike.)
        first, *more = words
        ids = _words_from(first)
        for w in more:
            ids = ids.filter(Exists(_words_from(w).filter(entry=OuterRef("entry"))))
        entries = RatingListEntry.objects.filter(
            pk__in=ids.values("entry")[: 2 * MAX_RESULTS]
        ).select_related("rating_list")
        for e in entries.order_by()[:MAX_RESULTS]:
            found.setdefault(e.pk, e)
    return sorted(found.values(), key=lambda e: (e.name_key, e.pk))[:MAX_RESULTS]


def _words_from(word: str) -> QuerySet[RatingListToken]:
    """The name words starting with ``word``: a range on the index (which any collation
    keeps in order for a folded word), checked as a prefix too."""
    after = word[:-1] + chr(min(ord(word[-1]) + 1, 0x10FFFF))
    return RatingListToken.objects.filter(
        token__gte=word, token__lt=after, token__startswith=word
    ).order_by()
