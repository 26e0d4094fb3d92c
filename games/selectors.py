"""Reads that are more than a ``get``: filtered lists, a player's games, submissions.

Querysets come with their ``select_related`` so a list costs a fixed number
of queries whatever its length (the API tests pin those counts).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from games.models import (
    LOCKED_STATES,
    MAX_RATED_HANDICAP,
    RATED_REASONS,
    Game,
    GameState,
    Player,
    ResultSubmission,
    Tournament,
    TournamentEntry,
)
from ops.models import AuditAction, AuditEntry


def rated_games() -> QuerySet[Game]:
    """The games the ratings count: locked, of a rated and closed tournament, a rated reason,
    at most 9 stones, between two people (a pair go or rengo game is not rated, as the EGD
    rates none).  An open event's games wait for its close."""
    return Game.objects.filter(
        tournament__rated=True,
        tournament__closed_at__isnull=False,
        state__in=list(LOCKED_STATES),
        result_reason__in=RATED_REASONS,
        handicap__lte=MAX_RATED_HANDICAP,
        black__is_pair=False,
        white__is_pair=False,
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


def player_games(
    player: Player, *, offset: int = 0, limit: int | None = None
) -> list[dict[str, Any]]:
    """The player's games, newest tournament first, each with his colour, his opponent and
    the outcome from his side: the games table of the player page (one query); ``offset``
    and ``limit`` page a long career."""
    rows = (
        Game.objects.filter(Q(black=player) | Q(white=player))
        .select_related("tournament", "round", "black", "white")
        .defer("sgf", "sgf_warnings", "dead_stones")
        .order_by("-tournament__end_date", "-tournament_id", "round__number", "id")
    )
    games = rows[offset:] if limit is None else rows[offset : offset + limit]
    return [
        {
            "game": g,
            "colour": "Black" if g.black_id == player.pk else "White",
            "opponent": g.white if g.black_id == player.pk else g.black,
            "outcome": outcome_for(g, player.pk),
        }
        for g in games
    ]


def player_spellings(player: Player) -> list[dict[str, Any]]:
    """The names events gave the player other than his own, each with the events that gave
    it, newest first (one query): the player page's "also spelt"."""
    rows = (
        TournamentEntry.objects.filter(player=player)
        .exclude(family_name="")
        .exclude(family_name=player.family_name, given_name=player.given_name)
        .order_by("-tournament__end_date", "-tournament_id")
        .values_list("family_name", "given_name", "tournament_id", "tournament__name")
    )
    spellings: dict[tuple[str, str], dict[str, Any]] = {}
    for family, given, tournament_id, name in rows:
        spelt = spellings.setdefault(
            (family, given), {"name": f"{family} {given}".strip(), "tournaments": []}
        )
        spelt["tournaments"].append({"id": tournament_id, "name": name})
    return list(spellings.values())


def games_guessed_at(game_ids: list[int]) -> set[int]:
    """Which of these games had their slip codes guessed at (``game_codes_guessed``)."""
    found = AuditEntry.objects.filter(
        action=AuditAction.GAME_CODES_GUESSED,
        object_type=Game._meta.label_lower,
        object_id__in=[str(pk) for pk in game_ids],
    ).values_list("object_id", flat=True)
    return {int(pk) for pk in found}
