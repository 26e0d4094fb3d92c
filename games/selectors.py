"""Reads that are more than a ``get``: filtered lists, the crosstable, submissions.

Querysets come with their ``select_related`` so a list costs a fixed number
of queries whatever its length (the API tests pin those counts).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from games import permissions
from games.models import (
    Game,
    GameState,
    Player,
    ResultReason,
    ResultSubmission,
    Tournament,
    Winner,
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


def submissions_visible_to(user: Any, game: Game) -> QuerySet[ResultSubmission]:
    """The game's result claims if ``user`` may see them (players, directors,
    referees), else nothing."""
    if not permissions.can_see_submissions(user, game):
        return ResultSubmission.objects.none()
    return ResultSubmission.objects.filter(game=game).select_related("player", "submitted_by")


# --------------------------------------------------------------------------- crosstable

# Games whose result counts in the standings; a disputed claim does not.
COUNTED_STATES = frozenset({GameState.SUBMITTED, GameState.CONFIRMED, GameState.FINAL})


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


@dataclass
class CrossRow:
    player: Player
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points: Decimal = Decimal(0)
    rounds: dict[int, CrossCell] = field(default_factory=dict)


def _outcome(game: Game, color: str) -> str:
    if game.state not in COUNTED_STATES or not game.result_reason:
        return "?"
    if game.result_reason == ResultReason.VOID:
        return "void"
    if game.result_reason == ResultReason.DRAW:
        return "="
    return "+" if game.result_winner == color else "-"


def crosstable(tournament: Tournament) -> list[CrossRow]:
    """Every player of the tournament with wins, losses, draws, points (win 1,
    draw 1/2) and his game in each round; sorted by points, then wins, then name.

    Two queries, whatever the size of the tournament.
    """
    games = list(
        Game.objects.filter(tournament=tournament)
        .select_related("round", "black", "white")
        .order_by("round__number", "id")
    )
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
    return sorted(
        rows.values(),
        key=lambda r: (-r.points, -r.wins, r.player.family_name, r.player.given_name, r.player.pk),
    )


def round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.rounds.order_by("number").values_list("number", flat=True))


def games_by_round(tournament: Tournament) -> dict[int, list[Game]]:
    by_round: dict[int, list[Game]] = defaultdict(list)
    for game in game_list(tournament=tournament):
        by_round[game.round.number].append(game)
    return dict(by_round)
