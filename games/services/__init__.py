"""The one write path for games data: every change goes through a function here.

Names are ``<entity>_<action>`` with keyword-only arguments.  Each validates
(``full_clean``), saves inside ``transaction.atomic()``, writes an audit row
for a director's judgement, and raises Django's ``ValidationError`` (naming
the field) or ``PermissionDenied``.  ``StateConflict`` / ``GameLockedError``
are ``ValidationError``s for requests the game's state does not allow (the
API answers 409 for them).  ``actor=None`` means the operator (a management
command such as the CSV import or the demo data): permission checks are
skipped for it, never for an anonymous web user.
"""

from games.services.common import LOCKED_MESSAGE, GameLockedError
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
from games.services.tournaments import round_get_or_create, tournament_create, tournament_update

__all__ = [
    "LOCKED_MESSAGE",
    "GameLockedError",
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
    "tournament_create",
    "tournament_update",
]
