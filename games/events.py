"""Reads: a tournament as the pure ``games.tournament.Event``, its standings and its files.

Two queries whatever the size (the entries with their players, the games); the pure
package does the rest (docs/tournaments.md, "Standings").  Only locked results count:
a submitted result may still be contested.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.models import (
    LOCKED_STATES,
    Game,
    Player,
    ResultReason,
    Tournament,
    TournamentEntry,
)
from games.services.event_settings import effective_criteria
from games.tournament import egf, opengotha, spreadsheet
from games.tournament.model import Entrant, Event, GameRec, Outcome, Presence, Settings, System
from games.tournament.standings import Row, Scoreboard
from ratings.ranks import Rank

PRESENCE = {"p": Presence.PLAY, "a": Presence.ABSENT, "b": Presence.BYE}
NOMINAL_1D = 2100  # EGF: the middle of 1d on the GoR scale, 100 points a grade


def settings_value(t: Tournament) -> Settings:
    return Settings(
        system=System(t.system),
        rounds=t.number_of_rounds,
        mm_bar=t.mm_bar,
        mm_floor=t.mm_floor,
        nbw2_absent=t.nbw2_absent,
        nbw2_bye=t.nbw2_bye,
        mms2_absent=t.mms2_absent,
        mms2_bye=t.mms2_bye,
        round_down=t.round_down,
        criteria=tuple(effective_criteria(t)),
        category_limits=tuple(t.category_limits),
        count_not_played_as_half=t.count_not_played_as_half,
        hd_based_on_mms=t.handicap_based_on_mms,
        hd_no_hd_rank_threshold=t.handicap_threshold,
        hd_correction=t.handicap_correction,
        hd_ceiling=9 if t.handicap_cap is None else t.handicap_cap,
    )


def outcome_of(state: str, winner: str, reason: str) -> tuple[Outcome, bool]:
    """A game's result as the standings read it, and whether it was won by default."""
    if state not in LOCKED_STATES or not reason:
        return Outcome.UNKNOWN, False
    if reason == ResultReason.VOID:
        return Outcome.BOTH_LOSE, False  # played, and counts for nobody
    if reason == ResultReason.DRAW or not winner:
        return Outcome.JIGO, False
    return Outcome(winner), reason == ResultReason.FORFEIT


def _entrant(entry: TournamentEntry) -> Entrant:
    p = entry.player
    return Entrant(
        id=p.pk,
        family_name=p.family_name,
        given_name=p.given_name,
        rank=min(entry.rank, 8),
        rating=entry.rating if entry.rating is not None else NOMINAL_1D + 100 * entry.rank,
        club=entry.club,
        country=entry.country,
        egd_pin=p.egd_pin or "",
        smms_correction=entry.smms_correction,
        final=entry.final,
        presence=tuple(PRESENCE[c] for c in entry.participation),
    )


@dataclass(frozen=True)
class EventData:
    """The pure event and the players it names (entrant id = player id)."""

    event: Event
    players: dict[int, Player]
    entries: dict[int, TournamentEntry]


def event_of(tournament: Tournament) -> EventData:
    """The tournament as an ``Event`` (2 queries)."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__family_name", "player__given_name", "player_id")
    )
    rows = (
        Game.objects.filter(tournament=tournament)
        .order_by("round__number", "table", "id")
        .values_list(
            "round__number",
            "black_id",
            "white_id",
            "handicap",
            "state",
            "result_winner",
            "result_reason",
            "table",
        )
    )
    games = []
    for number, black, white, handicap, state, winner, reason, table in rows:
        outcome, by_default = outcome_of(state, winner, reason)
        games.append(GameRec(number, black, white, handicap, outcome, by_default, table))
    event = Event(
        settings=settings_value(tournament),
        entrants=tuple(_entrant(e) for e in entries),
        games=tuple(games),
        name=tournament.name,
        location=tournament.venue,
        begin_date=tournament.start_date,
        end_date=tournament.end_date,
        komi=tournament.komi,
        board_size=tournament.board_size,
        pairing={str(k): str(v) for k, v in (tournament.pairing_params or {}).items()},
    )
    return EventData(
        event=event,
        players={e.player_id: e.player for e in entries},
        entries={e.player_id: e for e in entries},
    )


def with_entry_ranks(tournament: Tournament, games: list[Game]) -> list[Game]:
    """Set ``black_rank``/``white_rank`` on each game to the players' ranks at entry (one
    query): a rank change during the event never rewrites what a round shows."""
    ranks = {
        pid: str(Rank(rank))
        for pid, rank in TournamentEntry.objects.filter(tournament=tournament).values_list(
            "player_id", "rank"
        )
    }
    for g in games:
        g.black_rank = ranks.get(g.black_id, "")  # type: ignore[attr-defined]
        g.white_rank = ranks.get(g.white_id, "")  # type: ignore[attr-defined]
    return games


def last_round_played(event: Event) -> int:
    """The last round with a game (0 before the first)."""
    return max((g.round for g in event.games), default=0)


@dataclass(frozen=True)
class StandingRow:
    place: int | None
    player: Player
    entry: TournamentEntry
    values: dict[str, float]


@dataclass(frozen=True)
class Standings:
    round: int
    criteria: list[str]
    rows: list[StandingRow]
    rounds: list[list[str]]  # per row: one crosstable cell per round up to ``round``


def standings_of(
    tournament: Tournament, *, after_round: int | None = None, criteria: Sequence[str] | None = None
) -> Standings:
    """The standings after ``after_round`` (default: the last round with a game), by the
    tournament's criteria unless others are given (``ValueError`` names an unknown one)."""
    data = event_of(tournament)
    event = data.event
    r = last_round_played(event) if after_round is None else after_round
    names = list(criteria) if criteria else list(event.settings.criteria)
    board = Scoreboard(event)
    rows = board.standings(r, names)
    out = [_row(data, row) for row in rows]
    return Standings(round=r, criteria=names, rows=out, rounds=_cells(event, rows, r, data.entries))


def _row(data: EventData, row: Row) -> StandingRow:
    return StandingRow(
        place=row.place,
        player=data.players[row.entrant_id],
        entry=data.entries[row.entrant_id],
        values=row.values,
    )


def _cells(
    event: Event, rows: list[Row], last: int, entries: dict[int, TournamentEntry]
) -> list[list[str]]:
    """The crosstable cells in the EGF style (``12+/w2``): opponent's line number, result,
    colour and handicap; a bye is ``0+``, an absent round ``0-`` (or ``0=`` with half a point)."""
    line = {row.entrant_id: n for n, row in enumerate(rows, start=1)}
    by_player: dict[tuple[int, int], GameRec] = {}
    for g in event.games:
        if g.round <= last:
            by_player[(g.round, g.black)] = g
            by_player[(g.round, g.white)] = g
    cells = []
    for row in rows:
        mine = []
        for r in range(1, last + 1):
            found = by_player.get((r, row.entrant_id))
            if found is None:
                presence = entries[row.entrant_id].presence(r)
                mine.append("0+" if presence == "b" else "0-" if presence == "a" else "–")
                continue
            g = found
            points = g.points2(row.entrant_id)
            sign = "?" if g.outcome is Outcome.UNKNOWN else "+-="[[2, 0, 1].index(points)]
            if g.by_default and sign != "?":
                sign += "!"
            colour = "b" if g.black == row.entrant_id else "w"
            hd = str(g.handicap) if g.handicap else ""
            mine.append(f"{line.get(g.opponent(row.entrant_id), 0)}{sign}/{colour}{hd}")
        cells.append(mine)
    return cells


# --------------------------------------------------------------------------- files

EXPORTS = {
    "opengotha": ("application/xml", "xml"),
    "egf": ("text/plain; charset=utf-8", "h9"),
    "csv": ("text/csv; charset=utf-8", "csv"),
}


def export(tournament: Tournament, fmt: str, *, after_round: int | None = None) -> bytes:
    """The tournament as an OpenGotha file, an EGF results file or a standings CSV."""
    event = event_of(tournament).event
    r = last_round_played(event) if after_round is None else after_round
    if fmt == "opengotha":
        return opengotha.write(event)
    if fmt == "egf":
        return egf.write_h9(event, r, tournament_class=tournament.egf_class)
    if fmt == "csv":
        return spreadsheet.write_csv(event, r)
    raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(EXPORTS)}")


def filename(tournament: Tournament, fmt: str) -> str:
    stem = "".join(c if c.isalnum() else "-" for c in tournament.name).strip("-") or "tournament"
    return f"{stem}.{EXPORTS[fmt][1]}"
