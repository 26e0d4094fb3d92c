"""The games app's version names of the page cache (``ops.pages.cache``), and which saved
rows bump them.

- ``player:<id>``: his games, rank, club, rating (player page, rating lookup, handicap);
- ``tournament:<id>``: its games, rounds, settings, state and directors (tournament page,
  crosstable);
- ``players`` / ``tournaments``: any player's or tournament's name, rank or club,
  shown on other objects' pages (not on a tournament's pages: a player's change bumps
  the ``tournament:<id>`` of each event he entered or played in instead, so a
  760-player event is not rebuilt for an edit anywhere else);
- ``ratings``: every rating, bumped once by a recompute (bulk writes);
- ``user:<id>``: what the signed-in header knows of an account (is he an official
  anywhere, which player is he): bumped by a save of his player and by the services that
  name or unname officials or link or unlink an account (``config.navigation``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ops.pages import cache
from ops.users import version as users_version

PLAYERS = "players"
TOURNAMENTS = "tournaments"
RATINGS = "ratings"


def player(pk: Any) -> str:
    return f"player:{pk}"


def tournament(pk: Any) -> str:
    return f"tournament:{pk}"


def user(pk: Any) -> str:
    return users_version(pk)


def users(pks: Iterable[Any]) -> list[str]:
    """The ``user:<id>`` names of these accounts (``None`` skipped)."""
    return [user(pk) for pk in pks if pk is not None]


def register() -> None:
    """Called by ``GamesConfig.ready``."""
    from django.db.models import Q
    from django.db.models.signals import post_delete, pre_delete

    from games.models import Club, Game, Player, Round, Tournament, TournamentEntry

    cache.register(
        Game, lambda g: [player(g.black_id), player(g.white_id), tournament(g.tournament_id)]
    )

    def player_names(p: Player) -> list[str]:
        # His events' pages show his name (the entry keeps its own rank and club): one
        # query (entries and games: rows older than the entry rule), on a player's save only.
        # order_by() drops the models' default ordering: SQLite refuses ORDER BY
        # inside a compound statement (this broke seed_demo, so `make run`, there).
        entered = (
            TournamentEntry.objects.filter(player_id=p.pk).order_by().values_list("tournament_id")
        )
        played = (
            Game.objects.filter(Q(black_id=p.pk) | Q(white_id=p.pk))
            .order_by()
            .values_list("tournament_id")
        )
        events = {t for (t,) in entered.union(played) if t is not None}
        # His account's header names him (the unlinked account's: the unlinking service).
        return [player(p.pk), PLAYERS, *users([p.user_id]), *(tournament(t) for t in events)]

    cache.register(Player, player_names)
    # A club's name shows on player pages; an entry keeps the club it was made with.
    cache.register(Club, lambda c: [PLAYERS])
    cache.register(Tournament, lambda t: [tournament(t.pk), TOURNAMENTS])
    cache.register(Round, lambda r: [tournament(r.tournament_id)])
    cache.register(TournamentEntry, lambda e: [tournament(e.tournament_id), player(e.player_id)])

    # A superuser deletes tournaments and players with the admin's own delete, which no
    # service sees: signals are the one place to catch it (and the M2M rows of a
    # tournament go with it without an m2m_changed).  Deletes only: writes bump above.
    pre_delete.connect(_tournament_deleted, sender=Tournament, dispatch_uid="games.cache.t")
    post_delete.connect(_player_deleted, sender=Player, dispatch_uid="games.cache.p")


def _tournament_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    # Its directors and referees see the referee desk no longer (the officials' seats:
    # referee.apps).  Read before the delete takes the rows with it.
    officials = {*instance.directors.values_list("pk", flat=True)}
    officials |= {*instance.referees.values_list("pk", flat=True)}
    # Its page keeps its row (games.tournament.selectors.tournament_head): a 404 now.
    cache.touch(tournament(instance.pk), *users(officials))


def _player_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    cache.touch(*users([instance.user_id]))
