"""The one write path for the result side: results, records, disputes, dead
stones and re-scoring.  Every change goes through a function here.

``<entity>_<action>(*, actor, ...)``: validate, save in one transaction, audit a
director's judgement, raise ``ValidationError``/``PermissionDenied`` (``StateConflict``
is a 409).  ``actor=None`` is the operator.  docs/games.md, "The one write path".  The
tournament day's writes (entries, settings, pairing, rounds) are in
``games.tournament.services``, which calls this package and is never called by it.
"""

from games.services.common import LOCKED_MESSAGE, GameLockedError
from games.services.finalising import Finalised, games_finalise
from games.services.results import (
    game_both_win_enter,
    game_finalise,
    game_result_confirm,
    game_result_contest,
    game_result_enter,
    game_result_submit,
    read_evidence,
    round_results_enter,
)

__all__ = [
    "LOCKED_MESSAGE",
    "Finalised",
    "GameLockedError",
    "game_both_win_enter",
    "game_finalise",
    "game_result_confirm",
    "game_result_contest",
    "game_result_enter",
    "game_result_submit",
    "games_finalise",
    "read_evidence",
    "round_results_enter",
]
