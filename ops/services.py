"""What every app's services share: the 409 error, the "not given" marker, saving, actors.

``StateConflict``: well formed, but the object's state forbids it (409).
``actor=None`` is the operator (a management command): no permission checks.
docs/operations.md §2.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import InterfaceError, OperationalError, models

from ops import cache

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser, User

# Who asks for a change: a user (maybe anonymous), or None for the operator.
Actor: TypeAlias = "AbstractBaseUser | AnonymousUser | None"

# Database errors that pass: a dropped connection, a server restarting.
# Background tasks retry them; nothing else does.
TRANSIENT_DB_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


class StateConflict(ValidationError):
    """The request is well formed but the object's state does not allow it (409)."""

    def __init__(self, message: str, code: str = "state") -> None:
        super().__init__(message, code=code)


class _Unset(enum.Enum):
    UNSET = "UNSET"


UNSET: Final = _Unset.UNSET
Unset = Literal[_Unset.UNSET]


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
    cache.changed(obj)  # cached reads that show this row miss after commit


def is_authenticated(user: object) -> bool:
    """A signed-in user (not ``None``, not ``AnonymousUser``)."""
    return bool(user is not None and getattr(user, "is_authenticated", False))


def as_user(actor: Actor) -> User | None:
    """The actor as a user row for foreign keys (``None`` for anonymous or the operator)."""
    return cast("User", actor) if is_authenticated(actor) else None
