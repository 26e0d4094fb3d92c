"""The "Directors" group: the Django-admin permissions a tournament director needs; and
the "Federation officials" group: who decides for the whole federation.

Which tournaments a director may touch is decided per object (``games.permissions``);
the Directors group only opens the admin pages, and ``director_grant_admin`` grants
nothing more.  Federation officials (promotion policies and their default, approving
any tournament's candidates, the honorary 9p+, full rating recomputes) are named and
revoked by a superuser only (``federation_official_grant``, ``federation_official_revoke``:
the ``federation_official`` command and the user admin's actions call them, audited).

Both groups are made by a data migration (games 0009_directors_group) and brought in step
with the apps' declared permissions after every ``migrate`` (``sync_groups``, connected to
``post_migrate``), so a production install has them without the demo command; the one
definition is ``director_permissions`` here.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import StateConflict, require

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


def build_groups(group_model: Any, permission_model: Any) -> Any:
    """Make (or bring in step) both groups with these models (a migration passes its
    historical ones): the Directors group gets exactly the declared permissions that
    exist; the federation officials' group is decided by membership alone.  Returns the
    Directors group."""
    with transaction.atomic():
        group, _ = group_model.objects.get_or_create(name=DIRECTORS_GROUP)
        group_model.objects.get_or_create(name=FEDERATION_GROUP)
        wanted = []
        for app, model, actions in director_permissions():
            wanted.extend(
                permission_model.objects.filter(
                    content_type__app_label=app,
                    codename__in=[f"{action}_{model}" for action in actions],
                )
            )
        group.permissions.set(wanted)
    return group


def ensure_directors_group() -> Group:
    """Create (or bring up to date) the Directors group; safe to call any number of times."""
    group: Group = build_groups(Group, Permission)
    return group


def sync_groups(sender: Any = None, **kwargs: Any) -> None:
    """``post_migrate``: bring the groups in step with the apps' declared permissions
    (a permission declared later, or a model added, reaches the group at the next
    ``migrate``).  Django sends the signal once per app with models, after that app's
    permissions are made: the groups are built once, after the last app's."""
    with_models = [c for c in apps.get_app_configs() if c.models_module is not None]
    if sender is not None and with_models and sender is not with_models[-1]:
        return
    build_groups(Group, Permission)


def director_grant(*, actor: Any, user: Any) -> None:
    """Make ``user`` a director who can enter the admin (``actor=None``: an operator's
    command), audited; he then adds tournaments, and directs those he adds."""
    was = bool(user.is_staff and user.groups.filter(name=DIRECTORS_GROUP).exists())
    with transaction.atomic():
        director_grant_admin(user=user)
        audit_record(
            actor=actor,
            action=AuditAction.USER_DIRECTOR_GRANTED,
            obj=user,
            old={"director": was},
            new={"director": True},
        )


def director_create(*, actor: Any, username: str, password: str, email: str = "") -> Any:
    """A new account for a director (an operator's command: ``director_grant --create``):
    not a superuser, the password checked by the site's validators, then
    ``director_grant``; audited.  Refused when the username is taken."""
    users = get_user_model()
    username = users.normalize_username(username.strip())
    if not username:
        raise ValidationError({"username": "Give the director's login name."})
    if users.objects.filter(username__iexact=username).exists():
        raise StateConflict(f"A user is already called {username!r}: grant him instead.")
    user = users(username=username, email=users.objects.normalize_email(email.strip()))
    validate_password(password, user)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    with transaction.atomic():
        user.save()
        director_grant(actor=actor, user=user)
    return user


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
    _federation_official_set(actor=actor, user=user, official=True)


def federation_official_revoke(*, actor: Any, user: Any) -> None:
    """A superuser takes the federation official's powers back from ``user``."""
    _federation_official_set(actor=actor, user=user, official=False)


def _federation_official_set(*, actor: Any, user: Any, official: bool) -> None:
    if actor is not None:
        require(
            bool(getattr(actor, "is_superuser", False)),
            "Only a superuser names or revokes federation officials.",
        )
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=FEDERATION_GROUP)
        was = user.groups.filter(pk=group.pk).exists()
        if official:
            user.groups.add(group)
        else:
            user.groups.remove(group)
        audit_record(
            actor=actor,
            action=AuditAction.USER_FEDERATION_OFFICIAL_GRANTED
            if official
            else AuditAction.USER_FEDERATION_OFFICIAL_REVOKED,
            obj=user,
            old={"federation_official": was},
            new={"federation_official": official},
        )


def federation_officials() -> Any:
    """The users who are federation officials, by username."""
    return get_user_model().objects.filter(groups__name=FEDERATION_GROUP).order_by("username")
