"""The files a director imports, each in one transaction (docs/tournaments.md, "Files"
and "Entries").

A tournament file (OpenGotha XML, EGF ``.h9``) becomes a new tournament: a file that
cannot be read imports nothing; a player who cannot be told apart from another is created
and put on the review list.  An entries CSV enters its players in a tournament: each row
is matched by the same rules (``identity``: federation id, then name; never rank or
club), or created, and entered with the row's rank, rating, club and country; one row
wrong and nothing is entered, the row named.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games import permissions
from games.models import Game, GameState, Player, ResultReason, Round, Tournament, TournamentEntry
from games.people.engine.federation_ids import ID_FIELDS
from games.people.services.matching import EntrantError, players_identify
from games.people.services.players import players_email_fill
from games.services import outbound
from games.tournament.engine.formats import aga, egf, ffg, opengotha
from games.tournament.engine.formats.text import clean
from games.tournament.engine.model import Entrant, Event, Outcome, Presence
from games.tournament.engine.pairing import PairingParams
from games.tournament.engine.timesystem import time_system_of
from games.tournament.services.entries import NewEntry, entries_add_many, entry_rating
from games.tournament.services.teams import teams_import
from games.tournament.services.tournaments import before_window, tournament_create
from ops.audit import audit_record
from ops.models import AuditAction
from ops.pages import cache
from ops.services import Actor, StateConflict
from ratings.ranks import MAX_INDEX, Rank, RankError

HANDICAP_KOMI = Decimal("0.5")  # OpenGotha's komi for a handicap game
KOMI_RULES = {Decimal("6.5"): "japanese", Decimal("7.5"): "chinese", Decimal("7"): "nz"}
EGF_CLASSES = ("A", "B", "C", "D", "X")
PRESENCE_LETTER = {Presence.PLAY: "p", Presence.ABSENT: "a", Presence.BYE: "b"}


@dataclass(frozen=True)
class ImportResult:
    tournament: Tournament
    players: int
    games: int
    new_players: int  # created
    linked: int = 0  # matched to a player goref already had
    review: int = 0  # pairs put on the review list ("possible duplicate")
    held: bool = False  # a past rated event a director imported: waits for an official

    @property
    def review_url(self) -> str:
        """The review page of this tournament's possible duplicates."""
        return reverse("games:duplicates") + f"?tournament={self.tournament.pk}"


# The formats a director imports, recognised from the file's content, and their names in
# a refusal.
FORMAT_NAMES = {
    "opengotha": "OpenGotha file",
    "egf": "EGF results (.h9) file",
    "ffg": "FFG results (.tou) file",
    "aga": "AGA results file",
}


def _format_of(data: bytes) -> str | None:
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:200]
    if head.startswith((b"<", b"\xff\xfe<", b"\xfe\xff\x00<", b"\x00<")):
        return "opengotha"
    # The text formats are read as ISO-8859-15, which decodes any bytes.
    text = data[:20000].decode("iso8859_15")
    if aga.looks_like_aga(text):
        return "aga"
    if ffg.looks_like_tou(text):
        return "ffg"
    if head.startswith(b";"):
        return "egf"
    return None


def read_event(data: bytes) -> tuple[str, Event]:
    """The file's format (recognised from its content) and its event; ``ValidationError``
    naming the format and the element or line at fault: nothing is imported."""
    fmt = _format_of(data)
    readers = {
        "opengotha": opengotha.read,
        "egf": lambda d: egf.h9_event(egf.read_h9(d)),
        "ffg": ffg.read_tou,
        "aga": aga.read_aga,
    }
    if fmt is None:
        raise ValidationError(
            {
                "file": "Not a tournament file: expected OpenGotha XML, EGF results (.h9), "
                "FFG results (.tou) or an AGA results file."
            }
        )
    try:
        return fmt, readers[fmt](data)
    except opengotha.FileFormatError as e:
        raise ValidationError({"file": f"This {FORMAT_NAMES[fmt]} cannot be read: {e}"}) from None


def _result_fields(outcome: Outcome, by_default: bool) -> dict[str, Any]:
    if outcome is Outcome.UNKNOWN:
        return {"state": GameState.SCHEDULED}
    locked = {"state": GameState.FINAL, "locked_at": timezone.now()}
    if outcome is Outcome.JIGO:
        return {**locked, "result_reason": ResultReason.DRAW}
    if outcome is Outcome.BOTH_LOSE:
        return {**locked, "result_reason": ResultReason.VOID}
    if outcome is Outcome.BOTH_WIN:
        return {**locked, "result_reason": ResultReason.BOTH_WIN}
    reason = ResultReason.FORFEIT if by_default else ResultReason.SCORE
    return {**locked, "result_winner": outcome.value, "result_reason": reason}


def _settings_of(event: Event) -> dict[str, Any]:
    """The tournament's settings from the file's: OpenGotha's handicap rule (McMahon-score
    or rank based) with the file's ceiling, correction, threshold and basis."""
    s = event.settings
    return {
        "system": s.system.value,
        "number_of_rounds": max(s.rounds, 1),
        "mm_bar": s.mm_bar,
        "mm_floor": min(s.mm_floor, s.mm_bar),
        "nbw2_absent": s.nbw2_absent,
        "nbw2_bye": s.nbw2_bye,
        "mms2_absent": s.mms2_absent,
        "mms2_bye": s.mms2_bye,
        "round_down": s.round_down,
        "count_not_played_as_half": s.count_not_played_as_half,
        "criteria": list(s.criteria),
        "category_limits": list(s.category_limits),
        "handicap_policy": "mcmahon",
        "handicap_cap": max(0, min(s.hd_ceiling, 25)),
        "handicap_correction": max(-3, min(s.hd_correction, 9)),
        "handicap_threshold": s.hd_no_hd_rank_threshold,
        "handicap_based_on_mms": s.hd_based_on_mms,
        "egf_class": _egf_class(event),
    }


def _egf_class(event: Event) -> str:
    """The class the file states (an .h9's CL[]), else the one OpenGotha derives from the
    file's time system; "A" when there is nothing to derive it from."""
    if event.egf_class in EGF_CLASSES:
        return event.egf_class
    if not event.extra:
        return "A"
    return time_system_of(event.extra).egf_class()


def rules_for(event: Event) -> str:
    """The rule set: OpenGotha's file names none, so the preset whose komi is the file's
    (6.5 Japanese, 7.5 Chinese, 7 New Zealand); the file's komi is kept whatever it is."""
    return KOMI_RULES.get(event.komi, "japanese")


def _time_control(extra: dict[str, str]) -> str:
    return time_system_of(extra).describe()[:100] if extra else ""


RACE = (
    "Another import or edit wrote the same players at the same moment; nothing was "
    "imported: import the file again."
)


def tournament_import(*, actor: Actor, data: bytes, name: str = "") -> ImportResult:
    """``_import`` in its own transaction; a race with another write of the same players
    (a unique id taken meanwhile) is a 409 with nothing imported, never a 500."""
    try:
        return _import(actor=actor, data=data, name=name)
    except IntegrityError:
        raise StateConflict(RACE) from None


@transaction.atomic
def _import(*, actor: Actor, data: bytes, name: str = "") -> ImportResult:
    """A new tournament from a file's players, settings, rounds, games, byes and absences.

    Each file player is linked to the goref player his federation id or name says he is;
    where that is not certain a new player is created and the pair put on the review list
    (``identity``): a file is never refused for who its players are."""
    fmt, event = read_event(data)
    try:
        PairingParams.from_opengotha(event.pairing, event.settings.system)
    except ValueError as error:
        raise ValidationError({"file": str(error)}) from None
    today = dt.date.today()
    start = event.begin_date or today
    tournament = tournament_create(
        actor=actor,
        name=clean(name or event.name or "Imported tournament")[:200],
        start_date=start,
        end_date=max(event.end_date or start, start),
        rules="aga" if fmt == "aga" else rules_for(event),
        board_size=event.board_size,
        komi=event.komi,
        venue=clean(event.location)[:200],
        time_control=_time_control(event.extra),
        rated=_egf_class(event) != "X",
        settings=_settings_of(event),
        short_name=clean(event.short_name)[:100],
        director_name=clean(event.director).strip()[:200],
        time_system=dict(event.extra),
        past_held=True,  # a past event is held below, never refused
    )
    tournament.pairing_params = dict(event.pairing)
    tournament.file_options = {k: dict(v) for k, v in event.options.items()}
    tournament.save(update_fields=["pairing_params", "file_options"])

    try:
        who = players_identify(actor=actor, entrants=event.entrants, tournament=tournament)
    except EntrantError as exc:
        e = exc.entrant
        raise ValidationError(
            {"file": f"Player {e.family_name} {e.given_name}: {exc.text}"}
        ) from None
    players = {e.id: p for e, p in zip(event.entrants, who.players, strict=True)}
    held = _hold_if_past(actor, tournament, who.players)
    entries = [_entry(tournament, e, players[e.id], fmt) for e in event.entrants]
    TournamentEntry.objects.bulk_create(entries, batch_size=1000)
    cache.changed_many(entries)
    linked, flagged = who.linked_count, who.review

    numbers = sorted({g.round for g in event.games})
    rounds = dict(
        zip(
            numbers,
            Round.objects.bulk_create(Round(tournament=tournament, number=n) for n in numbers),
            strict=True,
        )
    )
    games = []
    for g in event.games:
        games.append(
            Game(
                tournament=tournament,
                round=rounds[g.round],
                table=g.table,
                black=players[g.black],
                white=players[g.white],
                handicap=g.handicap,
                known_color=g.known_color,
                komi=tournament.komi if g.handicap == 0 else HANDICAP_KOMI,
                rules=tournament.rules,
                **_result_fields(g.outcome, g.by_default),
            )
        )
    _check_tables(games)
    Game.objects.bulk_create(games)
    teams = teams_import(tournament, event, players)
    if games:
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["started_at"])
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_IMPORTED,
        obj=tournament,
        new={
            "format": fmt,
            "players": len(players),
            "games": len(games),
            "linked": linked,
            "created": len(players) - linked,
            "review": flagged,
            "teams": teams,
            **({"held_for_official": True} if held else {}),
        },
    )
    return ImportResult(
        tournament, len(players), len(games), len(players) - linked, linked, flagged, held
    )


def _hold_if_past(actor: Actor, tournament: Tournament, players: list[Player]) -> bool:
    """A director's import of a rated event that ends before the window, or before one of
    its players' last rated event, is kept (a file is history) but held from the ratings
    for a federation official's release; an official's import is not held."""
    if actor is None or permissions.is_federation_official(actor) or not tournament.rated:
        return False
    last = outbound.ratings_last_rated([p.pk for p in players], excluding=tournament.pk)
    if not before_window(tournament) and all(d <= tournament.end_date for d in last.values()):
        return False
    outbound.tournament_imported_past(actor=actor, tournament=tournament)
    return True


def _entry(tournament: Tournament, e: Entrant, player: Player, fmt: str) -> TournamentEntry:
    """The file's entry, checked as ``validate_and_save`` checks one but without its
    per-row queries (the tournament is new, each player appears once)."""
    entry = TournamentEntry(
        tournament=tournament,
        player=player,
        rank=e.rank,
        # An .h9 line carries no rating: none, rather than an invented one.
        rating=e.rating if fmt == "opengotha" else None,
        club=e.club[:100],
        country=e.country.upper()[:2],
        final=e.final,
        smms_correction=e.smms_correction,
        participation="".join(PRESENCE_LETTER[p] for p in e.presence).rstrip("p"),
        # The file's own spelling, whatever the linked player is called: its exports write it.
        family_name=e.family_name[:80],
        given_name=e.given_name[:80],
        rating_origin=e.rating_origin.strip()[:100],
        file_values=dict(e.file_values),
    )
    try:
        entry.full_clean(
            exclude=["tournament", "player"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        text = " ".join(exc.messages)
        spelt = f"{e.family_name} {e.given_name}".strip()
        raise ValidationError({"file": f"Player {spelt}: {text}"}) from None
    return entry


def _check_tables(games: list[Game]) -> None:
    """Two games at one table of a round: OpenGotha renumbers, goref's constraint refuses."""
    seen: set[tuple[int, int]] = set()
    for g in games:
        if g.table is None:
            continue
        key = (g.round.number, g.table)
        if key in seen:
            g.table = None
        seen.add(key)


# --------------------------------------------------------------------------- entries CSV

ENTRIES_COLUMNS = (
    "family_name",
    "given_name",
    "rank",
    "club",
    "country",
    "rating",
    "email",
    *ID_FIELDS,
)
ENTRIES_MAX_BYTES = 1_000_000
ENTRIES_MAX_ROWS = 2000


@dataclass(frozen=True)
class CsvEntries:
    entered: int
    linked: int
    created: int
    review: int
    emails: int = 0  # addresses put on file from the e-mail column
    emails_left: int = 0  # addresses left: the player has one, or is another event's


def _entries_row(n: int, row: dict[str, str | None]) -> tuple[Entrant, int | None]:
    def cell(name: str) -> str:
        return (row.get(name) or "").strip()

    family = cell("family_name")
    if not family:
        raise ValidationError(f"Line {n}: family_name is empty.")
    try:
        rank = Rank.parse(cell("rank"))
    except RankError as e:
        raise ValidationError(f"Line {n}: {e}.") from None
    rating: int | None = None
    if cell("rating"):
        try:
            rating = entry_rating(float(cell("rating")))
        except (ValueError, ValidationError):
            raise ValidationError(
                f"Line {n}: rating {cell('rating')!r} is not a whole number from -1000 to 4000."
            ) from None
    entrant = Entrant(
        id=n,
        family_name=family,
        given_name=cell("given_name"),
        rank=min(rank.index, MAX_INDEX),
        rating=rating or 0,
        club=cell("club"),
        country=cell("country").upper(),
        egd_pin=cell("egd_pin"),
        ffg_licence=cell("ffg_licence"),
        aga_id=cell("aga_id"),
    )
    return entrant, rating


def entries_import_csv(*, actor: Actor, tournament: Tournament, data: bytes) -> CsvEntries:
    """Enter the players of an entries CSV, in its own transaction; another write taking
    one of the file's new ids (or entering one of its players) at the same moment is a
    409, never a 500."""
    try:
        return _entries_import_csv(actor=actor, tournament=tournament, data=data)
    except IntegrityError:
        raise StateConflict(
            "Another write took one of these players' ids at the same moment; nothing was "
            "entered: import the file again."
        ) from None


@transaction.atomic
def _entries_import_csv(*, actor: Actor, tournament: Tournament, data: bytes) -> CsvEntries:
    if len(data) > ENTRIES_MAX_BYTES:
        raise ValidationError(
            {"file": f"Choose a CSV file of at most {ENTRIES_MAX_BYTES // 1000} kB."}
        )
    text = data.decode("utf-8-sig", errors="replace")
    reader = csv.DictReader(io.StringIO(text))
    unknown = [c for c in (reader.fieldnames or []) if c and c.strip() not in ENTRIES_COLUMNS]
    if not reader.fieldnames or "family_name" not in reader.fieldnames:
        raise ValidationError(
            {"file": f"The first line names the columns: {', '.join(ENTRIES_COLUMNS)}."}
        )
    if unknown:
        raise ValidationError(
            {"file": f"Unknown column {', '.join(unknown)}; known: {', '.join(ENTRIES_COLUMNS)}."}
        )
    rows = []
    emails: list[str] = []
    try:
        for n, row in enumerate(reader, start=2):
            if n - 1 > ENTRIES_MAX_ROWS:
                raise ValidationError({"file": f"At most {ENTRIES_MAX_ROWS} players in one file."})
            try:
                rows.append(_entries_row(n, row))
                emails.append(_email_cell(n, row))
            except ValidationError as exc:
                raise ValidationError(f"{' '.join(exc.messages)} Nothing was entered.") from None
    except csv.Error as err:  # a cell over the csv module's limit, a NUL byte
        raise ValidationError(
            f"Line {reader.line_num + 1}: this line cannot be read as CSV ({err}). "
            "Nothing was entered."
        ) from None
    try:
        who = players_identify(actor=actor, entrants=[e for e, _ in rows], tournament=tournament)
    except EntrantError as exc:
        raise ValidationError(f"Line {exc.entrant.id}: {exc.text} Nothing was entered.") from None
    wanted = [
        NewEntry(
            line=e.id,
            player=player,
            rank=e.rank,
            rating=rating,
            club=e.club,
            country=e.country if len(e.country) == 2 else "",
            family_name=e.family_name,
            given_name=e.given_name,
        )
        for (e, rating), player in zip(rows, who.players, strict=True)
    ]
    try:
        entries_add_many(actor=actor, tournament=tournament, rows=wanted)
    except ValidationError as exc:
        raise ValidationError(f"{' '.join(exc.messages)} Nothing was entered.") from None
    linked = who.linked_count
    # "Invite every entrant" writes to these addresses: a player who has one keeps it,
    # and another event's player's address is his own directors' to write.
    given = [(p, e) for p, e in zip(who.players, emails, strict=True) if e]
    filled = players_email_fill(actor=actor, rows=given)
    return CsvEntries(
        len(rows), linked, len(rows) - linked, who.review, len(filled), len(given) - len(filled)
    )


def _email_cell(n: int, row: dict[str, str | None]) -> str:
    email = (row.get("email") or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ValidationError(f"Line {n}: {email!r} is not an e-mail address.") from None
    return email
