"""One person across a season of files (docs/games.md, "People"): a record made for an
entrant whose EGD PIN another record holds keeps the PIN as claimed, and the season's
later files link to it; one review pair for the whole season."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db.models import Q
from django.urls import reverse

from games.models import Player, PossibleDuplicate
from games.people.services.grants import federation_official_grant
from tests.factories import PlayerFactory

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
# The cup in three seasons: Marek Kunek, EGD PIN 14962629, plays each of them.
SEASON = [DATA / f"ppik-{year}.xml" for year in (2009, 2010, 2011)]
PIN = "14962629"


def _import(path: Path) -> dict[str, int]:
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    return json.loads(out.getvalue().splitlines()[-1])


def test_a_returning_player_with_a_pin_held_elsewhere_is_one_extra_record(db: Any) -> None:
    # goref holds his PIN under another spelling (a list or an older event spelt him so).
    held = PlayerFactory(family_name="Kunek-Nowak", given_name="M.", egd_pin=PIN)
    reviews = [_import(path)["review"] for path in SEASON]
    assert reviews[0] >= 1 and reviews[1:] == [0, 0]
    kunek = Player.objects.get(family_name="Kunek", given_name="Marek")
    assert kunek.egd_pin is None and kunek.claimed_ids == {"egd_pin": PIN}
    assert kunek.entries.count() == 3 and held.entries.count() == 0
    pairs = PossibleDuplicate.objects.filter(Q(player=held) | Q(other=held))
    assert [(d.player, d.other) for d in pairs] == [(kunek, held)]


def test_the_review_list_groups_the_pairs_by_person(db: Any, client: Any, outsider: Any) -> None:
    held = PlayerFactory(family_name="Kunek-Nowak", given_name="M.", egd_pin=PIN)
    for path in SEASON:
        _import(path)
    kunek = Player.objects.get(family_name="Kunek", given_name="Marek")
    # A third record of him, and an unrelated pair.
    twin = PlayerFactory(family_name="Kunek", given_name="M")
    PossibleDuplicate.objects.create(player=twin, other=kunek, reason="the same family name")
    a, b = PlayerFactory(family_name="Abel"), PlayerFactory(family_name="Abel")
    PossibleDuplicate.objects.create(player=b, other=a, reason="the same name")
    federation_official_grant(actor=None, user=outsider)
    client.force_login(outsider)
    page = client.get(reverse("games:duplicates")).content.decode()
    person = page.index(f"#{held.pk} Kunek-Nowak M.")
    abel = page.index(f"#{a.pk} Abel")
    assert "2 pairs" in page[person : person + 200] and "1 pair" in page[abel : abel + 200]
    assert page.count('class="person"') == PossibleDuplicate.objects.count() - 1
    assert f"a file gave {PIN}, held by another record" in page
