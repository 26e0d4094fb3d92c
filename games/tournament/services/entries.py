"""Entries: a player's registration in a tournament and his part in each round.

Rank, rating, club and country are copied from the player when he is entered; the
directors may correct them at any time until the close, after the start with the rounds
already paired named (docs/tournaments.md, "Entries" and "Corrections during an event").
Withdrawal is absence from a round on.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from games import permissions
from games.models import Game, Player, Presence, Tournament, TournamentEntry
from games.people.engine.federation_ids import ID_FIELDS, RatingListRow
from games.people.services.matching import EntrantError, players_identify
from games.services import outbound
from games.tournament.engine.model import Entrant
from ops.audit import audit_record, audit_record_many
from ops.models import AuditAction
from ops.pages import cache
from ops.services import UNSET, Actor, StateConflict, Unset, require, validate_and_save
from ops.text import check_visible_text
from ratings.ranks import MIN_INDEX, Rank, RankError

MAX_ROUNDS = 64  # the participation field's length: one letter per round

# The entry's values that the rounds to come read (handicaps, McMahon start scores,
# the pairing order); club, country and status are the entry's own.
CORRECTED = ("rank", "rating", "smms_correction")
# What a correction changes in the rounds to come, as codes the pages put in words
# (games.messages.correction_warning).
HANDICAPS, MCMAHON_START, PAIRING_ORDER = "handicaps", "mcmahon_start", "pairing_order"


@dataclass(frozen=True)
class CorrectionEffect:
    """What a correction after the start changes: the rounds already paired keep their
    games and handicaps; ``changes`` says what the later rounds (and, for the McMahon
    start score, the standings of every round) read differently."""

    paired_rounds: tuple[int, ...]
    changes: tuple[str, ...]

    def audit(self) -> dict[str, Any]:
        return {"paired_rounds": list(self.paired_rounds), "changes": list(self.changes)}


def correction_effect(tournament: Tournament, fields: Iterable[str]) -> CorrectionEffect | None:
    """The effect of changing ``fields`` of an entry of ``tournament`` now; ``None`` before
    the start or when none of them is read by the rounds (one query)."""
    changed = set(fields) & set(CORRECTED)
    if not tournament.is_started or not changed:
        return None
    paired = tuple(
        sorted(
            set(Game.objects.filter(tournament=tournament).values_list("round__number", flat=True))
        )
    )
    handicapped = tournament.handicap_policy != "none" and tournament.handicap_cap != 0
    # Which entry values each policy's handicap reads (ratings.handicap): New Zealand's the
    # rating difference, the others the ranks (OpenGotha's McMahon rule, through the MMS).
    reads = {"rank", "rating"} if tournament.handicap_policy == "nz" else {"rank"}
    if tournament.handicap_policy == "mcmahon":
        reads |= {"smms_correction"}
    changes = []
    if handicapped and changed & reads:
        changes.append(HANDICAPS)
    if tournament.system == "mcmahon" and changed & {"rank", "smms_correction"}:
        changes.append(MCMAHON_START)
    if "rating" in changed:
        changes.append(PAIRING_ORDER)
    return CorrectionEffect(paired, tuple(changes))


def check_director(actor: Actor, tournament: Tournament) -> None:
    if actor is not None:
        require(
            permissions.is_director(actor, tournament),
            "Only its directors can change a tournament's entries.",
        )


def check_open(tournament: Tournament, message: str) -> None:
    """Refuse a change to a closed tournament (read from the database, not the instance)."""
    if Tournament.objects.filter(pk=tournament.pk, closed_at__isnull=False).exists():
        raise StateConflict(message)


def check_open_entries(tournament: Tournament) -> None:
    check_open(tournament, "This tournament is closed: its entries no longer change.")


def entry_rank(value: object) -> int:
    """A rank as text ("3k") or a ladder index, as an index."""
    if isinstance(value, bool):
        raise ValidationError({"rank": "Enter a rank such as 3k or 2d."})
    try:
        if isinstance(value, int):
            return Rank(value).index
        if isinstance(value, str):
            return Rank.parse(value).index
    except RankError as e:
        raise ValidationError({"rank": f"{e}."}) from None
    raise ValidationError({"rank": "Enter a rank such as 3k or 2d."})


def entry_rating(value: object) -> int | None:
    """A rating given for an entry, checked: a whole number from -1000 to 4000, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValidationError({"rating": "A rating is a whole number (or empty)."})
    rating = round(value)
    if not -1000 <= rating <= 4000:
        raise ValidationError({"rating": "A rating is between -1000 and 4000."})
    return rating


def _current_rating(player: Player) -> int | None:
    rating = outbound.player_strength(player).rating
    return None if rating is None else round(rating)


@transaction.atomic
def entry_add(
    *,
    actor: Actor,
    tournament: Tournament,
    player: Player,
    rank: int | str | None = None,
    rating: int | float | Unset | None = UNSET,
    club: str | None = None,
    country: str | None = None,
    final: bool = True,
    smms_correction: int = 0,
    family_name: str = "",
    given_name: str = "",
) -> TournamentEntry:
    """Enter ``player``; what is not given is copied from him (his declared rank, his
    current rating, club and country, and his name unless a list spells it)."""
    check_director(actor, tournament)
    check_open_entries(tournament)
    check_visible_text(club=club, country=country)
    entry = TournamentEntry(
        tournament=tournament,
        player=player,
        family_name=family_name.strip() or player.family_name,
        given_name=given_name.strip() if family_name.strip() else player.given_name,
        rank=player.declared_rank if rank is None else entry_rank(rank),
        rating=_current_rating(player) if rating is UNSET else entry_rating(rating),
        club=(player.club.name if player.club is not None else "")
        if club is None
        else club.strip(),
        country=player.country if country is None else country.strip().upper(),
        final=final,
        smms_correction=smms_correction,
    )
    try:
        with transaction.atomic():
            validate_and_save(entry)
    except IntegrityError:
        raise ValidationError({"player": "This player is already entered."}) from None
    audit_record(
        actor=actor,
        action=AuditAction.ENTRY_ADDED,
        obj=entry,
        new={"player": player.pk, "rank": entry.rank, "rating": entry.rating},
    )
    return entry


@dataclass(frozen=True)
class NewEntry:
    """One line of a file of entries: the player as matched, and the line's values."""

    line: int
    player: Player
    rank: int
    rating: int | Unset | None  # UNSET: the player's current rating
    club: str
    country: str
    # The line's spelling of the player (blank: the player's own name).
    family_name: str = ""
    given_name: str = ""


def entries_add_many(*, actor: Actor, tournament: Tournament, rows: list[NewEntry]) -> int:
    """``entry_add`` for a file of players: the same checks and copies, written and audited
    in bulk (a few queries per file, not per line).  A wrong line is a ``ValidationError``
    naming it; the caller's transaction takes back everything."""
    check_director(actor, tournament)
    check_open_entries(tournament)
    ids = [r.player.pk for r in rows]
    entered = set(
        TournamentEntry.objects.filter(tournament=tournament, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    ratings = outbound.player_ratings(ids)
    seen: set[int] = set()
    entries = []
    for row in rows:
        if row.player.pk in entered or row.player.pk in seen:
            raise ValidationError(f"Line {row.line}: {row.player} is already entered.")
        seen.add(row.player.pk)
        current = ratings.get(row.player.pk)
        rating = (
            (None if current is None else round(current)) if row.rating is UNSET else row.rating
        )
        entry = TournamentEntry(
            tournament=tournament,
            player=row.player,
            family_name=row.family_name or row.player.family_name,
            given_name=row.given_name if row.family_name else row.player.given_name,
            rank=row.rank,
            rating=rating,
            club=row.club.strip()
            if row.club
            else (row.player.club.name if row.player.club is not None else ""),
            country=row.country.strip().upper() if row.country else row.player.country,
            final=True,
        )
        try:
            check_visible_text(club=entry.club, country=entry.country)
            entry.full_clean(exclude=["tournament", "player"], validate_unique=False)
        except ValidationError as exc:
            raise ValidationError(f"Line {row.line}: {' '.join(exc.messages)}") from None
        entries.append(entry)
    TournamentEntry.objects.bulk_create(entries, batch_size=1000)
    audit_record_many(
        actor=actor,
        action=AuditAction.ENTRY_ADDED,
        rows=[
            (e, None, {"player": e.player_id, "rank": e.rank, "rating": e.rating}) for e in entries
        ],
    )
    cache.changed_many(entries)
    return len(entries)


@transaction.atomic
def entry_update(
    *,
    actor: Actor,
    entry: TournamentEntry,
    rank: int | str | Unset = UNSET,
    rating: int | float | Unset | None = UNSET,
    club: str | Unset = UNSET,
    country: str | Unset = UNSET,
    final: bool | Unset = UNSET,
    smms_correction: int | Unset = UNSET,
) -> TournamentEntry:
    """Correct an entry.  After the start, a change of rank, rating or McMahon correction
    is audited with the rounds already paired and what it changes in the later ones
    (``corrections.correction_effect``); those rounds keep their games."""

    tournament = entry.tournament
    check_director(actor, tournament)
    check_open_entries(tournament)
    check_visible_text(club=club, country=country)
    entry = TournamentEntry.objects.select_for_update().get(pk=entry.pk)
    values = {
        "rank": UNSET if rank is UNSET else entry_rank(rank),
        "rating": UNSET if rating is UNSET else entry_rating(rating),
        "club": UNSET if club is UNSET else club.strip(),
        "country": UNSET if country is UNSET else country.strip().upper(),
        "final": final,
        "smms_correction": smms_correction,
    }
    old, new = {}, {}
    for name, value in values.items():
        if value is UNSET or getattr(entry, name) == value:
            continue
        old[name], new[name] = getattr(entry, name), value
        setattr(entry, name, value)
    if new:
        validate_and_save(entry, update_fields=list(new))
        effect = correction_effect(tournament, new)
        audited = new if effect is None else {**new, **effect.audit()}
        audit_record(actor=actor, action=AuditAction.ENTRY_CHANGED, obj=entry, old=old, new=audited)
    return entry


def _player_games(entry: TournamentEntry, rounds: list[int]) -> list[int]:
    """The round numbers among ``rounds`` where the entry's player has a game."""
    return sorted(
        set(
            Game.objects.filter(tournament_id=entry.tournament_id, round__number__in=rounds)
            .filter(Q(black_id=entry.player_id) | Q(white_id=entry.player_id))
            .values_list("round__number", flat=True)
        )
    )


def _check_round(tournament: Tournament, number: object) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValidationError({"round": "A round number is a whole number from 1."})
    last = max(tournament.number_of_rounds, 1)
    if number > min(last, MAX_ROUNDS):
        raise ValidationError({"round": f"This tournament has {last} rounds."})
    return number


def _with_presence(participation: str, number: int, presence: str) -> str:
    letters = list(participation.ljust(number, Presence.PLAY))
    letters[number - 1] = presence
    return "".join(letters).rstrip(Presence.PLAY)


@transaction.atomic
def entry_participation_set(
    *, actor: Actor, entry: TournamentEntry, round_number: int, presence: str
) -> TournamentEntry:
    """Mark the player playing, absent or given a bye in one round (the check-in grid).

    A player with a game in that round stays playing: remove the game first."""
    tournament = entry.tournament
    check_director(actor, tournament)
    check_open_entries(tournament)
    number = _check_round(tournament, round_number)
    if presence not in Presence.values:
        raise ValidationError({"presence": "Choose p (playing), a (absent) or b (bye)."})
    entry = TournamentEntry.objects.select_for_update().get(pk=entry.pk)
    old = entry.presence(number)
    if old == presence:
        return entry
    if presence != Presence.PLAY and _player_games(entry, [number]):
        raise StateConflict(
            f"{entry.player} has a game in round {number}: remove it before marking him "
            f"{Presence(presence).label}."
        )
    entry.participation = _with_presence(entry.participation, number, presence)
    validate_and_save(entry, update_fields=["participation"])
    audit_record(
        actor=actor,
        action=AuditAction.ENTRY_PARTICIPATION,
        obj=entry,
        old={"round": number, "presence": old},
        new={"round": number, "presence": presence},
    )
    return entry


@transaction.atomic
def entry_withdraw(*, actor: Actor, entry: TournamentEntry, from_round: int) -> TournamentEntry:
    """The player withdraws: absent from ``from_round`` to the last round."""
    tournament = entry.tournament
    check_director(actor, tournament)
    check_open_entries(tournament)
    first = _check_round(tournament, from_round)
    rounds = list(range(first, tournament.number_of_rounds + 1))
    played = _player_games(entry, rounds)
    if played:
        raise StateConflict(
            f"{entry.player} already has a game in round {played[0]}: withdraw him from a "
            "later round, or remove that game first."
        )
    entry = TournamentEntry.objects.select_for_update().get(pk=entry.pk)
    old = entry.participation
    letters = list(old.ljust(tournament.number_of_rounds, Presence.PLAY))
    for number in rounds:
        letters[number - 1] = Presence.ABSENT
    entry.participation = "".join(letters).rstrip(Presence.PLAY)
    validate_and_save(entry, update_fields=["participation"])
    audit_record(
        actor=actor,
        action=AuditAction.ENTRY_WITHDRAWN,
        obj=entry,
        old={"participation": old},
        new={"participation": entry.participation, "from_round": first},
    )
    return entry


@transaction.atomic
def entry_remove(*, actor: Actor, entry: TournamentEntry) -> None:
    """Take back a registration made by mistake: only while the player has no game here."""
    check_director(actor, entry.tournament)
    check_open_entries(entry.tournament)
    if _player_games(entry, list(range(1, MAX_ROUNDS + 1))):
        raise StateConflict(f"{entry.player} has games here: withdraw him instead.")
    audit_record(
        actor=actor,
        action=AuditAction.ENTRY_REMOVED,
        obj=entry,
        old={"player": entry.player_id, "rank": entry.rank, "participation": entry.participation},
    )
    entry.delete()
    cache.changed(entry)  # the tournament's page no longer lists him


def entry_for(tournament: Tournament, player: Player, *, field_name: str) -> TournamentEntry:
    """The player's entry, or a clear error: only entered players are paired."""
    entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        raise ValidationError(
            {field_name: f"{player} is not entered in {tournament}: enter him first."}
        )
    return entry


@dataclass(frozen=True)
class ListedEntry:
    """A player entered from a rating list: his entry, whether he was already goref's
    player (else created) and how many pairs went to the review list."""

    entry: TournamentEntry
    linked: bool
    review: int


def entry_add_from_list(*, actor: Actor, tournament: Tournament, row: RatingListRow) -> ListedEntry:
    """``_enter_listed`` in its own transaction; a race on the player's id is a 409."""
    try:
        return _enter_listed(actor=actor, tournament=tournament, row=row)
    except IntegrityError:
        raise StateConflict(
            "Another write took this player's id at the same moment: retry."
        ) from None


@transaction.atomic
def _enter_listed(*, actor: Actor, tournament: Tournament, row: RatingListRow) -> ListedEntry:
    """Enter the player a list row names: the goref player his federation id or name says
    he is (docs/tournaments.md, "One person across events"), else a new one, with the
    list's rank, rating, club and country on the entry."""
    check_director(actor, tournament)
    ids = dict.fromkeys(ID_FIELDS, "") | {row.id_field: row.federation_id}
    entrant = Entrant(
        id=1,
        family_name=row.family_name,
        given_name=row.given_name,
        rank=row.rank if row.rank is not None else MIN_INDEX,
        rating=row.rating or 0,
        club=row.club,
        country=row.country,
        egd_pin=ids["egd_pin"],
        ffg_licence=ids["ffg_licence"],
        aga_id=ids["aga_id"],
    )
    try:
        who = players_identify(actor=actor, entrants=[entrant], tournament=tournament)
    except EntrantError as exc:
        raise ValidationError({"player": exc.text}) from None
    (player,) = who.players
    entry = entry_add(
        actor=actor,
        tournament=tournament,
        player=player,
        rank=row.rank,
        rating=row.rating,
        club=row.club,
        country=row.country if len(row.country) == 2 else "",
        family_name=row.family_name,
        given_name=row.given_name,
    )
    return ListedEntry(entry, who.linked[0], who.review)
