"""The "Directors" group: the Django-admin permissions a tournament director needs; and
the "Federation officials" group: who decides for the whole federation.

Which tournaments a director may touch is decided per object (``games.permissions``);
the Directors group only opens the admin pages, and ``director_grant_admin`` grants
nothing more.  Federation officials (promotion policies and their default, approving
any tournament's candidates, the honorary 9p+, full rating recomputes) are named by a
superuser only (``federation_official_grant``).  Made in code, not a data migration, so
the demo command and the tests share one definition.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.db import transaction

DIRECTORS_GROUP = "Directors"
FEDERATION_GROUP = "Federation officials"


def director_permissions() -> list[tuple[str, str, tuple[str, ...]]]:
    """(app label, model, actions) for the group: each app lists its own in its
    ``AppConfig.director_permissions``, so this module names no other app."""
    return [
        (config.label, model, actions)
        for config in apps.get_app_configs()
        for model, actions in getattr(config, "director_permissions", ())
    ]


def ensure_directors_group() -> Group:
    """Create (or bring up to date) the Directors group; safe to call any number of times."""
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=DIRECTORS_GROUP)
        wanted = []
        for app, model, actions in director_permissions():
            for action in actions:
                wanted.append(
                    Permission.objects.get(
                        content_type__app_label=app, codename=f"{action}_{model}"
                    )
                )
        group.permissions.set(wanted)
    return group


def director_grant_admin(*, user: Any) -> None:
    """Let ``user`` into the admin as a director: staff, in the Directors group."""
    with transaction.atomic():
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        user.groups.add(ensure_directors_group())


def federation_official_grant(*, actor: Any, user: Any) -> None:
    """A superuser names ``user`` a federation official (``actor=None``: an operator's
    command).  No director can: the group is never granted with the admin."""
    from ops.audit import audit_record
    from ops.services import require

    if actor is not None:
        require(
            bool(getattr(actor, "is_superuser", False)),
            "Only a superuser names federation officials.",
        )
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=FEDERATION_GROUP)
        user.groups.add(group)
        audit_record(
            actor=actor,
            action="user.federation_official_granted",
            obj=user,
            old={"federation_official": False},
            new={"federation_official": True},
        )
