"""Enter the players of a CSV file (the entries page): each row is matched to goref's
players by the import's rules (``identity``: federation id, then name; never rank or
club), or created, and entered with the row's rank, rating, club and country.  One row
wrong: nothing is entered, and the row is named (docs/tournaments.md, "Entries")."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Tournament
from games.people.engine.federation_ids import ID_FIELDS
from games.people.services.matching import EntrantError, players_identify
from games.tournament.engine.model import Entrant
from games.tournament.services.entries import NewEntry, entries_add_many, entry_rating
from ops.services import Actor, StateConflict
from ratings.ranks import MAX_INDEX, Rank, RankError

COLUMNS = (
    "family_name",
    "given_name",
    "rank",
    "club",
    "country",
    "rating",
    *ID_FIELDS,
)
MAX_BYTES = 1_000_000
MAX_ROWS = 2000


@dataclass(frozen=True)
class CsvEntries:
    entered: int
    linked: int
    created: int
    review: int


def _row(n: int, row: dict[str, str | None]) -> tuple[Entrant, int | None]:
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
    """``_import_csv`` in its own transaction; another write taking one of the file's new
    ids (or entering one of its players) at the same moment is a 409, never a 500."""
    try:
        return _import_csv(actor=actor, tournament=tournament, data=data)
    except IntegrityError:
        raise StateConflict(
            "Another write took one of these players' ids at the same moment; nothing was "
            "entered: import the file again."
        ) from None


@transaction.atomic
def _import_csv(*, actor: Actor, tournament: Tournament, data: bytes) -> CsvEntries:
    if len(data) > MAX_BYTES:
        raise ValidationError({"file": f"Choose a CSV file of at most {MAX_BYTES // 1000} kB."})
    text = data.decode("utf-8-sig", errors="replace")
    reader = csv.DictReader(io.StringIO(text))
    unknown = [c for c in (reader.fieldnames or []) if c and c.strip() not in COLUMNS]
    if not reader.fieldnames or "family_name" not in reader.fieldnames:
        raise ValidationError({"file": f"The first line names the columns: {', '.join(COLUMNS)}."})
    if unknown:
        raise ValidationError(
            {"file": f"Unknown column {', '.join(unknown)}; known: {', '.join(COLUMNS)}."}
        )
    rows = []
    try:
        for n, row in enumerate(reader, start=2):
            if n - 1 > MAX_ROWS:
                raise ValidationError({"file": f"At most {MAX_ROWS} players in one file."})
            try:
                rows.append(_row(n, row))
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
        )
        for (e, rating), player in zip(rows, who.players, strict=True)
    ]
    try:
        entries_add_many(actor=actor, tournament=tournament, rows=wanted)
    except ValidationError as exc:
        raise ValidationError(f"{' '.join(exc.messages)} Nothing was entered.") from None
    linked = who.linked_count
    return CsvEntries(len(rows), linked, len(rows) - linked, who.review)
