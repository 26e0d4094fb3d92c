"""The tournament day's one write path: tournaments and their settings, entries and
check-in, the lifecycle, games as paired, rounds, and the federations' files.

The same shape as ``games.services``: ``<entity>_<action>(*, actor, ...)``, one
transaction, an audit row for a director's judgement.  Results go through
``games.services``; this package calls it, never the other way round.
"""

from games.tournament.services.entries import (
    entry_add,
    entry_add_from_list,
    entry_participation_set,
    entry_remove,
    entry_update,
    entry_withdraw,
)
from games.tournament.services.lifecycle import tournament_close, tournament_start
from games.tournament.services.pairings import (
    game_choose_even,
    game_create,
    game_even_set,
    game_update,
)
from games.tournament.services.settings import tournament_settings_update
from games.tournament.services.tournaments import (
    round_get_or_create,
    tournament_create,
    tournament_officials_set,
    tournament_referees_set,
    tournament_update,
)

__all__ = [
    "entry_add",
    "entry_add_from_list",
    "entry_participation_set",
    "entry_remove",
    "entry_update",
    "entry_withdraw",
    "game_choose_even",
    "game_create",
    "game_even_set",
    "game_update",
    "round_get_or_create",
    "tournament_close",
    "tournament_create",
    "tournament_officials_set",
    "tournament_referees_set",
    "tournament_settings_update",
    "tournament_start",
    "tournament_update",
]
