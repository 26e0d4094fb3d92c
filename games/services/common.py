"""What every service shares: the error types, the "not given" marker, permission checks."""

from __future__ import annotations

import enum
from typing import Any, Final, Literal, TypeVar

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models

# One message for every attempt to change a locked game, whatever the path.
LOCKED_MESSAGE: Final = (
    "The result of this game is final (confirmed by both players or finalised by a director) "
    "and can no longer be changed."
)


class GameStateError(ValidationError):
    """The request is well formed but the game's state does not allow it.

    A ``ValidationError`` (forms show it as a non-field error); the API answers
    409 Conflict for it.
    """

    def __init__(self, message: str, code: str = "state") -> None:
        super().__init__(message, code=code)


class GameLockedError(GameStateError):
    """The game is confirmed or final: nothing may change its result."""

    def __init__(self) -> None:
        super().__init__(LOCKED_MESSAGE, code="locked")


class _Unset(enum.Enum):
    UNSET = "UNSET"


UNSET: Final = _Unset.UNSET
Unset = Literal[_Unset.UNSET]

T = TypeVar("T")


def require(allowed: bool, message: str) -> None:
    if not allowed:
        raise PermissionDenied(message)


def validate_and_save(
    obj: models.Model, *, update_fields: list[str] | None = None, exclude: list[str] | None = None
) -> None:
    """``full_clean`` then save: constraints are checked before the database sees the row."""
    obj.full_clean(exclude=exclude)
    if update_fields is None:
        obj.save()
    else:
        obj.save(update_fields=update_fields)


def as_user(actor: Any) -> Any:
    """The actor as a user row for foreign keys (``None`` for anonymous or the system)."""
    return actor if getattr(actor, "is_authenticated", False) else None
