"""Players and their clubs."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import Club, Player
from games.services import outbound
from ops.services import UNSET, Actor, Unset, require, validate_and_save
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
    user: Any = None,
) -> Player:
    _check_actor(actor)
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
        user=user,
    )
    validate_and_save(player)
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
    user: Any = UNSET,
) -> Player:
    """Change the given fields only (``UNSET`` leaves a field alone)."""
    _check_actor(actor)
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
    for name, value in (("egd_pin", egd_pin), ("aga_id", aga_id), ("nzgs_id", nzgs_id)):
        if value is not UNSET:
            setattr(player, name, _optional_id(value))
            changed.append(name)
    if user is not UNSET:
        player.user = user
        changed.append("user")
    if changed:
        validate_and_save(player, update_fields=changed)
    if "declared_rank" in changed:
        # Every change of the official rank is in the rank history.
        outbound.rank_corrected(actor=actor, player=player, old_rank=old_rank)
    return player
