"""Reads that are more than a ``get``: filtered lists, the crosstable, submissions.

Querysets come with their ``select_related`` so a list costs a fixed number
of queries whatever its length (the API tests pin those counts).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from games.models import (
    LOCKED_STATES,
    MAX_RATED_HANDICAP,
    RATED_REASONS,
    Game,
    GameState,
    Player,
    ResultReason,
    ResultSubmission,
    Tournament,
    Winner,
)
from games.tournament.model import Presence
from games.tournament.opengotha import rank_text
from games.tournament.pairing import PairingParams
from games.tournament.pairing.explain import check_games
from games.tournament.pairing.state import round_state


def rated_games() -> QuerySet[Game]:
    """The games the ratings count: locked, of a rated and closed tournament, a rated reason,
    at most 9 stones.  An open event's games wait for its close."""
    return Game.objects.filter(
        tournament__rated=True,
        tournament__closed_at__isnull=False,
        state__in=list(LOCKED_STATES),
        result_reason__in=RATED_REASONS,
        handicap__lte=MAX_RATED_HANDICAP,
    )


def unrated_by_handicap() -> QuerySet[Game]:
    """Locked games of rated, closed tournaments left out of the ratings for their handicap."""
    return Game.objects.filter(
        tournament__rated=True,
        tournament__closed_at__isnull=False,
        state__in=list(LOCKED_STATES),
        result_reason__in=RATED_REASONS,
        handicap__gt=MAX_RATED_HANDICAP,
    )


def player_list(
    *, search: str | None = None, club: str | None = None, country: str | None = None
) -> QuerySet[Player]:
    """Players by name (any word of ``search`` in family or given name), club name, country."""
    qs = Player.objects.select_related("club")
    for word in (search or "").split():
        qs = qs.filter(Q(family_name__icontains=word) | Q(given_name__icontains=word))
    if club:
        qs = qs.filter(club__name__iexact=club.strip())
    if country:
        qs = qs.filter(country=country.strip().upper())
    return qs


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.all()


def game_list(
    *,
    tournament: Tournament | int | None = None,
    round_number: int | None = None,
    player: Player | int | None = None,
    state: str | None = None,
) -> QuerySet[Game]:
    """Games of a tournament, a round (by number), a player (either colour), a state."""
    qs = Game.objects.select_related("tournament", "round", "black", "white")
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    if player is not None:
        qs = qs.filter(Q(black=player) | Q(white=player))
    if state:
        qs = qs.filter(state=state)
    return qs


def submissions_of(game: Game) -> QuerySet[ResultSubmission]:
    """Every claim about the game's result, oldest first, with who made it.

    Not filtered by who asks: check ``permissions.can_see_submissions`` first."""
    return (
        ResultSubmission.objects.filter(game=game)
        .select_related("player", "submitted_by")
        .order_by("created_at", "id")
    )


# --------------------------------------------------------------------------- crosstable
#
# Only locked results (confirmed by both players, or final) count in the
# standings: a submitted result may still be contested, a disputed one waits for
# a ruling.  Void games count for nobody.  A win is 1 point, a draw 1/2.  A cell
# reads as in the EGF results format (docs/formats.md, "Crosstable cells"):
# opponent's number, ``+``/``-``/``=``, ``/``, the player's own colour, and the
# handicap when there is one (``3+/w``, ``5-/b2``); an uncounted game shows ``?``.


@dataclass(frozen=True)
class CrossCell:
    """One player's game in one round, from his side of the board."""

    game_id: int
    opponent_id: int
    color: str  # "B" or "W"
    handicap: int
    outcome: str  # "+" win, "-" loss, "=" draw, "void", "?" no counted result yet
    result: str  # the RE string, "" if none
    locked: bool

    def display(self, opponent_number: int) -> str:
        outcome = self.outcome if self.outcome in ("+", "-", "=") else "?"
        handicap = str(self.handicap) if self.handicap >= 2 else ""
        return f"{opponent_number}{outcome}/{self.color.lower()}{handicap}"


@dataclass
class CrossRow:
    player: Player
    number: int = 0  # place in the standings, from 1
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points: Decimal = Decimal(0)
    rounds: dict[int, CrossCell] = field(default_factory=dict)
    cells: list[str] = field(default_factory=list)  # one per round shown, "–" if none

    @property
    def points_display(self) -> str:
        return f"{self.points.normalize():f}"


def tournament_games(tournament: Tournament) -> QuerySet[Game]:
    """Every game of the tournament with what a results table shows, in 1 query."""
    return (
        Game.objects.filter(tournament=tournament)
        .select_related("round", "black", "white")
        .order_by("round__number", "table", "id")
    )


def _outcome(game: Game, color: str) -> str:
    if not game.is_locked or not game.result_reason:
        return "?"
    if game.result_reason == ResultReason.VOID:
        return "void"
    if game.result_reason == ResultReason.DRAW or not game.result_winner:
        return "="
    return "+" if game.result_winner == color else "-"


def crosstable(
    tournament: Tournament,
    *,
    games: Iterable[Game] | None = None,
    round_numbers: Iterable[int] | None = None,
) -> list[CrossRow]:
    """Every player of the tournament with wins, losses, draws, points and his
    game in each round, in standing order (points, then wins, then declared
    rank, then name).

    ``games`` defaults to ``tournament_games`` (one query; pass them when the
    page lists them anyway); ``cells`` has one entry per round of
    ``round_numbers`` (default: the rounds that have games).
    """
    games = list(tournament_games(tournament) if games is None else games)
    rows: dict[int, CrossRow] = {}
    for game in games:
        for player, opponent, color in (
            (game.black, game.white, Winner.BLACK),
            (game.white, game.black, Winner.WHITE),
        ):
            row = rows.setdefault(player.pk, CrossRow(player=player))
            outcome = _outcome(game, color)
            if outcome == "+":
                row.wins += 1
                row.points += 1
            elif outcome == "-":
                row.losses += 1
            elif outcome == "=":
                row.draws += 1
                row.points += Decimal("0.5")
            row.rounds[game.round.number] = CrossCell(
                game_id=game.pk,
                opponent_id=opponent.pk,
                color=str(color),
                handicap=game.handicap,
                outcome=outcome,
                result=game.result_display,
                locked=game.is_locked,
            )
    ordered = sorted(
        rows.values(),
        key=lambda r: (
            -r.points,
            -r.wins,
            -r.player.declared_rank,
            r.player.full_name,
            r.player.pk,
        ),
    )
    for n, row in enumerate(ordered, start=1):
        row.number = n
    if round_numbers is None:
        round_numbers = sorted({g.round.number for g in games})
    numbers = list(round_numbers)
    for row in ordered:
        for number in numbers:
            cell = row.rounds.get(number)
            row.cells.append("–" if cell is None else cell.display(rows[cell.opponent_id].number))
    return ordered


def games_awaiting_confirmation(player: Player) -> QuerySet[Game]:
    """The player's games whose submitted result is his opponent's claim: his to confirm
    or contest."""
    return (
        Game.objects.filter(Q(black=player) | Q(white=player), state=GameState.SUBMITTED)
        .exclude(result_submitted_by__isnull=True)
        .exclude(result_submitted_by=player)
        .select_related("tournament", "round", "black", "white")
        .order_by("tournament_id", "round__number", "id")
    )


def outcome_for(game: Game, player_id: int) -> str:
    """The result from ``player_id``'s side: win, loss, win/loss by forfeit, jigo, void; ''
    while there is no result.  A result not locked yet is no win or loss: it says it
    waits (a claim may still be contested, a dispute ruled)."""
    if not game.result_reason:
        return ""
    if not game.is_locked:
        return "disputed" if game.state == GameState.DISPUTED else "not confirmed yet"
    if not game.result_winner:
        return "jigo" if game.result_reason == "draw" else game.result_reason
    mine = "B" if game.black_id == player_id else "W"
    won = "win" if game.result_winner == mine else "loss"
    return f"{won} by forfeit" if game.result_reason == "forfeit" else won


def player_games(player: Player) -> list[dict[str, Any]]:
    """The player's games, newest tournament first, each with his colour, his opponent and
    the outcome from his side: the games table of the player page (one query)."""
    rows = (
        Game.objects.filter(Q(black=player) | Q(white=player))
        .select_related("tournament", "round", "black", "white")
        .order_by("-tournament__end_date", "-tournament_id", "round__number", "id")
    )
    return [
        {
            "game": g,
            "colour": "Black" if g.black_id == player.pk else "White",
            "opponent": g.white if g.black_id == player.pk else g.black,
            "outcome": outcome_for(g, player.pk),
        }
        for g in rows
    ]


# --------------------------------------------------------------------------- round pairing


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
    state: Any  # games.tournament.pairing.state.RoundState
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

    def warnings(self, games: list[tuple[int, int, int]]) -> dict[tuple[int, int], list[str]]:
        return check_games(self.state, [(b, w) for b, w, _ in games])


def round_view(tournament: Tournament, number: int) -> RoundView:
    """The pairing page's data for round ``number`` (the round's own games left out of the
    history, since a re-pairing replaces them)."""
    from games.events import event_of  # imported here: games.events loads the services package

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
        state=state,
        players=data.players,
    )
