"""Players and their clubs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Model
from django.db.models.functions import Lower

from games import cache as page_cache
from games import permissions
from games.cache import PLAYERS
from games.models import Club, Player, Tournament
from games.people.engine.federation_ids import LABELS, PLAYER_ID_FIELDS
from games.people.engine.names import name_key
from games.people.services.clubs import club_create
from games.services import outbound
from ops.audit import audit_record, audit_record_many
from ops.models import AuditAction
from ops.pages import cache
from ops.services import (
    UNSET,
    Actor,
    StateConflict,
    Unset,
    as_user,
    require,
    validate_and_save,
)
from ops.text import check_visible_text
from ratings.ranks import Rank, RankError

# What a player record holds, as player_create / player_update take it (also the
# columns of a players CSV file, in this order).
PLAYER_FIELDS = ("family_name", "given_name", "rank", "club", "country", *PLAYER_ID_FIELDS)


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


def _club(value: Club | str | None, *, country: str, actor: Actor = None) -> Club | None:
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
    try:
        with transaction.atomic():
            return club_create(actor=actor, name=name, country=country)
    except StateConflict:
        # A simultaneous request added the same club first: use it.
        return Club.objects.get(name=name, country=country)


def check_player_writer(actor: Actor) -> None:
    # ``actor=None`` is the operator running a management command (CSV import, demo data).
    if actor is not None:
        require(
            permissions.is_any_director(actor) or permissions.is_federation_official(actor),
            "Only tournament directors and federation officials edit players.",
        )


def _check_link(actor: Actor, user: Any) -> None:
    """Setting a player's account: a superuser (or the operator); a director invites instead."""
    if actor is not None and user is not None:
        require(
            permissions.can_link_account(actor),
            "Only a superuser links an account to a player: invite the player by e-mail instead.",
        )


def _email(actor: Actor, player: Player | None, value: str | None) -> str:
    """The address on file: invitations go there only, so only a federation official or
    the player's own directors write it (a new player has no own director yet)."""
    if actor is not None:
        allowed = (
            permissions.is_federation_official(actor)
            if player is None
            else permissions.can_invite_player(actor, player)
        )
        require(
            allowed,
            "Only a federation official or the directors of the tournament that first "
            "entered this player put his e-mail address on file.",
        )
    email = (value or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ValidationError({"email": "Enter a valid e-mail address."}) from None
    return email


def player_audit_value(player: Player) -> dict[str, Any]:
    """What the audit trail keeps of a player record."""
    return {
        "family_name": player.family_name,
        "given_name": player.given_name,
        "rank": str(Rank(player.declared_rank)),
        "club": player.club.name if player.club_id and player.club else None,
        "country": player.country,
        **{f: getattr(player, f) for f in PLAYER_ID_FIELDS},
        "email": player.email,
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
    email: str = "",
    ffg_licence: str | None = None,
    user: Any = None,
) -> Player:
    check_player_writer(actor)
    _check_link(actor, user)
    email = _email(actor, None, email) if email else ""
    check_visible_text(family_name=family_name, given_name=given_name, club=club, country=country)
    country = (country or "").strip().upper()
    player = Player(
        family_name=(family_name or "").strip(),
        given_name=(given_name or "").strip(),
        declared_rank=_rank(rank).index,
        club=_club(club, country=country, actor=actor),
        country=country,
        egd_pin=_optional_id(egd_pin),
        aga_id=_optional_id(aga_id),
        nzgs_id=_optional_id(nzgs_id),
        email=email,
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
    email: str | Unset | None = UNSET,
    ffg_licence: str | Unset | None = UNSET,
    user: Any = UNSET,
) -> Player:
    """Change the given fields only (``UNSET`` leaves a field alone); audited with the old
    and new values.  Directors edit the players of their own tournaments only."""
    check_player_writer(actor)
    if actor is not None:
        require(
            permissions.can_edit_player(actor, player),
            "This player was first entered in another director's tournament: ask its "
            "directors, or a federation official.",
        )
    if email is not UNSET:
        email = _email(actor, player, email)
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
        player.club = _club(club, country=player.country, actor=actor)
        changed.append("club")
    ids = {"egd_pin": egd_pin, "ffg_licence": ffg_licence, "aga_id": aga_id, "nzgs_id": nzgs_id}
    for name in PLAYER_ID_FIELDS:
        value = ids[name]
        if value is not UNSET:
            setattr(player, name, _optional_id(value))
            changed.append(name)
    if email is not UNSET:
        player.email = email or ""
        changed.append("email")
    if user is not UNSET:
        if player.user_id is not None:  # the account he leaves no longer names him
            cache.touch(page_cache.user(player.user_id))
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


# --------------------------------------------------------------------------- in bulk


class RowErrors(ValidationError):
    """A bulk create refused: ``rows`` maps each failing row's position to its errors."""

    def __init__(self, rows: dict[int, dict[str, list[str]]]) -> None:
        super().__init__(f"{len(rows)} row(s) cannot be created.")
        self.rows = rows


def _row_messages(exc: ValidationError) -> dict[str, list[str]]:
    if hasattr(exc, "error_dict"):
        return {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
    return {"__all__": [str(m) for m in exc.messages]}


def _new_player(row: Mapping[str, Any]) -> tuple[Player, str]:
    """An unsaved player from ``row`` (the keys of ``PLAYER_FIELDS``) checked as
    ``player_create`` checks one, except the unique ids; and the club's name."""
    text = {k: row.get(k) or "" for k in PLAYER_FIELDS if k != "rank"}
    check_visible_text(**text)
    club = str(text["club"]).strip()
    if len(club) > Club._meta.get_field("name").max_length:  # type: ignore[operator]
        raise ValidationError({"club": "A club name has at most 100 characters."})
    player = Player(
        family_name=str(text["family_name"]).strip(),
        given_name=str(text["given_name"]).strip(),
        declared_rank=_rank(row.get("rank") or "").index,
        country=str(text["country"]).strip().upper(),
        **{f: _optional_id(row.get(f)) for f in PLAYER_ID_FIELDS},
        claimed_ids=dict(row.get("claimed_ids") or {}),
    )
    player.full_clean(exclude=["club", "user"], validate_unique=False)
    # What save() keeps in step, for a player written by bulk_create (which skips save()).
    player.name_key = name_key(player.family_name, player.given_name)
    return player, club


def _unique_ids(players: list[tuple[int, Player, str]], errors: dict[int, Any]) -> None:
    """The unique ids, checked for the whole file at once: one query per column."""
    for column, label in LABELS.items():
        first: dict[str, int] = {}
        for i, player, _ in players:
            value = getattr(player, column)
            if value is None:
                continue
            if value in first:
                errors.setdefault(i, {}).setdefault(column, []).append(
                    f"The {label} {value} is also on an earlier row."
                )
            else:
                first[value] = i
        taken = Player.objects.filter(**{f"{column}__in": list(first)}).values_list(
            column, flat=True
        )
        for value in taken:
            errors.setdefault(first[value], {}).setdefault(column, []).append(
                f"A player with the {label} {value} exists."
            )


def _clubs_for(actor: Actor, players: list[tuple[int, Player, str]]) -> None:
    """Each player's club as ``_club`` picks it (same country, else the only one of that
    name, else new), with one query for the existing clubs and one insert for the new."""
    names = {name.lower() for _, _, name in players if name}
    existing: dict[str, list[Club]] = {}
    for club in Club.objects.annotate(lower=Lower("name")).filter(lower__in=names):
        existing.setdefault(club.name.lower(), []).append(club)
    new: dict[tuple[str, str], Club] = {}
    for _, player, name in players:
        if not name:
            continue
        found = existing.get(name.lower(), [])
        same_country = [c for c in found if c.country == player.country]
        if same_country:
            player.club = same_country[0]
        elif len(found) == 1:
            player.club = found[0]
        else:
            key = (name.lower(), player.country)
            if key not in new:
                new[key] = Club(name=name, country=player.country)
            player.club = new[key]
    if new:
        Club.objects.bulk_create(list(new.values()))
        audit_record_many(
            actor=actor,
            action=AuditAction.CLUB_CREATED,
            rows=[
                (c, None, {"name": c.name, "code": c.code, "country": c.country})
                for c in new.values()
            ],
        )
        cache.changed(next(iter(new.values())))


@transaction.atomic
def players_create_bulk(*, actor: Actor, rows: Sequence[Mapping[str, Any]]) -> list[Player]:
    """Create a player per row (a CSV import), all or none: each row is checked as
    ``player_create`` checks one, then all are written in a few bulk inserts and audited,
    so thousands of rows take seconds, not a web thread's minute.  ``RowErrors`` names
    every failing row by its position in ``rows``."""
    check_player_writer(actor)
    errors: dict[int, dict[str, list[str]]] = {}
    players: list[tuple[int, Player, str]] = []
    for i, row in enumerate(rows):
        try:
            player, club = _new_player(row)
        except ValidationError as exc:
            errors[i] = _row_messages(exc)
            continue
        players.append((i, player, club))
    _unique_ids(players, errors)
    if errors:
        raise RowErrors(errors)
    _clubs_for(actor, players)
    created = Player.objects.bulk_create([p for _, p, _ in players], batch_size=1000)
    audit_record_many(
        actor=actor,
        action=AuditAction.PLAYER_CREATED,
        rows=[(p, None, player_audit_value(p)) for p in created],
    )
    if created:
        # New players have no page cached yet: only the lists that show players change
        # (changed() would run a query per player to find events they have none of).
        cache.touch(PLAYERS)
    return created


@transaction.atomic
def players_email_fill(*, actor: Actor, rows: Sequence[tuple[Player, str]]) -> list[Player]:
    """Put an address on file (an entries CSV's e-mail column) for each player who has
    none and whose address ``actor`` may write (a federation official, or the player's
    own directors: ``_email``); others are left as they are.  A few queries whatever the
    number of rows, audited as updates.  The players filled are returned."""
    wanted = {p.pk: (p, email.strip()) for p, email in rows if email.strip() and not p.email}
    if not wanted:
        return []
    for _, email in wanted.values():
        try:
            validate_email(email)
        except ValidationError:
            raise ValidationError({"email": f"{email!r} is not an e-mail address."}) from None
    official = actor is None or permissions.is_federation_official(actor)
    own = permissions.own_tournament_ids([p for p, _ in wanted.values()])
    directed = (
        set()
        if official
        else set(
            Tournament.objects.filter(
                pk__in=set(own.values()), directors=as_user(actor)
            ).values_list("pk", flat=True)
        )
    )
    filled: list[tuple[Model, Any, Any]] = []
    for pk, (player, email) in wanted.items():
        if not official and own.get(pk) not in directed:
            continue
        old = player_audit_value(player)
        player.email = email
        filled.append((player, old, player_audit_value(player)))
    players = [p for p, _, _ in filled if isinstance(p, Player)]
    Player.objects.bulk_update(players, ["email"], batch_size=1000)
    audit_record_many(actor=actor, action=AuditAction.PLAYER_UPDATED, rows=filled)
    return players
