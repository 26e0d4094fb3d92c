"""Players and their clubs."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import Club, Player
from games.services import outbound
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import UNSET, Actor, Unset, require, validate_and_save
from ops.text import check_visible_text
from ratings.ranks import Rank, RankError

# What a player record holds, as player_create / player_update take it (also the
# columns of a players CSV file, in this order).
PLAYER_FIELDS = (
    "family_name",
    "given_name",
    "rank",
    "club",
    "country",
    "egd_pin",
    "aga_id",
    "nzgs_id",
)


def _rank(value: str | Rank) -> Rank:
    if isinstance(value, Rank):
        return value
    if not isinstance(value, str):
        raise ValidationError({"rank": "Enter a rank such as 3k, 2d or 9p+."})
    try:
        return Rank.parse(value)
    except RankError as e:
        raise ValidationError({"rank": f"{e}."}) from None


def _optional_id(value: str | int | None) -> str | None:
    """Blank ids are no id (the columns are unique, so blanks must be NULL)."""
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _club(value: Club | str | None, *, country: str) -> Club | None:
    """A club by name: the one in the player's country, else the only one of that name, else new."""
    if value is None or isinstance(value, Club):
        return value
    name = value.strip()
    if not name:
        return None
    if len(name) > Club._meta.get_field("name").max_length:  # type: ignore[operator]
        raise ValidationError({"club": "A club name has at most 100 characters."})
    same_country = Club.objects.filter(name__iexact=name, country=country).first()
    if same_country is not None:
        return same_country
    by_name = list(Club.objects.filter(name__iexact=name)[:2])
    if len(by_name) == 1:
        return by_name[0]
    club = Club(name=name, country=country)
    validate_and_save(club)
    return club


def _check_actor(actor: Actor) -> None:
    # ``actor=None`` is the operator running a management command (CSV import, demo data).
    if actor is not None:
        require(permissions.is_any_director(actor), "Only tournament directors can edit players.")


def _check_link(actor: Actor, user: Any) -> None:
    """Setting a player's account: a superuser (or the operator); a director invites instead."""
    if actor is not None and user is not None:
        require(
            permissions.can_link_account(actor),
            "Only a superuser links an account to a player: invite the player by e-mail instead.",
        )


def player_audit_value(player: Player) -> dict[str, Any]:
    """What the audit trail keeps of a player record."""
    return {
        "family_name": player.family_name,
        "given_name": player.given_name,
        "rank": str(Rank(player.declared_rank)),
        "club": player.club.name if player.club_id and player.club else None,
        "country": player.country,
        "egd_pin": player.egd_pin,
        "aga_id": player.aga_id,
        "nzgs_id": player.nzgs_id,
        "ffg_licence": player.ffg_licence,
        "user": player.user_id,
    }


@transaction.atomic
def player_create(
    *,
    actor: Actor,
    family_name: str,
    given_name: str = "",
    rank: str | Rank,
    club: Club | str | None = None,
    country: str = "",
    egd_pin: str | None = None,
    aga_id: str | None = None,
    nzgs_id: str | None = None,
    ffg_licence: str | None = None,
    user: Any = None,
) -> Player:
    _check_actor(actor)
    _check_link(actor, user)
    check_visible_text(family_name=family_name, given_name=given_name, club=club, country=country)
    country = (country or "").strip().upper()
    player = Player(
        family_name=(family_name or "").strip(),
        given_name=(given_name or "").strip(),
        declared_rank=_rank(rank).index,
        club=_club(club, country=country),
        country=country,
        egd_pin=_optional_id(egd_pin),
        aga_id=_optional_id(aga_id),
        nzgs_id=_optional_id(nzgs_id),
        ffg_licence=_optional_id(ffg_licence),
        user=user,
    )
    validate_and_save(player)
    audit_record(
        actor=actor, action=AuditAction.PLAYER_CREATED, obj=player, new=player_audit_value(player)
    )
    return player


@transaction.atomic
def player_update(
    *,
    actor: Actor,
    player: Player,
    family_name: str | Unset = UNSET,
    given_name: str | Unset = UNSET,
    rank: str | Rank | Unset = UNSET,
    club: Club | str | Unset | None = UNSET,
    country: str | Unset = UNSET,
    egd_pin: str | Unset | None = UNSET,
    aga_id: str | Unset | None = UNSET,
    nzgs_id: str | Unset | None = UNSET,
    ffg_licence: str | Unset | None = UNSET,
    user: Any = UNSET,
) -> Player:
    """Change the given fields only (``UNSET`` leaves a field alone); audited with the old
    and new values.  Directors edit the players of their own tournaments only."""
    _check_actor(actor)
    if actor is not None:
        require(
            permissions.can_edit_player(actor, player),
            "This player plays in other directors' tournaments: ask one of them, or a superuser.",
        )
    if user is not UNSET:
        _check_link(actor, True)
    check_visible_text(family_name=family_name, given_name=given_name, club=club, country=country)
    # The stored row, not the caller's copy (a form may have written onto it already).
    old = player_audit_value(Player.objects.select_related("club").get(pk=player.pk))
    changed: list[str] = []
    if family_name is not UNSET:
        player.family_name = (family_name or "").strip()
        changed.append("family_name")
    if given_name is not UNSET:
        player.given_name = (given_name or "").strip()
        changed.append("given_name")
    old_rank = player.declared_rank
    if rank is not UNSET and _rank(rank).index != old_rank:
        player.declared_rank = _rank(rank).index
        changed.append("declared_rank")
    if country is not UNSET:
        player.country = (country or "").strip().upper()
        changed.append("country")
    if club is not UNSET:
        player.club = _club(club, country=player.country)
        changed.append("club")
    ids = (("egd_pin", egd_pin), ("aga_id", aga_id), ("nzgs_id", nzgs_id))
    for name, value in (*ids, ("ffg_licence", ffg_licence)):
        if value is not UNSET:
            setattr(player, name, _optional_id(value))
            changed.append(name)
    if user is not UNSET:
        player.user = user
        changed.append("user")
    if changed:
        validate_and_save(player, update_fields=changed)
        new = player_audit_value(player)
        diff = [k for k in new if new[k] != old[k]]
        if diff:
            audit_record(
                actor=actor,
                action=AuditAction.PLAYER_UPDATED,
                obj=player,
                old={k: old[k] for k in diff},
                new={k: new[k] for k in diff},
            )
    if "declared_rank" in changed:
        # Every change of the official rank is in the rank history.
        outbound.rank_corrected(actor=actor, player=player, old_rank=old_rank)
    return player
