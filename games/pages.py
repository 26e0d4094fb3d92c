"""Reads for the public pages that ``games.selectors`` does not cover: the crosstable.

Only locked results (confirmed by both players, or final) count in the
standings: a submitted result may still be contested.  A cell reads as in
the EGF results format (formats.md 1): opponent's number, ``+``/``-``/``=``,
``/``, the player's own colour, and the handicap when there is one
(``3+/w``, ``5-/b2``); an uncounted game shows ``?``.  Void games count for
nobody.  A win is 1 point, a draw 1/2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import QuerySet

from games.models import LOCKED_STATES, Game, Player, ResultReason, Tournament


@dataclass(slots=True)
class CrossRow:
    player: Player
    number: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points: Decimal = Decimal(0)
    cells: list[str] = field(default_factory=list)

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


def _outcome(game: Game, player_id: int) -> str:
    """``+``, ``-``, ``=`` from ``player_id``'s side, or ``?`` when it does not count."""
    if game.state not in LOCKED_STATES or not game.result_reason:
        return "?"
    if game.result_reason == ResultReason.VOID:
        return "?"
    if game.result_reason == ResultReason.DRAW or not game.result_winner:
        return "="
    mine = "B" if game.black_id == player_id else "W"
    return "+" if game.result_winner == mine else "-"


def crosstable(games: Iterable[Game], round_numbers: Iterable[int]) -> list[CrossRow]:
    """Rows in standing order (points, then wins, then rank, then name)."""
    games = list(games)
    numbers = list(round_numbers)
    rows: dict[int, CrossRow] = {}
    by_round: dict[tuple[int, int], Game] = {}
    for g in games:
        for player in (g.black, g.white):
            rows.setdefault(player.pk, CrossRow(player=player))
            by_round[(player.pk, g.round.number)] = g
        for player in (g.black, g.white):
            outcome = _outcome(g, player.pk)
            row = rows[player.pk]
            if outcome == "+":
                row.wins += 1
                row.points += 1
            elif outcome == "-":
                row.losses += 1
            elif outcome == "=":
                row.draws += 1
                row.points += Decimal("0.5")
    ordered = sorted(
        rows.values(),
        key=lambda r: (-r.points, -r.wins, -r.player.declared_rank, r.player.full_name),
    )
    for n, row in enumerate(ordered, start=1):
        row.number = n
    for row in ordered:
        pid = row.player.pk
        for number in numbers:
            played = by_round.get((pid, number))
            if played is None:
                row.cells.append("–")
                continue
            opponent = played.white if played.black_id == pid else played.black
            colour = "b" if played.black_id == pid else "w"
            handicap = str(played.handicap) if played.handicap >= 2 else ""
            outcome = _outcome(played, pid)
            row.cells.append(f"{rows[opponent.pk].number}{outcome}/{colour}{handicap}")
    return ordered
