"""An import fills a federation id only on a player its user may edit; otherwise the id
goes to the review list with the importing user named.  Every identity change's audit
row names its actor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Player, PossibleDuplicate, TournamentEntry
from games.people.services.grants import director_grant_admin, federation_official_grant
from games.tournament.engine.formats import opengotha
from ops.models import AuditAction, AuditEntry
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, enter

PPIK = Path(__file__).resolve().parents[2] / "data" / "opengotha" / "ppik-2010.xml"
IMPORT = "/api/v1/tournaments/import/"


@pytest.fixture
def b_director(db: Any) -> Any:
    user = UserFactory(username="bdirector", is_staff=True)
    director_grant_admin(user=user)
    return user


@pytest.fixture
def rival(db: Any) -> Any:
    user = UserFactory(username="rival", is_staff=True)
    director_grant_admin(user=user)
    return user


@pytest.fixture
def b_player(b_director: Any) -> tuple[Player, str]:
    """A player of the file known to goref by name only, first entered by B's event;
    and the EGD PIN the file gives him."""
    entrant = next(e for e in opengotha.read(PPIK.read_bytes()).entrants if e.egd_pin)
    cup_b = TournamentFactory(name="Cup B")
    cup_b.directors.add(b_director)
    player = PlayerFactory(family_name=entrant.family_name, given_name=entrant.given_name)
    enter(cup_b, player)
    return player, entrant.egd_pin


def _import(api_as: Any, user: Any) -> Any:
    upload = SimpleUploadedFile("t.xml", PPIK.read_bytes(), content_type="text/xml")
    response = api_as(user).post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()


def test_another_directors_import_never_sets_a_pin_and_queues_it_naming_him(
    api_as: Any, client: Any, rival: Any, b_player: tuple[Player, str], settings: Any
) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the sample file's event is not recent
    player, pin = b_player
    body = _import(api_as, rival)
    player.refresh_from_db()
    assert player.egd_pin is None  # a direct edit is refused (403); so is the import's
    dup = PossibleDuplicate.objects.get(other=player)
    assert dup.player.egd_pin == pin and "whom rival may not edit" in dup.reason
    assert body["review"] >= 1
    flagged = AuditEntry.objects.get(action=AuditAction.PLAYER_DUPLICATE_FLAGGED)
    assert flagged.actor == rival
    created = AuditEntry.objects.filter(action=AuditAction.PLAYER_CREATED)
    assert created.exists() and not created.filter(actor=None).exists()
    assert not AuditEntry.objects.filter(action=AuditAction.PLAYER_UPDATED, actor=None).exists()

    # The rival cannot merge the pair into B's player (the PIN would reach him that way);
    # a federation official can.
    review = reverse("games:duplicates")
    client.force_login(rival)
    client.post(review, {"duplicate": dup.pk, "action": "merge", "keep": player.pk})
    assert Player.objects.get(pk=player.pk).egd_pin is None
    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    client.force_login(official)
    client.post(review, {"duplicate": dup.pk, "action": "merge", "keep": player.pk})
    assert Player.objects.get(pk=player.pk).egd_pin == pin
    merged = AuditEntry.objects.get(action=AuditAction.PLAYER_MERGED)
    assert merged.actor == official


def test_the_players_own_director_fills_the_pin_and_the_audit_names_him(
    api_as: Any, b_director: Any, b_player: tuple[Player, str], settings: Any
) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000
    player, pin = b_player
    body = _import(api_as, b_director)
    player.refresh_from_db()
    assert player.egd_pin == pin
    assert TournamentEntry.objects.filter(tournament=body["tournament"], player=player).exists()
    filled = AuditEntry.objects.get(action=AuditAction.PLAYER_UPDATED, object_id=str(player.pk))
    assert filled.actor == b_director and filled.new_value["egd_pin"] == pin
