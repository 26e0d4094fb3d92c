"""What every app's services share: the 409 error, the "not given" marker, saving, actors.

``StateConflict``: well formed, but the object's state forbids it (409).
``actor=None`` is the operator (a management command): no permission checks.
docs/operations.md §2.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import InterfaceError, OperationalError, models

from ops.pages import cache
from ops.users import is_authenticated

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
    """``full_clean`` then save: constraints are checked before the database sees the row.

    With ``update_fields`` only what the update can break is checked: the
    changed fields' values (a foreign key's existence costs a query each), and
    the unique checks and constraints that name a changed field (each a query
    in a savepoint), against the whole row.  The rest was valid when stored.
    """
    if update_fields is None:
        obj.full_clean(exclude=exclude)
        obj.save()
    else:
        _validate_update(obj, set(update_fields), set(exclude or ()))
        obj.save(update_fields=update_fields)
    cache.changed(obj)  # cached reads that show this row miss after commit


def _validate_update(obj: models.Model, changed: set[str], exclude: set[str]) -> None:
    meta = obj._meta
    changed |= {f.name for f in meta.concrete_fields if f.attname in changed}
    unchanged = {f.name for f in meta.concrete_fields if f.name not in changed}
    errors: dict[str, Any] = {}
    steps: tuple[Callable[[], None], ...] = (
        lambda: obj.clean_fields(exclude=unchanged | exclude),
        obj.clean,
        lambda: _validate_unique(obj, changed, exclude),
        lambda: _validate_constraints(obj, changed, exclude),
    )
    for step in steps:
        try:
            step()
        except ValidationError as e:
            errors = e.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)


def _validate_unique(row: models.Model, changed: set[str], exclude: set[str]) -> None:
    # Model.validate_unique's own steps (Django 5.2), kept to the checks naming a changed field.
    obj: Any = row
    unique_checks, date_checks = obj._get_unique_checks(exclude=exclude)
    unique = [(m, names) for m, names in unique_checks if changed & set(names)]
    dates = [c for c in date_checks if changed & {c[1], c[3]}]
    errors: dict[str, Any] = {}
    for problems in (obj._perform_unique_checks(unique), obj._perform_date_checks(dates)):
        for name, messages in problems.items():
            errors.setdefault(name, []).extend(messages)
    if errors:
        raise ValidationError(errors)


def _validate_constraints(obj: models.Model, changed: set[str], exclude: set[str]) -> None:
    from django.db import router

    using = router.db_for_write(type(obj), instance=obj)
    errors: dict[str, Any] = {}
    for model_class, constraints in obj.get_constraints():
        for constraint in constraints:
            if changed & _constraint_fields(constraint):
                _check(constraint, model_class, obj, exclude, using, errors)
    if errors:
        raise ValidationError(errors)


def _check(
    constraint: Any,
    model_class: Any,
    obj: models.Model,
    exclude: set[str],
    using: str,
    errors: dict[str, Any],
) -> None:
    # As Model.validate_constraints words its errors.
    try:
        holds = _holds(constraint, obj)
        if holds is None:
            constraint.validate(model_class, obj, exclude=exclude, using=using)
        elif not holds:
            raise ValidationError(
                constraint.get_violation_error_message(), code=constraint.violation_error_code
            )
    except ValidationError as e:
        if getattr(e, "code", None) == "unique" and len(getattr(constraint, "fields", ())) == 1:
            errors.setdefault(constraint.fields[0], []).append(e)
        else:
            e.update_error_dict(errors)


class _Unknown(Exception):
    """A condition this module does not evaluate in Python: the database checks it."""


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "exact": lambda a, b: a == b,
    "in": lambda a, b: a in b,
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def _holds(constraint: Any, obj: models.Model) -> bool | None:
    """A check constraint's verdict on ``obj`` in Python (``None``: ask the database).

    Django runs each check as a query in a savepoint; the simple conditions
    goref uses (comparisons of a field with a constant, ``isnull``, and/or/not)
    need no database.  SQL's NULL is kept: an unknown condition passes.
    """
    from django.db.models import CheckConstraint

    if not isinstance(constraint, CheckConstraint):
        return None
    try:
        verdict = _truth(constraint.condition, obj)
    except _Unknown:
        return None
    return verdict is not False


def _truth(node: Any, obj: models.Model) -> bool | None:
    from django.db.models import Q
    from django.db.models.expressions import Combinable

    if isinstance(node, Q):
        parts = [_truth(child, obj) for child in node.children]
        if node.connector == Q.AND:
            value = False if False in parts else (None if None in parts else True)
        elif node.connector == Q.OR:
            value = True if True in parts else (None if None in parts else False)
        else:
            raise _Unknown
        return (None if value is None else not value) if node.negated else value
    if not isinstance(node, tuple) or len(node) != 2:
        raise _Unknown
    path, constant = node
    if isinstance(constant, Combinable) or hasattr(constant, "resolve_expression"):
        raise _Unknown  # F(), an expression: the database knows
    name, _, lookup = str(path).partition("__")
    lookup = lookup or "exact"
    try:
        found = obj._meta.get_field(name)
    except Exception:
        raise _Unknown from None
    if "__" in lookup or not isinstance(found, models.Field) or found.is_relation:
        raise _Unknown
    field: models.Field[Any, Any] = found
    value = getattr(obj, field.attname)
    if lookup == "isnull":
        return (value is None) == bool(constant)
    if lookup not in _COMPARE:
        raise _Unknown
    try:
        value = field.to_python(value)
        constant = (
            [field.to_python(c) for c in constant] if lookup == "in" else field.to_python(constant)
        )
    except ValidationError:
        raise _Unknown from None
    if value is None or constant is None:
        return None
    try:
        return _COMPARE[lookup](value, constant)
    except TypeError:
        raise _Unknown from None


def _constraint_fields(constraint: Any) -> set[str]:
    """The field names a constraint reads (its fields, condition and expressions)."""
    from django.db.models import F, Q

    names = set(getattr(constraint, "fields", ()) or ())
    stack: list[Any] = [getattr(constraint, "condition", None)]
    stack += list(getattr(constraint, "expressions", ()) or ())
    while stack:
        node = stack.pop()
        if isinstance(node, F):
            names.add(node.name.split("__")[0])
        elif isinstance(node, Q):
            for child in node.children:
                if isinstance(child, tuple):
                    names.add(str(child[0]).split("__")[0])
                    stack.append(child[1])
                else:
                    stack.append(child)
        elif hasattr(node, "get_source_expressions"):
            stack.extend(node.get_source_expressions())
    return names


def as_user(actor: Actor) -> User | None:
    """The actor as a user row for foreign keys (``None`` for anonymous or the operator)."""
    return cast("User", actor) if is_authenticated(actor) else None
