"""Clubs change through ``games.people.services.clubs``: scoped, audited, visible text only,
and the admin goes through it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from games.models import Club
from games.people import services as people
from games.people.services.clubs import club_create, club_update
from games.people.services.grants import director_grant_admin, federation_official_grant
from ops.models import AuditEntry
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _as(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def admin_director(tournament: Any, director: Any) -> Any:
    director_grant_admin(user=director)
    return director


@pytest.fixture
def wellington(db: Any) -> Club:
    club = Club.objects.create(name="Wellington", code="WELL", country="NZ")
    PlayerFactory(family_name="Member", club=club)
    return club


def test_a_director_cannot_rename_a_club_with_players_in_the_admin(
    admin_director: Any, wellington: Club
) -> None:
    url = reverse("admin:games_club_change", args=[wellington.pk])
    response = _as(admin_director).post(url, {"name": "Forged", "code": "WELL", "country": "NZ"})
    assert response.status_code == 403
    wellington.refresh_from_db()
    assert wellington.name == "Wellington"
    assert not AuditEntry.objects.filter(action="club.updated").exists()


def test_a_federation_officials_rename_is_audited_with_old_and_new(wellington: Club) -> None:
    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    club_update(actor=official, club=wellington, name="Wellington Go Club")
    row = AuditEntry.objects.get(action="club.updated", object_id=str(wellington.pk))
    assert row.old_value == {"name": "Wellington"}
    assert row.new_value == {"name": "Wellington Go Club"} and row.actor == official


def test_a_superuser_renames_in_the_admin_through_the_service(
    superuser: Any, wellington: Club
) -> None:
    url = reverse("admin:games_club_change", args=[wellington.pk])
    response = _as(superuser).post(url, {"name": "Capital", "code": "WELL", "country": "NZ"})
    assert response.status_code == 302
    assert Club.objects.get(pk=wellington.pk).name == "Capital"
    assert AuditEntry.objects.filter(action="club.updated", actor=superuser).exists()


def test_a_bidi_override_is_refused_and_nothing_changes(superuser: Any, wellington: Club) -> None:
    url = reverse("admin:games_club_change", args=[wellington.pk])
    response = _as(superuser).post(
        url, {"name": "Wel\u202eling", "code": "WELL", "country": "NZ"}, follow=True
    )
    assert response.status_code == 200 and b"Only visible characters" in response.content
    assert Club.objects.get(pk=wellington.pk).name == "Wellington"
    with pytest.raises(ValidationError):
        club_create(actor=superuser, name="Tab\there")


def test_a_director_adds_a_club_and_fixes_its_typo_while_it_has_no_players(
    admin_director: Any,
) -> None:
    response = _as(admin_director).post(
        reverse("admin:games_club_add"), {"name": "Aucklnd", "code": "", "country": "nz"}
    )
    assert response.status_code == 302
    club = Club.objects.get(name="Aucklnd")
    assert club.country == "NZ"
    assert AuditEntry.objects.filter(action="club.created", object_id=str(club.pk)).exists()
    club_update(actor=admin_director, club=club, name="Auckland")
    PlayerFactory(family_name="Member", club=club)
    with pytest.raises(PermissionDenied):
        club_update(actor=admin_director, club=club, name="Forged")


def test_a_new_club_named_on_a_player_is_audited(director: Any, tournament: Any) -> None:

    people.player_create(actor=director, family_name="New", rank="3k", club="Hamilton")
    assert AuditEntry.objects.filter(action="club.created", actor=director).exists()


def test_a_player_cannot_touch_clubs(alice: Any, wellington: Club) -> None:
    with pytest.raises(PermissionDenied):
        club_create(actor=alice.user, name="Mine")
    with pytest.raises(PermissionDenied):
        club_update(actor=alice.user, club=wellington, name="Mine")


def test_an_entrys_club_is_visible_text_only(director: Any, tournament: Any, api_as: Any) -> None:
    """The entry's copy of the club (crosstables, exports) is checked as a club is."""
    player = PlayerFactory(family_name="Entrant")
    url = f"/api/v1/tournaments/{tournament.pk}/entries/"
    body = {"player": player.pk, "club": "Evil\u202eClub"}
    response = api_as(director).post(url, body, format="json")
    assert response.status_code == 400 and "visible" in str(response.json())
    assert not tournament.entries.filter(player=player).exists()
    entry = api_as(director).post(url, {"player": player.pk}, format="json").json()
    response = api_as(director).patch(
        f"{url}{entry['id']}/", {"club": "Line\nbreak"}, format="json"
    )
    assert response.status_code == 400
