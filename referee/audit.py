"""Writing audit entries: the one function every service calls."""

from __future__ import annotations

from typing import Any

from django.db import models

from referee.models import AuditEntry


def audit_record(
    *,
    actor: Any,
    action: str,
    obj: models.Model,
    old: Any = None,
    new: Any = None,
) -> AuditEntry:
    """Add one audit row.  Call it inside the service's transaction."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        actor=user,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        old_value=old,
        new_value=new,
    )
