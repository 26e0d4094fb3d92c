"""The games app's own refusal: a locked result."""

from __future__ import annotations

from typing import Final

from ops.services import StateConflict

# One message for every attempt to change a locked game, whatever the path.
LOCKED_MESSAGE: Final = (
    "The result of this game is final (confirmed by both players or finalised by a director) "
    "and can no longer be changed."
)


class GameLockedError(StateConflict):
    """The game is confirmed or final: nothing may change its result."""

    def __init__(self) -> None:
        super().__init__(LOCKED_MESSAGE, code="locked")
