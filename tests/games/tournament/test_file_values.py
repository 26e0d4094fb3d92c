"""Nothing an OpenGotha file carries is cut or dropped: a real file imported and exported
gives back each player's rating origin, licence status, AGA expiry, grade and country as
written, and the file's director and display and publishing options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import defusedxml.ElementTree as SafeET
import pytest

from games.models import TournamentEntry
from games.tournament import selectors as day_selectors
from games.tournament.services.files import tournament_import

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
PLAYER_ATTRIBUTES = (
    "ratingOrigin",
    "ffgLicenceStatus",
    "agaExpirationDate",
    "grade",
    "country",
    "ffgLicence",
    "agaId",
)


def _players(root: Any) -> dict[tuple[str, str], dict[str, str]]:
    return {
        (p.get("name"), p.get("firstName")): {k: p.get(k, "") for k in PLAYER_ATTRIBUTES}
        for p in root.iterfind("Players/Player")
    }


@pytest.mark.parametrize(
    "name",
    ["juvisy-2019.xml", "go-en-el-puerto-2020.xml", "pairgoth-frioul-2018.xml", "cdfa-2020.xml"],
)
def test_an_opengotha_file_comes_back_with_everything_it_carried(db: Any, name: str) -> None:
    data = (DATA / name).read_bytes()
    # One player with an AGA membership's expiry, which none of these files has.
    data = data.replace(b'agaExpirationDate=""', b'agaExpirationDate="2025-12-31"', 1)
    t = tournament_import(actor=None, data=data).tournament
    theirs = SafeET.fromstring(data)
    ours = SafeET.fromstring(day_selectors.export(t, "opengotha"))
    assert _players(ours) == _players(theirs)
    for element in ("DPParameterSet", "PublishParameterSet"):
        assert (
            ours.find(f"TournamentParameterSet/{element}").attrib
            == theirs.find(f"TournamentParameterSet/{element}").attrib
        )
    general = "TournamentParameterSet/GeneralParameterSet"
    assert ours.find(general).get("director") == theirs.find(general).get("director")


def test_a_rating_origin_is_kept_whole_and_a_changed_country_is_written_as_changed(
    db: Any,
) -> None:
    data = (DATA / "juvisy-2019.xml").read_bytes()
    t = tournament_import(actor=None, data=data).tournament
    origins = set(
        TournamentEntry.objects.filter(tournament=t).values_list("rating_origin", flat=True)
    )
    assert "FFG : -1774" in origins
    entry = TournamentEntry.objects.filter(tournament=t, file_values__country="FR").first()
    assert entry is not None and entry.file_values["grade"]
    # The director moves him to another country: the file's spelling no longer applies.
    TournamentEntry.objects.filter(pk=entry.pk).update(country="BE")
    ours = SafeET.fromstring(day_selectors.export(t, "opengotha"))
    player = next(
        p
        for p in ours.iterfind("Players/Player")
        if (p.get("name"), p.get("firstName"))
        == (entry.player.family_name, entry.player.given_name)
    )
    assert player.get("country") == "BE"
