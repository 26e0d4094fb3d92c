"""Moving tables once a round is paired: one game's table, two tables swapped, every
table shifted (a second room), the round renumbered by score or rating, and a player
pinned to a table for the whole event.  docs/tournaments.md, "Tables".

A table is where a game is played: moving one never touches who plays whom, colours,
handicap or result, so tables move while results come in and after they are final, until
the close.  Printed lists and slips read the game's table, so they follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Literal

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import Game, Tournament, TournamentEntry
from games.tournament.engine.pairing import PairingParams
from games.tournament.engine.pairing.pair import PairedGame, number_tables
from games.tournament.engine.pairing.state import round_state
from games.tournament.engine.tables import TableError, Tables, moved, numbered, shifted, swapped
from games.tournament.selectors import event_of
from games.tournament.services.entries import check_open
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, require

MAX_TABLE = 9999  # a printed list's column: four digits
Order = Literal["score", "rating"]


def _check(actor: Actor, tournament: Tournament) -> None:
    require(permissions.is_director(actor, tournament), "Only its directors can move tables.")
    check_open(tournament, "This tournament is closed: its tables cannot move.")


def _round_games(tournament: Tournament, number: object) -> list[Game]:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValidationError({"round": "A round number is a whole number from 1."})
    games = list(
        Game.objects.select_for_update()
        .filter(tournament=tournament, round__number=number)
        .order_by("table", "id")
    )
    if not games:
        raise ValidationError({"round": f"Round {number} has no games."})
    return games


def _table_number(value: object, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TABLE:
        raise ValidationError(
            {field_name: f"A table number is a whole number from 1 to {MAX_TABLE}."}
        )
    return value


def _current(games: list[Game]) -> Tables:
    """The games' tables now; a game without one is given the next free number."""
    tables = {g.pk: g.table for g in games if g.table is not None}
    top = max(tables.values(), default=0)
    for g in games:
        if g.table is None:
            top += 1
            tables[g.pk] = top
    return tables


def _write(
    actor: Actor, tournament: Tournament, number: int, games: list[Game], new: Tables
) -> int:
    """Save ``new`` (game id -> table) for the round's ``games``: the moved games are
    cleared first so that no intermediate state puts two games on one table (the database
    refuses that), then numbered.  One audit row for the round, before and after."""
    if any(t > MAX_TABLE for t in new.values()):
        raise ValidationError({"table": f"A table number is at most {MAX_TABLE}."})
    moving = [g for g in games if g.table != new[g.pk]]
    if not moving:
        return 0
    old = {str(g.pk): g.table for g in moving}
    Game.objects.filter(pk__in=[g.pk for g in moving]).update(table=None)
    for g in moving:
        g.table = new[g.pk]
        g.save(update_fields=["table", "updated_at"])
    audit_record(
        actor=actor,
        action=AuditAction.ROUND_TABLES_MOVED,
        obj=tournament,
        old={"round": number, "tables": old},
        new={"round": number, "tables": {str(g.pk): new[g.pk] for g in moving}},
    )
    return len(moving)


def _apply(
    actor: Actor, tournament: Tournament, round_number: int, change: Callable[[Tables], Tables]
) -> int:
    """Lock the round's games, compute their new tables with ``change`` (current tables ->
    new tables) and write them; a move the tables refuse is a 400 naming why."""
    _check(actor, tournament)
    with transaction.atomic():
        games = _round_games(tournament, round_number)
        current = _current(games)
        try:
            new = change(current)
        except TableError as error:
            raise ValidationError({"table": str(error)}) from None
        return _write(actor, tournament, round_number, games, new)


def round_table_set(
    *, actor: Actor, tournament: Tournament, round_number: int, game_id: int, table: int
) -> int:
    """Game ``game_id`` of the round moves to ``table``; a game already there takes its
    old table (a move onto an occupied table is a swap).  Returns the games moved."""
    table = _table_number(table, "table")

    def change(current: Tables) -> Tables:
        if game_id not in current:
            raise ValidationError({"game": "There is no such game in this round."})
        return swapped(current, current[game_id], table)

    return _apply(actor, tournament, round_number, change)


def round_tables_swap(
    *, actor: Actor, tournament: Tournament, round_number: int, a: int, b: int
) -> int:
    """The games at tables ``a`` and ``b`` exchange tables."""
    a, b = _table_number(a, "swap"), _table_number(b, "swap")
    return _apply(actor, tournament, round_number, lambda current: swapped(current, a, b))


def round_tables_shift(*, actor: Actor, tournament: Tournament, round_number: int, by: int) -> int:
    """Every table of the round moves by ``by`` (``100``: a second room from table 101)."""
    if isinstance(by, bool) or not isinstance(by, int) or not -MAX_TABLE < by < MAX_TABLE:
        raise ValidationError({"by": "A shift is a whole number of tables."})
    return _apply(actor, tournament, round_number, lambda current: shifted(current, by))


def round_tables_move(
    *, actor: Actor, tournament: Tournament, round_number: int, tables: Mapping[int, int]
) -> int:
    """Several games to new tables at once (game id -> table); refused whole when two
    games would end on one table."""
    changes = {int(g): _table_number(t, "tables") for g, t in tables.items()}

    def change(current: Tables) -> Tables:
        strangers = sorted(set(changes) - set(current))
        if strangers:
            raise ValidationError({"tables": f"Not games of this round: {strangers}."})
        return moved(current, changes)

    return _apply(actor, tournament, round_number, change)


def round_tables_renumber(
    *, actor: Actor, tournament: Tournament, round_number: int, by: Order = "score"
) -> int:
    """Renumber the round from table 1: by the better player's score before the round
    then rating (as the pairing numbers them), or by the better player's rating alone;
    pinned players keep their tables."""
    if by not in ("score", "rating"):
        raise ValidationError({"by": 'Renumber by "score" or "rating".'})
    return _apply(
        actor, tournament, round_number, lambda _current: _ordered(tournament, round_number, by)
    )


def _ordered(tournament: Tournament, number: int, by: Order) -> Tables:
    data = event_of(tournament)
    rows = Game.objects.filter(tournament=tournament, round__number=number)
    pk_of = {(b, w): pk for pk, b, w in rows.values_list("pk", "black_id", "white_id")}
    if by == "score":
        event = data.event
        params = PairingParams.from_opengotha(event.pairing, event.settings.system)
        players = [p for pair in pk_of for p in pair]
        paired = number_tables(
            round_state(event, number, params, extra=players),
            [
                PairedGame(table=0, black=b, white=w, handicap=0, costs={}, reasons=())
                for b, w in pk_of
            ],
        )
        return {pk_of[(p.black, p.white)]: p.table for p in paired}
    entrants = {e.id: e for e in data.event.entrants}

    def best(pair: tuple[int, int]) -> int:
        return max(entrants[p].rating if p in entrants else 0 for p in pair)

    order = sorted(pk_of, key=lambda pair: (-best(pair), pk_of[pair]))
    pins = {}
    for pair in order:
        fixed = [entrants[p].table_pin for p in pair if p in entrants]
        if any(t is not None for t in fixed):
            pins[pk_of[pair]] = min(t for t in fixed if t is not None)
    return numbered([pk_of[pair] for pair in order], pins)


@transaction.atomic
def entry_table_pin(*, actor: Actor, entry: TournamentEntry, table: int | None) -> TournamentEntry:
    """Pin the entry's player to ``table`` for every round paired from now on (``None``:
    unpin); two players pinned to one table is refused.  Rounds already paired keep their
    tables: move them with the round's tools."""
    tournament = entry.tournament
    _check(actor, tournament)
    if table is not None:
        table = _table_number(table, "table_pin")
        other = (
            TournamentEntry.objects.filter(tournament=tournament, table_pin=table)
            .exclude(pk=entry.pk)
            .select_related("player")
            .first()
        )
        if other is not None:
            raise ValidationError({"table_pin": f"Table {table} is pinned to {other.player}."})
    entry = TournamentEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.table_pin == table:
        return entry
    old = entry.table_pin
    entry.table_pin = table
    entry.save(update_fields=["table_pin"])
    audit_record(
        actor=actor,
        action=AuditAction.ENTRY_TABLE_PINNED,
        obj=entry,
        old={"table_pin": old},
        new={"table_pin": table},
    )
    return entry
