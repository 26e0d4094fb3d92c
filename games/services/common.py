"""The games app's own refusal: a locked result."""

from __future__ import annotations

from typing import Any, Final

from ops.services import StateConflict

# One message for every attempt to change a locked game, whatever the path.
LOCKED_MESSAGE: Final = (
    "The result of this game is final (confirmed by both players or finalised by a director) "
    "and can no longer be changed."
)


# A result the arbitration committee ruled on is final (WMSG 2008 rules, Appendix 1,
# item 10): no new claim, dispute or appeal reopens it.
COMMITTEE_FINAL_MESSAGE: Final = (
    "The arbitration committee's ruling is final: this result can no longer be changed or disputed."
)

# Both players accepted the ruling: they agree to its result as they would confirm a
# claim, and a confirmed result never changes (New Zealand Rules – Explanation).
ACCEPTED_FINAL_MESSAGE: Final = (
    "Both players accepted the ruling: this result is final and can no longer be changed."
)

# The finalising notes that say why a result was locked by a dispute's end.
RULING_FINAL_MESSAGES: Final = frozenset({COMMITTEE_FINAL_MESSAGE, ACCEPTED_FINAL_MESSAGE})


class GameLockedError(StateConflict):
    """The game is confirmed or final: nothing may change its result."""

    def __init__(self, message: str = LOCKED_MESSAGE) -> None:
        super().__init__(message, code="locked")


# A disputed game waits for its ruling: no director's finalise and no bulk action locks
# it, since a locked result can no longer be ruled on (docs/games.md, "A dispute holds
# its game").
DISPUTED_MESSAGE: Final = (
    "This game is disputed: the referee rules first, and its result is finalised after the "
    "dispute is closed."
)


class GameHeldError(StateConflict):
    """The game is under an open dispute (``why="disputed"``) or its players are still
    marking its dead stones (``why="marking"``): a bulk action leaves it alone."""

    def __init__(self, game: Any, why: str, message: str = DISPUTED_MESSAGE) -> None:
        super().__init__(message, code="disputed" if why == "disputed" else "marking")
        self.game = game
        self.why = why
