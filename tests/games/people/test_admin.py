"""The review list of possible duplicates in the directors' admin: scoped to the
director's imports, "Keep apart" through the audited service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.models import DuplicateState, Player, PossibleDuplicate
from games.people.services.grants import director_grant_admin
from games.tournament.services.files import tournament_import
from ops.models import AuditAction, AuditEntry
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
SIMPLE_MM = Path(__file__).resolve().parents[2] / "data" / "opengotha" / "pairgoth-simplemm.xml"
URL = "/admin/games/possibleduplicate/"


def test_a_director_reviews_his_imports_pairs_and_keeps_them_apart(
    director: Any, settings: Any
) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the sample files' events are not recent
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


def test_merge_moves_everything_to_the_kept_record_and_is_audited(director: Any) -> None:
    from games.people.services.duplicates import duplicate_merge
    from games.tournament import selectors
    from ops.services import StateConflict

    ppik = SIMPLE_MM.parent / "ppik-2010.xml"
    first = tournament_import(actor=None, data=ppik.read_bytes()).tournament
    # goref now spells every given name otherwise: importing the cup again, a PIN held
    # under another name, or a name alone, is not certain: new records, all for review.
    for p in Player.objects.all():
        p.given_name = f"X{p.given_name}"
        p.save()
    second = tournament_import(actor=None, data=ppik.read_bytes()).tournament
    dups = list(PossibleDuplicate.objects.select_related("player", "other"))
    assert len(dups) == 18  # the players with an EGD PIN
    before = selectors.standings_of(second)
    dup = dups[0]
    kept_pk, gone_pk = dup.other_id, dup.player_id
    kept = duplicate_merge(actor=None, duplicate=dup, keep=dup.other)
    assert kept.pk == kept_pk and not Player.objects.filter(pk=gone_pk).exists()
    assert {first.pk, second.pk} <= set(kept.entries.values_list("tournament", flat=True))
    after = selectors.standings_of(second)
    assert [r.values for r in after.rows] == [r.values for r in before.rows]
    entry = AuditEntry.objects.get(action=AuditAction.PLAYER_MERGED)
    assert entry.old_value["gone"]["id"] == gone_pk and entry.new_value["kept"] == kept_pk
    with pytest.raises(StateConflict):
        duplicate_merge(actor=None, duplicate=dup, keep=dup.other)
    # Two records of one tournament are two people.
    other = PossibleDuplicate.objects.exclude(pk=dup.pk).first()
    assert other is not None
    PossibleDuplicate.objects.create(player=other.player, other=kept, reason="test")
    odd = PossibleDuplicate.objects.get(player=other.player, other=kept)
    with pytest.raises(StateConflict, match="Both play in"):
        duplicate_merge(actor=None, duplicate=odd, keep=kept)


def test_the_admin_merges_into_the_existing_record(director: Any, settings: Any) -> None:
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the sample files' events are not recent
    director_grant_admin(user=director)
    existing = PlayerFactory(family_name="Robin", given_name="Clé", egd_pin="12345678")
    PlayerFactory(family_name="Robin", given_name="Cle")
    tournament_import(actor=director, data=SIMPLE_MM.read_bytes())
    dup = PossibleDuplicate.objects.get(other=existing)
    c = Client()
    c.force_login(director)
    answer = c.post(URL, {"action": "merge_into_existing", "_selected_action": [dup.pk]})
    assert answer.status_code == 302
    assert not Player.objects.filter(pk=dup.player_id).exists()
    assert existing.entries.count() == 1
    assert AuditEntry.objects.filter(action=AuditAction.PLAYER_MERGED).count() == 1


def test_a_merge_re_rates_from_the_first_closed_event(director: Any) -> None:
    from games.people.services.duplicates import duplicate_merge
    from games.tournament.services import tournament_close
    from ops.models import Job

    ppik = SIMPLE_MM.parent / "ppik-2010.xml"
    first = tournament_import(actor=None, data=ppik.read_bytes()).tournament
    tournament_close(actor=None, tournament=first)
    for p in Player.objects.all():
        p.given_name = f"X{p.given_name}"
        p.save()
    tournament_import(actor=None, data=ppik.read_bytes())
    Job.objects.all().delete()
    dup = PossibleDuplicate.objects.select_related("other").first()
    assert dup is not None
    duplicate_merge(actor=None, duplicate=dup, keep=dup.other)
    (job,) = Job.objects.all()
    assert job.params["from_tournament"] == first.pk and job.params["reason"] == "players merged"
