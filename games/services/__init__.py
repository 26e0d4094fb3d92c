"""The one write path for games data: every change goes through a function here.

``<entity>_<action>(*, actor, ...)``: validate, save in one transaction, audit a
director's judgement, raise ``ValidationError``/``PermissionDenied`` (``StateConflict``
is a 409).  ``actor=None`` is the operator.  docs/games.md, "The one write path".
"""

from games.services.common import LOCKED_MESSAGE, GameLockedError
from games.services.entries import (
    entry_add,
    entry_participation_set,
    entry_remove,
    entry_update,
    entry_withdraw,
)
from games.services.event_settings import tournament_settings_update
from games.services.lifecycle import tournament_close, tournament_start
from games.services.pairings import game_create, game_even_set, game_update
from games.services.players import player_create, player_update
from games.services.results import (
    game_finalise,
    game_result_confirm,
    game_result_contest,
    game_result_enter,
    game_result_submit,
    read_evidence,
    round_results_enter,
)
from games.services.tournaments import (
    round_get_or_create,
    tournament_create,
    tournament_officials_set,
    tournament_referees_set,
    tournament_update,
)

__all__ = [
    "LOCKED_MESSAGE",
    "GameLockedError",
    "entry_add",
    "entry_participation_set",
    "entry_remove",
    "entry_update",
    "entry_withdraw",
    "game_create",
    "game_even_set",
    "game_finalise",
    "game_result_confirm",
    "game_result_contest",
    "game_result_enter",
    "game_result_submit",
    "game_update",
    "player_create",
    "player_update",
    "read_evidence",
    "round_get_or_create",
    "round_results_enter",
    "tournament_close",
    "tournament_create",
    "tournament_officials_set",
    "tournament_referees_set",
    "tournament_settings_update",
    "tournament_start",
    "tournament_update",
]
