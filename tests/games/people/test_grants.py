"""A production install a director can enter: the groups made by migrate, kept in step
with the apps' declared permissions, and ``manage.py director_grant USERNAME``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from games.people.services.grants import (
    DIRECTORS_GROUP,
    FEDERATION_GROUP,
    director_permissions,
    sync_groups,
)
from ops.models import AuditEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def declared() -> set[tuple[str, str]]:
    return {
        (app, f"{action}_{model}")
        for app, model, actions in director_permissions()
        for action in actions
    }


def held() -> set[tuple[str, str]]:
    group = Group.objects.get(name=DIRECTORS_GROUP)
    return set(group.permissions.values_list("content_type__app_label", "codename"))


def test_migrate_makes_both_groups_with_exactly_the_declared_permissions():
    assert Group.objects.filter(name=FEDERATION_GROUP).exists()
    assert held() == declared() and len(declared()) >= 30


def test_the_next_migrate_brings_the_group_back_in_step():
    group = Group.objects.get(name=DIRECTORS_GROUP)
    group.permissions.remove(*group.permissions.all()[:3])
    group.permissions.add(*Permission.objects.filter(codename="delete_game"))
    sync_groups()
    assert held() == declared()


def test_director_grant_lets_a_user_into_the_admin_as_a_director(capsys):
    user = UserFactory(username="dana")
    call_command("director_grant", "dana")
    assert "dana is a director" in capsys.readouterr().out
    user.refresh_from_db()
    assert user.is_staff and user.groups.filter(name=DIRECTORS_GROUP).exists()
    entry = AuditEntry.objects.get(action="user.director_granted")
    assert entry.old_value == {"director": False} and entry.new_value == {"director": True}
    client = Client()
    client.force_login(user)
    assert client.get(reverse("admin:games_tournament_add")).status_code == 200


def test_director_grant_names_an_unknown_user():
    with pytest.raises(CommandError, match="No user is called 'nobody'"):
        call_command("director_grant", "nobody")
