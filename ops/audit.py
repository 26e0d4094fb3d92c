"""``audit_record``: the one function every service calls to add a row to the audit trail."""

from __future__ import annotations

from typing import Any

from django.db import models

from ops.models import AuditEntry
from ops.services import Actor, as_user


def audit_record(
    *,
    actor: Actor,
    action: str,
    obj: models.Model,
    old: Any = None,
    new: Any = None,
) -> AuditEntry:
    """Add one audit row.  Call it inside the service's transaction."""
    entry = _entry(as_user(actor), action, obj, old, new)
    entry.save(force_insert=True)
    return entry


def audit_record_many(
    *, actor: Actor, action: str, rows: list[tuple[models.Model, Any, Any]]
) -> None:
    """One audit row per (object, old, new), in bulk inserts (an import of thousands of
    rows).  Call it inside the service's transaction."""
    user = as_user(actor)
    AuditEntry.objects.bulk_create(
        [_entry(user, action, obj, old, new) for obj, old, new in rows], batch_size=1000
    )


def _entry(user: Any, action: str, obj: models.Model, old: Any, new: Any) -> AuditEntry:
    """The row that names ``obj`` (one shape for a single write and a bulk one)."""
    return AuditEntry(
        actor=user,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        old_value=old,
        new_value=new,
    )
