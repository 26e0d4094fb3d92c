"""The version names of the cached public reads (``ops.cache``), and which saved rows bump them.

- ``player:<id>``: his games, rank, club, rating (player page, rating lookup, handicap);
- ``tournament:<id>``: its games, rounds and settings (tournament page, crosstable);
- ``players`` / ``tournaments``: any player's or tournament's name, rank or club,
  shown on other objects' pages;
- ``ratings``: every rating, bumped once by a recompute (bulk writes).
"""

from __future__ import annotations

from typing import Any

from ops import cache

PLAYERS = "players"
TOURNAMENTS = "tournaments"
RATINGS = "ratings"


def player(pk: Any) -> str:
    return f"player:{pk}"


def tournament(pk: Any) -> str:
    return f"tournament:{pk}"


def register() -> None:
    """Called by ``GamesConfig.ready``."""
    from games.models import Club, Game, Player, Round, Tournament, TournamentEntry

    cache.register(
        Game, lambda g: [player(g.black_id), player(g.white_id), tournament(g.tournament_id)]
    )
    cache.register(Player, lambda p: [player(p.pk), PLAYERS])
    cache.register(Club, lambda c: [PLAYERS])
    cache.register(Tournament, lambda t: [tournament(t.pk), TOURNAMENTS])
    cache.register(Round, lambda r: [tournament(r.tournament_id)])
    cache.register(TournamentEntry, lambda e: [tournament(e.tournament_id), player(e.player_id)])
