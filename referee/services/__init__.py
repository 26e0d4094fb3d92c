"""Disputes, rulings, appeals: the one write path of the referee app.

The life of a dispute (``DisputeState``)::

    open --assign--> assigned --rule (referee)--> ruled --close--> closed
      \\________________rule__________________/   |
                                                  +--appeal (a party)--> appealed
    appealed --rule (chief, level 2)--> ruled --appeal--> appealed
    appealed --votes (committee, level 3; 2 of 3 decide)--> closed

* Raising one (``dispute_open``) needs a game whose result is not locked,
  and makes the game ``disputed``: it cannot be confirmed until the dispute
  is closed (``game_result_confirm`` refuses a disputed game).
* A ruling's ``decision`` is about the claim (``upheld``/``dismissed``) at
  every level.  What an upheld claim does depends on its kind
  (``_outcome``, seed 001 via ``referee.remedies``).  Every level's ruling is
  kept and the last one stands: each is computed from the game as it was
  before the first ruling (``effect["base"]``), so a higher level that
  decides otherwise undoes what the lower one did.
* A party may appeal a ruling once per level: the referee's to the chief
  referee, the chief's to the arbitration committee.  The committee's
  ruling is the last word and closes the dispute.
* Accepting: a party accepts the standing ruling (``dispute_accept``) and
  may no longer appeal it; when both have (or one has and no level is left
  above), the dispute closes as ``dispute_close`` would.
* Closing: a ruling that no one appeals is closed by an official of the
  tournament (a referee, the chief referee or a director, ``dispute_close``).
  The game goes back to ``submitted`` with the ruled result (``scheduled``
  when it has none: play goes on).
* Every step writes an audit row; every change to the result or record is
  audited by the games service that makes it, old and new values.
"""

from referee.services.deciding import (
    appeal_possible,
    dispute_accept,
    dispute_appeal,
    dispute_close,
    dispute_rule,
)
from referee.services.opening import (
    RECORD_KINDS,
    RESULT_KINDS,
    dispute_assign,
    dispute_open,
    dispute_open_automatic,
    officials_check,
    tournament_officials_set,
)

__all__ = [
    "RECORD_KINDS",
    "RESULT_KINDS",
    "appeal_possible",
    "dispute_accept",
    "dispute_appeal",
    "dispute_assign",
    "dispute_close",
    "dispute_open",
    "dispute_open_automatic",
    "dispute_rule",
    "officials_check",
    "tournament_officials_set",
]
