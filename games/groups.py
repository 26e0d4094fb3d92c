"""The "Directors" group: the Django-admin permissions a tournament director needs.

Which tournaments he may touch is decided per object (``games.permissions``); the group
only opens the admin pages.  Made in code, not a data migration, so the demo command
and the tests share one definition.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import transaction

DIRECTORS_GROUP = "Directors"

# (app label, model, actions).  No delete on games or players: a game with a
# result is history, and a player with games is protected by the database.
DIRECTOR_PERMISSIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("games", "club", ("view", "add", "change")),
    ("games", "player", ("view", "add", "change")),
    ("games", "tournament", ("view", "change")),
    ("games", "round", ("view", "add", "change")),
    ("games", "game", ("view", "add", "change")),
    ("games", "resultsubmission", ("view",)),
    ("ops", "auditentry", ("view",)),
    ("referee", "dispute", ("view",)),
    ("referee", "ruling", ("view",)),
    ("referee", "tournamentofficials", ("view", "add", "change")),
    ("ops", "job", ("view",)),
    # Promotions: policies, candidates to approve or reject, the rank history.
    ("ratings", "promotionpolicy", ("view", "add", "change")),
    ("ratings", "promotioncandidate", ("view", "change")),
    ("ratings", "rankchange", ("view",)),
    ("ops", "workerheartbeat", ("view",)),
)


def ensure_directors_group() -> Group:
    """Create (or bring up to date) the Directors group; safe to call any number of times."""
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=DIRECTORS_GROUP)
        wanted = []
        for app, model, actions in DIRECTOR_PERMISSIONS:
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
