"""A director's reach over players: he edits only the players of his own tournaments, never
links accounts (only a superuser, or the player accepting an invitation), and every
player and tournament change leaves an audit row with the old and new values."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Player
from games.people import services as people
from games.people.services.grants import director_grant_admin
from games.people.services.invitations import player_invitation_accept, player_invite
from games.tournament import services as tournament_services
from ops.models import AuditEntry
from ops.services import StateConflict
from tests.factories import (
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    enter,
    entered_player,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def rival(db: Any) -> Any:
    """The director of another tournament, with admin access."""
    user = UserFactory(username="rival")
    director_grant_admin(user=user)
    TournamentFactory(name="Rival Open").directors.add(user)
    return user


@pytest.fixture
def cup_b(rival: Any) -> Any:
    """Tournament B: alice and bob play in it (``b_game``), ``rival`` does not direct it."""
    return TournamentFactory(name="Cup B")


@pytest.fixture
def b_game(cup_b: Any, alice: Any, bob: Any, director: Any) -> Any:
    cup_b.directors.add(director)
    enter(cup_b, alice, bob)
    return tournament_services.game_create(
        actor=None, tournament=cup_b, round_number=1, black=alice, white=bob, table=1
    )


def _as(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


# ----------------------------------------------------------------------------- the attack


def test_a_director_of_another_tournament_cannot_relink_players_to_himself(
    b_game: Any, rival: Any, alice: Any
) -> None:
    """The forged-result attack: relink B's players to himself.  Refused in the service."""
    with pytest.raises(PermissionDenied):
        people.player_update(actor=rival, player=alice, user=rival)
    alice.refresh_from_db()
    assert alice.user.username == "alice"


def test_even_his_own_players_account_link_is_not_a_directors_to_set(
    game: Any, director: Any, alice: Any, outsider: Any
) -> None:
    with pytest.raises(PermissionDenied, match="invite the player"):
        people.player_update(actor=director, player=alice, user=outsider)
    with pytest.raises(PermissionDenied):
        people.player_create(actor=director, family_name="New", rank="3k", user=outsider)


def test_the_admin_form_has_no_account_field_for_a_director(
    game: Any, director: Any, alice: Any
) -> None:
    director_grant_admin(user=director)
    page = _as(director).get(reverse("admin:games_player_change", args=[alice.pk]))
    assert page.status_code == 200
    assert b'name="user"' not in page.content
    assert b"linked to an account" in page.content
    # A forged POST with user= is ignored: the field is not on the form.
    data = {"family_name": "Liddell", "given_name": "Alice", "rank": "3k", "user": director.pk}
    _as(director).post(reverse("admin:games_player_change", args=[alice.pk]), data)
    alice.refresh_from_db()
    assert alice.user.username == "alice"


def test_another_tournaments_players_are_read_only_in_the_admin(
    b_game: Any, rival: Any, alice: Any
) -> None:
    url = reverse("admin:games_player_change", args=[alice.pk])
    page = _as(rival).get(url)
    assert page.status_code == 200 and b'name="family_name"' not in page.content  # view only
    response = _as(rival).post(url, {"family_name": "Forged", "rank": "3k"})
    assert response.status_code == 403
    alice.refresh_from_db()
    assert alice.family_name == "Liddell"


def test_another_tournaments_player_is_refused_over_the_api(
    b_game: Any, rival: Any, alice: Any, api_as: Any
) -> None:
    response = api_as(rival).patch(
        f"/api/v1/players/{alice.pk}/", {"family_name": "Forged"}, format="json"
    )
    assert response.status_code == 403
    assert "another director's tournament" in response.json()["message"]


def test_a_player_with_no_games_yet_is_any_directors_to_edit(rival: Any) -> None:
    newcomer = PlayerFactory(family_name="New")
    people.player_update(actor=rival, player=newcomer, given_name="Comer")
    assert Player.objects.get(pk=newcomer.pk).given_name == "Comer"


def test_entering_another_tournaments_player_in_his_own_does_not_make_him_his(
    rival: Any, cup_b: Any
) -> None:
    """Entering B's player in his own tournament gives the rival no reach over him."""
    entrant = entered_player(cup_b, family_name="Entrant")
    with pytest.raises(PermissionDenied):
        people.player_update(actor=rival, player=entrant, given_name="Forged")
    mine = TournamentFactory(name="Rival Open 2")
    mine.directors.add(rival)
    enter(mine, entrant)
    with pytest.raises(PermissionDenied):
        people.player_update(actor=rival, player=entrant, given_name="Forged")
    assert Player.objects.get(pk=entrant.pk).given_name != "Forged"


def test_a_superuser_links_an_account_and_it_is_audited(
    superuser: Any, alice: Any, outsider: Any
) -> None:
    before = alice.user_id
    people.player_update(actor=superuser, player=alice, user=outsider)
    row = AuditEntry.objects.filter(action="player.updated", object_id=str(alice.pk)).get()
    assert row.old_value == {"user": before} and row.new_value == {"user": outsider.pk}
    assert row.actor == superuser


# ----------------------------------------------------------------------------- audit rows


def test_every_player_change_is_audited_with_old_and_new(
    game: Any, director: Any, bob: Any
) -> None:
    people.player_update(actor=director, player=bob, family_name="Baumeister", country="DE")
    row = AuditEntry.objects.get(action="player.updated", object_id=str(bob.pk))
    assert row.old_value["family_name"] == "Builder"
    assert row.new_value["family_name"] == "Baumeister" and row.new_value["country"] == "DE"
    assert set(row.old_value) == set(row.new_value) <= {"family_name", "country"}


def test_turning_rated_off_and_moving_dates_are_audited(tournament: Any, director: Any) -> None:
    old_end = tournament.end_date
    tournament_services.tournament_update(
        actor=director, tournament=tournament, rated=False, end_date=old_end + dt.timedelta(days=3)
    )
    row = AuditEntry.objects.get(action="tournament.updated", object_id=str(tournament.pk))
    assert row.old_value == {"rated": True, "end_date": str(old_end)}
    assert row.new_value == {"rated": False, "end_date": str(old_end + dt.timedelta(days=3))}
    assert row.actor == director


def test_an_unchanged_save_writes_no_row(tournament: Any, director: Any) -> None:
    tournament_services.tournament_update(
        actor=director, tournament=tournament, name=tournament.name
    )
    assert not AuditEntry.objects.filter(action="tournament.updated").exists()


# ----------------------------------------------------------------------------- invitations


def _invite(director: Any, player: Any, email: str = "carol@example.org") -> str:
    people.player_update(actor=director, player=player, email=email)
    player_invite(
        actor=director,
        player=player,
        accept_url=lambda token: f"http://testserver/accounts/invitation/{token}/",
    )
    found = re.search(r"http://testserver(/accounts/invitation/[^/\s]+/)", mail.outbox[0].body)
    assert found
    return found.group(1)


@pytest.fixture
def carol(tournament: Any, alice: Any) -> Any:
    """A player of the director's tournament without an account."""
    player = entered_player(tournament, family_name="Carroll", given_name="Carol", user=None)
    enter(tournament, alice)
    tournament_services.game_create(
        actor=None, tournament=tournament, round_number=2, black=player, white=alice, table=1
    )
    return player


def test_an_invited_player_sets_a_password_and_the_account_is_linked(
    director: Any, carol: Any, client: Client
) -> None:
    url = _invite(director, carol)
    assert mail.outbox[0].to == ["carol@example.org"]
    page = client.get(url)
    assert page.status_code == 200 and b"Carroll Carol" in page.content
    response = client.post(
        url,
        {
            "username": "carol",
            "password": "a-long-pass-phrase",
            "password_again": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 302
    carol.refresh_from_db()
    assert carol.user.username == "carol" and carol.user.email == "carol@example.org"
    assert carol.user.check_password("a-long-pass-phrase")
    row = AuditEntry.objects.get(action="player.account_linked")
    assert row.new_value["via"] == "invitation"
    # The link works once.
    assert client.get(url).status_code == 400


def test_a_logged_in_user_links_his_own_account(director: Any, carol: Any, outsider: Any) -> None:
    url = _invite(director, carol)
    response = _as(outsider).post(url)
    assert response.status_code == 302
    carol.refresh_from_db()
    assert carol.user == outsider


def test_a_forged_or_expired_invitation_is_refused(
    director: Any, carol: Any, client: Client
) -> None:
    url = _invite(director, carol)
    assert client.get(url[:-3] + "xx/").status_code == 400
    with time_machine.travel(timezone.now() + dt.timedelta(days=8)):
        response = client.get(url)
    assert response.status_code == 400 and b"expired" in response.content


def test_a_weak_password_is_refused_on_the_form(director: Any, carol: Any, client: Client) -> None:
    url = _invite(director, carol)
    response = client.post(url, {"username": "carol", "password": "123", "password_again": "123"})
    assert response.status_code == 200 and b"too short" in response.content
    carol.refresh_from_db()
    assert carol.user is None


def test_only_a_director_of_the_players_tournament_invites(rival: Any, carol: Any) -> None:
    with pytest.raises(PermissionDenied):
        player_invite(actor=rival, player=carol, accept_url=str)


def test_a_player_with_an_account_is_not_invited(director: Any, game: Any, alice: Any) -> None:
    people.player_update(actor=director, player=alice, email="alice@example.org")
    with pytest.raises(StateConflict):
        player_invite(actor=director, player=alice, accept_url=str)


def test_a_bad_address_is_refused(director: Any, carol: Any) -> None:
    with pytest.raises(ValidationError):
        people.player_update(actor=director, player=carol, email="not-an-address")
    with pytest.raises(ValidationError, match="no e-mail address on file"):
        player_invite(actor=director, player=carol, accept_url=str)


def test_the_director_invites_from_the_admin(director: Any, carol: Any) -> None:
    director_grant_admin(user=director)
    change = _as(director).get(reverse("admin:games_player_change", args=[carol.pk]))
    url = reverse("admin:games_player_invite", args=[carol.pk])
    assert url.encode() in change.content
    page = _as(director).get(url)
    assert b"no e-mail address on file" in page.content
    response = _as(director).post(
        reverse("admin:games_player_change", args=[carol.pk]),
        {"family_name": "Carroll", "given_name": "Carol", "rank": "3k", "email": "c@example.org"},
    )
    assert response.status_code == 302
    response = _as(director).post(url)
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["c@example.org"]
    assert "/accounts/invitation/" in mail.outbox[-1].body


def test_a_taken_username_is_refused(director: Any, carol: Any) -> None:
    url = _invite(director, carol)
    token = url.rstrip("/").rsplit("/", 1)[1]
    with pytest.raises(ValidationError):
        player_invitation_accept(token=token, username="alice", password="a-long-pass-phrase")


# ----------------------------------------------------------------------------- password reset


def test_password_reset_works_with_djangos_views(alice: Any, client: Client) -> None:
    alice.user.email = "alice@example.org"
    alice.user.save()
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 302
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[-1].body)
    assert link
    page = client.get(link.group(1), follow=True)
    assert page.status_code == 200 and b"Choose a new password" in page.content
    done = client.post(
        page.redirect_chain[-1][0],
        {"new_password1": "brand-new-passphrase", "new_password2": "brand-new-passphrase"},
    )
    assert done.status_code == 302
    assert get_user_model().objects.get(pk=alice.user.pk).check_password("brand-new-passphrase")


def test_the_login_page_links_to_the_reset(client: Client, db: Any) -> None:
    assert reverse("password_reset").encode() in client.get(reverse("login")).content
