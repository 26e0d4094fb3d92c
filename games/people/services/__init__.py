"""People's one write path: players, matching a file's players, the review list and merges,
invitations, clubs and account grants.

``<entity>_<action>(*, actor, ...)``, as ``games.services``: validate, save in one
transaction, audit a director's judgement.  Never imports the tournament day, which calls
this package with plain values (docs/games.md, "People").
"""

from games.people.services.players import player_create, player_update, players_create_bulk

__all__ = ["player_create", "player_update", "players_create_bulk"]
