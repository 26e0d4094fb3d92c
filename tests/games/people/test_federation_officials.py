"""Federation officials are named and revoked through one audited service: the command,
the user admin's superuser-only actions; Django's own forms cannot change the group."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command
from django.test import Client

from games.people.services.grants import (
    FEDERATION_GROUP,
    director_grant_admin,
    federation_official_grant,
)
from games.permissions import is_federation_official
from ops.models import AuditAction, AuditEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _trail(user: Any) -> list[tuple[str, Any, Any]]:
    rows = AuditEntry.objects.filter(object_type="auth.user", object_id=str(user.pk))
    return [(e.action, e.old_value, e.new_value) for e in rows.order_by("id")]


def test_the_command_names_lists_and_revokes_with_an_audit_row_each() -> None:
    user = UserFactory(username="fed")
    out = StringIO()
    call_command("federation_official", "grant", "fed", stdout=out)
    assert is_federation_official(user)
    out = StringIO()
    call_command("federation_official", "list", stdout=out)
    assert out.getvalue().split() == ["fed"]
    call_command("federation_official", "revoke", "fed", stdout=StringIO())
    assert not is_federation_official(user)
    assert _trail(user) == [
        (
            AuditAction.USER_FEDERATION_OFFICIAL_GRANTED,
            {"federation_official": False},
            {"federation_official": True},
        ),
        (
            AuditAction.USER_FEDERATION_OFFICIAL_REVOKED,
            {"federation_official": True},
            {"federation_official": False},
        ),
    ]


def test_the_command_names_an_unknown_user_clearly() -> None:
    with pytest.raises(CommandError, match="No user is called 'nobody'"):
        call_command("federation_official", "grant", "nobody", stdout=StringIO())
    with pytest.raises(CommandError, match="Say whom"):
        call_command("federation_official", "revoke", stdout=StringIO())


def test_a_superuser_names_an_official_with_the_user_lists_action(superuser: Any) -> None:
    user = UserFactory(username="named")
    client = Client()
    client.force_login(superuser)
    response = client.post(
        "/admin/auth/user/",
        {"action": "name_federation_officials", "_selected_action": [user.pk]},
    )
    assert response.status_code == 302
    assert is_federation_official(user)
    assert _trail(user)[0][0] == AuditAction.USER_FEDERATION_OFFICIAL_GRANTED
    assert AuditEntry.objects.get(object_id=str(user.pk)).actor == superuser


def test_a_staff_director_is_offered_no_such_action() -> None:
    staff = UserFactory(username="staff")
    director_grant_admin(user=staff)
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "change_user"])
    )
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/auth/user/")
    assert page.status_code == 200
    assert b"name_federation_officials" not in page.content


def test_the_user_form_neither_offers_nor_drops_the_group(superuser: Any) -> None:
    official = UserFactory(username="keep")
    federation_official_grant(actor=None, user=official)
    client = Client()
    client.force_login(superuser)
    form = client.get(f"/admin/auth/user/{official.pk}/change/")
    assert FEDERATION_GROUP.encode() not in form.content
    directors = Group.objects.get_or_create(name="Directors")[0]
    response = client.post(
        f"/admin/auth/user/{official.pk}/change/",
        {
            "username": "keep",
            "is_active": "on",
            "groups": [directors.pk],
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    assert is_federation_official(official)
    assert official.groups.filter(name="Directors").exists()


def test_the_group_itself_cannot_be_changed_or_deleted_by_hand(superuser: Any) -> None:
    group = Group.objects.get(name=FEDERATION_GROUP)  # made by migrate
    client = Client()
    client.force_login(superuser)
    assert client.post(f"/admin/auth/group/{group.pk}/change/", {"name": "Mine"}).status_code == 403
    assert client.post(f"/admin/auth/group/{group.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Group.objects.filter(name=FEDERATION_GROUP).exists()
