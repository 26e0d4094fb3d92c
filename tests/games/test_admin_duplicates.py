"""The review list of possible duplicates in the directors' admin: scoped to the
director's imports, "Keep apart" through the audited service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.groups import director_grant_admin
from games.models import DuplicateState, PossibleDuplicate
from games.tournament.services.files import tournament_import
from ops.models import AuditAction, AuditEntry
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
SIMPLE_MM = Path(__file__).resolve().parents[1] / "data" / "opengotha" / "pairgoth-simplemm.xml"
URL = "/admin/games/possibleduplicate/"


def test_a_director_reviews_his_imports_pairs_and_keeps_them_apart(director: Any) -> None:
    director_grant_admin(user=director)
    PlayerFactory(family_name="Robin", given_name="Clé")
    PlayerFactory(family_name="Robin", given_name="Cle")
    tournament_import(actor=director, data=SIMPLE_MM.read_bytes())
    # Another director's import: not on this director's list.
    PlayerFactory(family_name="Somebody", given_name="Else")
    c = Client()
    c.force_login(director)
    page = c.get(URL)
    assert page.status_code == 200
    assert page.content.count(b"the same name as players") == 2
    pks = list(PossibleDuplicate.objects.values_list("pk", flat=True))
    answer = c.post(URL, {"action": "keep_apart", "_selected_action": pks})
    assert answer.status_code == 302
    assert set(PossibleDuplicate.objects.values_list("state", flat=True)) == {DuplicateState.APART}
    assert AuditEntry.objects.filter(action=AuditAction.PLAYER_DUPLICATE_KEPT_APART).count() == 2


def test_another_director_sees_none_of_them(director: Any) -> None:
    PlayerFactory(family_name="Robin", given_name="Clé")
    PlayerFactory(family_name="Robin", given_name="Cle")
    tournament_import(actor=None, data=SIMPLE_MM.read_bytes())
    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    page = c.get(URL)
    assert page.status_code == 200 and b"the same name as players" not in page.content
