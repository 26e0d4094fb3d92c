"""Clubs: a name, an EGD code and a country that every player of the club shares.

Any director adds a club (on the admin, or by naming a new one on a player); changing
one changes what all its players show, so that is a federation official's, or a
director's while no player belongs to it yet (a typo just after adding it).  Names
and codes are visible text only (``ops.text``); every change is audited.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games import permissions
from games.models import Club
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import UNSET, Actor, StateConflict, Unset, require, validate_and_save
from ops.text import check_visible_text


def can_change_club(user: Any, club: Club) -> bool:
    """A federation official; a director, while no player belongs to the club."""
    if permissions.is_federation_official(user):
        return True
    return permissions.is_any_director(user) and not club.player_set.exists()


def club_audit_value(club: Club) -> dict[str, Any]:
    return {"name": club.name, "code": club.code, "country": club.country}


def _clean(name: Any, code: Any, country: Any) -> dict[str, Any]:
    check_visible_text(name=name, code=code, country=country)
    values = {"name": name, "code": code, "country": country}
    for key, value in values.items():
        if value is not UNSET and not isinstance(value, str):
            raise ValidationError({key: "Enter text."})
    cleaned = {k: v.strip() for k, v in values.items() if v is not UNSET}
    if "country" in cleaned:
        cleaned["country"] = cleaned["country"].upper()
    if "code" in cleaned:
        cleaned["code"] = cleaned["code"].upper()
    return cleaned


def _save(club: Club, update_fields: list[str] | None = None) -> None:
    try:
        with transaction.atomic():
            validate_and_save(club, update_fields=update_fields)
    except IntegrityError:
        # Checked by full_clean; a simultaneous request made the same club first.
        raise StateConflict(
            f"A club {club.name} in {club.country or 'no country'} exists."
        ) from None


@transaction.atomic
def club_create(*, actor: Actor, name: str, code: str = "", country: str = "") -> Club:
    if actor is not None:
        require(
            permissions.is_any_director(actor) or permissions.is_federation_official(actor),
            "Only tournament directors and federation officials add clubs.",
        )
    club = Club(**_clean(name, code, country))
    _save(club)
    audit_record(actor=actor, action=AuditAction.CLUB_CREATED, obj=club, new=club_audit_value(club))
    return club


@transaction.atomic
def club_update(
    *,
    actor: Actor,
    club: Club,
    name: str | Unset = UNSET,
    code: str | Unset = UNSET,
    country: str | Unset = UNSET,
) -> Club:
    """Change the given fields; audited with the old and new values."""
    if actor is not None:
        require(
            can_change_club(actor, club),
            "Players belong to this club: only a federation official changes it.",
        )
    club = Club.objects.select_for_update().get(pk=club.pk)
    old = club_audit_value(club)
    cleaned = _clean(name, code, country)
    for key, value in cleaned.items():
        setattr(club, key, value)
    changed = [k for k in cleaned if cleaned[k] != old[k]]
    if not changed:
        return club
    _save(club, update_fields=changed)
    audit_record(
        actor=actor,
        action=AuditAction.CLUB_UPDATED,
        obj=club,
        old={k: old[k] for k in changed},
        new={k: cleaned[k] for k in changed},
    )
    return club
