"""Reads: a tournament as the pure ``engine.model.Event``, its standings and its files, its
games, and the data of the "Pair round R" page.

Two queries whatever the size (the entries with their players, the games); the pure
package does the rest (docs/tournaments.md, "Standings").  Only locked results count:
a submitted result may still be contested.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.core.cache import caches

from games.models import (
    LOCKED_STATES,
    Game,
    GameState,
    Player,
    ResultReason,
    Round,
    Team,
    TeamBoard,
    Tournament,
    TournamentEntry,
)
from games.models import Presence as EntryPresence
from games.people.engine.names import folded
from games.tournament.engine.cup import seeded
from games.tournament.engine.formats import aga, egf, ffg, opengotha, spreadsheet
from games.tournament.engine.formats.opengotha import rank_text
from games.tournament.engine.model import (
    Entrant,
    Event,
    GameRec,
    Outcome,
    Presence,
    Settings,
    System,
    TeamSettings,
)
from games.tournament.engine.model import Team as EngineTeam
from games.tournament.engine.pairing import PairingParams
from games.tournament.engine.pairing.explain import check_games
from games.tournament.engine.pairing.state import round_state
from games.tournament.engine.standings import Row, Scoreboard
from games.tournament.engine.teams import COEF as TEAM_COEF
from games.tournament.engine.teams import team_standings
from games.tournament.services.settings import SETTINGS, effective_criteria
from ratings.ranks import Rank

PRESENCE = {"p": Presence.PLAY, "a": Presence.ABSENT, "b": Presence.BYE}
NOMINAL_1D = 2100  # EGF: the middle of 1d on the GoR scale, 100 points a grade


def settings_value(t: Tournament, *, last_round: int = 0) -> Settings:
    """The tournament's settings as the standings and the pairing read them (the names
    are ``services.settings.SETTINGS``'s)."""
    values = {s.engine: getattr(t, s.model) for s in SETTINGS if s.engine is not None}
    return Settings(
        **{
            **values,
            "system": System(t.system),
            "rounds": max(t.number_of_rounds, last_round),
            "criteria": tuple(effective_criteria(t)),
            "category_limits": tuple(t.category_limits),
            "hd_ceiling": 9 if t.handicap_cap is None else t.handicap_cap,
        }
    )


def outcome_of(state: str, winner: str, reason: str) -> tuple[Outcome, bool]:
    """A game's result as the standings read it, and whether it was won by default."""
    if state not in LOCKED_STATES or not reason:
        return Outcome.UNKNOWN, False
    if reason == ResultReason.VOID:
        return Outcome.BOTH_LOSE, False  # played, and counts for nobody
    if reason == ResultReason.BOTH_WIN:
        return Outcome.BOTH_WIN, False  # OpenGotha's RESULT_BOTHWIN: a win for each
    if reason == ResultReason.DRAW or not winner:
        return Outcome.JIGO, False
    return Outcome(winner), reason == ResultReason.FORFEIT


def _entrant(entry: TournamentEntry) -> Entrant:
    p = entry.player
    return Entrant(
        id=p.pk,
        # The event's spelling, not the player's name today (docs/tournaments.md); a row
        # written around the services (a fixture) has none: the player's.
        family_name=entry.family_name or p.family_name,
        given_name=entry.given_name if entry.family_name else p.given_name,
        rank=min(entry.rank, 8),
        rating=entry.rating if entry.rating is not None else NOMINAL_1D + 100 * entry.rank,
        club=entry.club,
        country=entry.country,
        egd_pin=p.egd_pin or "",
        smms_correction=entry.smms_correction,
        final=entry.final,
        presence=tuple(PRESENCE[c] for c in entry.participation),
        ffg_licence=p.ffg_licence or "",
        aga_id=p.aga_id or "",
        rating_origin=entry.rating_origin,
        table_pin=entry.table_pin,
        pair=p.is_pair,
        file_values=tuple(sorted((str(k), str(v)) for k, v in entry.file_values.items())),
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
            "known_color",
        )
    )
    games = []
    for number, black, white, handicap, state, winner, reason, table, known in rows:
        outcome, by_default = outcome_of(state, winner, reason)
        games.append(GameRec(number, black, white, handicap, outcome, by_default, table, known))
    # Every game's players are entered (the services see to it); rows written around them
    # (fixtures, old data) still get a standing, as an entry made from the player.
    entered = {e.player_id for e in entries}
    missing = {pid for g in games for pid in (g.black, g.white)} - entered
    if missing:
        for p in Player.objects.filter(pk__in=missing).select_related("club"):
            entries.append(
                TournamentEntry(
                    tournament=tournament,
                    player=p,
                    family_name=p.family_name,
                    given_name=p.given_name,
                    rank=p.declared_rank,
                    club=p.club.name if p.club is not None else "",
                    country=p.country,
                )
            )
    entrants = tuple(_entrant(e) for e in entries)
    event = Event(
        settings=settings_value(tournament, last_round=max((g.round for g in games), default=0)),
        entrants=entrants,
        games=tuple(games),
        name=tournament.name,
        short_name=tournament.short_name,
        director=tournament.director_name,
        location=tournament.venue,
        begin_date=tournament.start_date,
        end_date=tournament.end_date,
        komi=tournament.komi,
        board_size=tournament.board_size,
        pairing={str(k): str(v) for k, v in (tournament.pairing_params or {}).items()},
        extra={str(k): str(v) for k, v in (tournament.time_system or {}).items()},
        egf_class=tournament.egf_class,
        cup=seeded(tournament.cup or {}, entrants) if tournament.system == System.CUP else None,
        **_teams_of(tournament),
        club_groups=tuple(
            (str(g.get("name", "")), tuple(str(c) for c in g.get("clubs", ())))
            for g in tournament.club_groups or ()
            if isinstance(g, dict)
        ),
        options={
            str(k): {str(a): str(b) for a, b in v.items()}
            for k, v in (tournament.file_options or {}).items()
            if isinstance(v, dict)
        },
    )
    return EventData(
        event=event,
        players={e.player_id: e.player for e in entries},
        entries={e.player_id: e for e in entries},
    )


def _teams_of(tournament: Tournament) -> dict[str, Any]:
    """A team event's teams and team settings for ``Event`` (2 queries; none for an event
    without team parameters)."""
    params = tournament.team_params
    if not params:
        return {}
    lineups: dict[int, dict[tuple[int, int], int]] = {}
    for team_id, r, board, player in TeamBoard.objects.filter(tournament=tournament).values_list(
        "team_id", "round", "board", "player_id"
    ):
        lineups.setdefault(team_id, {})[(r, board)] = player
    teams = tuple(
        EngineTeam(number=t.number, name=t.name, boards=lineups.get(t.pk, {}))
        for t in Team.objects.filter(tournament=tournament).order_by("number")
    )
    settings = TeamSettings(
        size=int(params.get("size", 4)), criteria=tuple(params.get("criteria", ()))
    )
    return {"teams": teams, "team_settings": settings}


def with_entry_ranks(
    tournament: Tournament, games: list[Game], entries: dict[int, TournamentEntry] | None = None
) -> list[Game]:
    """Set ``black_rank``/``white_rank`` on each game to the players' ranks at entry (one
    query, none when the caller has the ``entries`` by player already): a rank change
    during the event never rewrites what a round shows."""
    pairs = (
        [(pid, e.rank) for pid, e in entries.items()]
        if entries is not None
        else TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", "rank")
    )
    ranks = {pid: str(Rank(rank)) for pid, rank in pairs}
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
    tournament: Tournament,
    *,
    after_round: int | None = None,
    criteria: Sequence[str] | None = None,
    data: EventData | None = None,
) -> Standings:
    """The standings after ``after_round`` (default: the last round with a game), by the
    tournament's criteria unless others are given (``ValueError`` names an unknown one);
    ``data``: the tournament's ``event_of``, when the caller has it already."""
    data = event_of(tournament) if data is None else data
    event = data.event
    r = last_round_played(event) if after_round is None else after_round
    names = list(criteria) if criteria else list(event.settings.criteria)
    board = Scoreboard(event)
    rows = board.standings(r, names)
    out = [_row(data, row) for row in rows]
    return Standings(round=r, criteria=names, rows=out, rounds=_cells(event, rows, r, data.entries))


@dataclass(frozen=True)
class TeamStandingRow:
    place: int
    team: Team
    values: dict[str, float]  # as OpenGotha shows them: board wins with halves


@dataclass(frozen=True)
class TeamStandings:
    round: int
    criteria: list[str]
    rows: list[TeamStandingRow]


def team_standings_of(tournament: Tournament, *, after_round: int | None = None) -> TeamStandings:
    """A team event's team standings after ``after_round`` (default: the last round with a
    game), by its team criteria; ``ValueError`` when it is not a team event."""
    data = event_of(tournament)
    event = data.event
    if event.team_settings is None:
        raise ValueError("this tournament is not a team event")
    r = last_round_played(event) if after_round is None else after_round
    db = {t.number: t for t in Team.objects.filter(tournament=tournament)}
    rows = team_standings(event, event.teams, event.team_settings, r)
    names = [c for c in event.team_settings.criteria if c != "NULL"]
    return TeamStandings(
        round=r,
        criteria=names,
        rows=[
            TeamStandingRow(
                place=row.place,
                team=db[row.team.number],
                values={c: row.values[c] / TEAM_COEF[c] for c in names},
            )
            for row in rows
        ],
    )


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
    "ffg": ("text/plain; charset=iso-8859-15", "tou"),
    "aga": ("text/plain; charset=iso-8859-15", "txt"),
}


def export(tournament: Tournament, fmt: str, *, after_round: int | None = None) -> bytes:
    """The tournament as an OpenGotha file, an EGF results file, a standings CSV, or the
    FFG or AGA results file (these two always hold the whole event, as OpenGotha's do)."""
    event = event_of(tournament).event
    r = last_round_played(event) if after_round is None else after_round
    if fmt == "opengotha":
        # Every pairing parameter as it pairs, so that a reader's defaults never stand in.
        params = PairingParams.from_opengotha(event.pairing, event.settings.system)
        return opengotha.write(replace(event, pairing=params.to_opengotha()))
    if fmt == "egf":
        return egf.write_h9(event, r, tournament_class=tournament.egf_class)
    if fmt == "csv":
        return spreadsheet.write_csv(event, r)
    if fmt == "ffg":
        return ffg.write_tou(event)
    if fmt == "aga":
        return aga.write_aga(event)
    raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(EXPORTS)}")


def filename(tournament: Tournament, fmt: str) -> str:
    stem = "".join(c if c.isalnum() else "-" for c in tournament.name).strip("-") or "tournament"
    return f"{stem}.{EXPORTS[fmt][1]}"


# What a results table shows of a game (games.templatetags.game_tables): not its record.
TABLE_FIELDS = (
    "id",
    "round_id",
    "table",
    "black_id",
    "white_id",
    "handicap",
    "komi",
    "state",
    "result_winner",
    "result_reason",
    "result_margin",
)


@dataclass(frozen=True)
class TournamentHead:
    """A tournament's row and its directors' user ids: what its page reads per request."""

    tournament: Tournament
    directors: frozenset[int]


def tournament_head(pk: int, versions: str) -> TournamentHead | None:
    """The tournament ``pk`` and its directors (None if there is none), kept under
    ``versions``, its ``tournament:<id>`` version read by the caller before this: no query
    on a warm cache.  The same for every reader; its saves, close and directors bump it."""
    key = f"tournament-head.{pk}@{versions}"
    entries = caches["versioned"]
    head: TournamentHead | None = entries.get(key)
    if head is None:
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            return None  # not kept: a miss costs what it did before
        directors = frozenset(tournament.directors.values_list("pk", flat=True))
        head = TournamentHead(tournament, directors)
        entries.set(key, head)
    return head


def tournament_games(tournament: Tournament, round_id: int | None = None) -> list[Game]:
    """Every game of the tournament (or of one round) with what a results table shows, in
    2 queries: only those columns, and each player loaded once rather than twice per game
    (3,800 games of a 760-player event were 15,000 model instances, a third of the
    page's cost)."""
    found = Game.objects.filter(tournament=tournament)
    if round_id is not None:
        found = found.filter(round_id=round_id)
    games = list(found.only(*TABLE_FIELDS).order_by("round__number", "table", "id"))
    players = Player.objects.only("family_name", "given_name", "declared_rank").in_bulk(
        {pid for g in games for pid in (g.black_id, g.white_id)}
    )
    for g in games:
        g.black, g.white = players[g.black_id], players[g.white_id]
    return games


# --------------------------------------------------------------------------- round pairing


def unfinished_before(tournament: Tournament, number: int | None = None) -> list[Game]:
    """The games of the rounds before ``number`` (``None``: of every round) without a
    final result (neither confirmed by both players nor finalised): pairing over them
    scores them as they stand, and they keep the tournament from closing."""
    games = Game.objects.filter(tournament=tournament)
    if number is not None:
        games = games.filter(round__number__lt=number)
    return list(
        games.exclude(state__in=LOCKED_STATES)
        .select_related("round", "black", "white")
        .order_by("round__number", "table", "id")
    )


@dataclass
class RoundView:
    """What the "Pair round R" page shows: the entered players with rank and score before
    the round, who is checked in, the recorded bye, and warnings for games as edited."""

    tournament: Tournament
    number: int
    choices: list[tuple[int, str]]
    playing: list[int]
    bye: int | None
    bye_player: Player | None
    has_games: bool
    has_results: bool
    unfinished: list[Game]
    absent: list[Player]
    state: Any  # games.tournament.engine.pairing.state.RoundState
    players: dict[int, Player] = field(default_factory=dict)

    def describe(self, pid: int | None) -> dict[str, Any] | None:
        if pid is None or pid not in self.players:
            return None
        p = self.state.players.get(pid)
        score = None
        if p is not None:
            score = (p.mms2 if self.state.mcmahon else p.nbw2) / 2
        rank = p.entrant.rank if p is not None else None
        return {
            "player": self.players[pid],
            "rank": rank_text(rank) if rank is not None else "",
            "score": f"{score:g}" if score is not None else "",
        }

    def warnings(
        self, games: Sequence[tuple[int, int, *tuple[object, ...]]]
    ) -> dict[tuple[int, int], list[str]]:
        return check_games(self.state, [(g[0], g[1]) for g in games])


def round_view(tournament: Tournament, number: int) -> RoundView:
    """The pairing page's data for round ``number`` (the round's own games left out of the
    history, since a re-pairing replaces them)."""
    data = event_of(tournament)
    event = replace(data.event, games=tuple(g for g in data.event.games if g.round != number))
    params = PairingParams.from_opengotha(event.pairing, event.settings.system)
    state = round_state(event, number, params)
    order = {pid: i for i, pid in enumerate(state.order)}
    entrants = sorted(
        data.event.entrants,
        key=lambda e: (order.get(e.id, len(order)), e.family_name, e.given_name),
    )
    choices = [(e.id, f"{e.family_name} {e.given_name} ({rank_text(e.rank)})") for e in entrants]
    playing = [e.id for e in entrants if e.presence_in(number) is Presence.PLAY]
    byes = [e.id for e in entrants if e.presence_in(number) is Presence.BYE]
    games = Game.objects.filter(tournament=tournament, round__number=number)
    return RoundView(
        tournament=tournament,
        number=number,
        choices=choices,
        playing=playing,
        bye=byes[0] if byes else None,
        bye_player=data.players.get(byes[0]) if byes else None,
        has_games=games.exists(),
        has_results=games.exclude(state=GameState.SCHEDULED).exists(),
        unfinished=unfinished_before(tournament, number),
        absent=[
            data.players[e.id]
            for e in entrants
            if e.presence_in(number) is Presence.ABSENT and e.id in data.players
        ],
        state=state,
        players=data.players,
    )


# "Where do I play" (views.round_where): its rows and its search, the
# same on the server (``?q=``) and in static/games/round_where.js.
WHERE_QUERY = 80


@dataclass(frozen=True, slots=True)
class WhereRow:
    """One table of a round as a player looks for it."""

    table: int | None
    black: str
    black_rank: str
    white: str
    white_rank: str
    handicap: int
    komi: Decimal
    names: str  # both names folded for the search, "|" between them


@dataclass(frozen=True, slots=True)
class RestRow:
    """An entrant without a game in the round: a bye, absent, or not paired."""

    name: str
    rank: str
    why: str
    names: str


@dataclass(frozen=True, slots=True)
class WhereRound:
    """Every row of a round's "where do I play", before any search: what the view keeps
    in the cache (per round and versions), so that a search reads no database."""

    rows: tuple[WhereRow, ...]
    resting: tuple[RestRow, ...]


def where_tables(rnd: Round, query: str = "", everyone: WhereRound | None = None) -> dict[str, Any]:
    """The round's tables and, once it is paired, who does not play in it, each kept
    when ``query`` matches: from ``everyone`` when given (the cached rows), else read."""
    everyone = everyone or where_round(rnd)
    words = folded(query).split()
    return {
        "rows": [r for r in everyone.rows if matches(r, words)],
        "resting": [r for r in everyone.resting if matches(r, words)],
        "total": len(everyone.rows),
    }


def where_round(rnd: Round) -> WhereRound:
    """Every row of the round (two queries, the entries and the games, none per row)."""
    # Only the columns shown: a 760-player round spent half its time loading the rest.
    names = ("family_name", "given_name", "declared_rank")
    entries = {
        e.player_id: e
        for e in TournamentEntry.objects.filter(tournament_id=rnd.tournament_id)
        .select_related("player")
        .only("player_id", "rank", "participation", *(f"player__{n}" for n in names))
    }
    shown: dict[int, str] = {}
    ranks = {
        pid: shown.get(e.rank) or shown.setdefault(e.rank, str(Rank(e.rank)))
        for pid, e in entries.items()
    }
    games = list(
        rnd.games.select_related("black", "white")
        .only(
            "table",
            "handicap",
            "komi",
            "black_id",
            "white_id",
            "round_id",
            *(f"{c}__{n}" for c in ("black", "white") for n in names),
        )
        .order_by("table", "id")
    )
    rows = [
        WhereRow(
            table=g.table,
            black=g.black.full_name,
            black_rank=ranks.get(g.black_id) or str(g.black.rank),
            white=g.white.full_name,
            white_rank=ranks.get(g.white_id) or str(g.white.rank),
            handicap=g.handicap,
            komi=g.komi,
            names=f"{folded(g.black.full_name)}|{folded(g.white.full_name)}",
        )
        for g in games
    ]
    paired = {g.black_id for g in games} | {g.white_id for g in games}
    resting = [
        RestRow(
            name=e.player.full_name,
            rank=ranks[pid],
            why=_NOT_PLAYING.get(e.presence(rnd.number), "not paired"),
            names=folded(e.player.full_name),
        )
        for pid, e in entries.items()
        if games and pid not in paired
    ]
    resting.sort(key=lambda r: r.names)
    return WhereRound(rows=tuple(rows), resting=tuple(resting))


_NOT_PLAYING: dict[str, str] = {EntryPresence.BYE: "bye", EntryPresence.ABSENT: "absent"}


def matches(row: WhereRow | RestRow, words: list[str]) -> bool:
    """Whether one of the row's players has every one of ``words`` (folded) in his name."""
    return not words or any(all(w in name for w in words) for name in row.names.split("|"))
