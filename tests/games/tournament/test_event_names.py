"""Every export of an event names each player as that event's file did, whatever the
linked goref player is called (docs/tournaments.md, "Entries")."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command

from games.models import Player, Tournament, TournamentEntry
from games.people.services.players import player_update

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
URL = "/api/v1/tournaments/"
# Two real files that spell two AGA members otherwise: "Luo Wenyong" and "Chai Jerry" at
# the Canadian Open, "LUO Wenyong" and "chai jerry" at the R2 pairing event.
FIRST, SECOND = DATA / "canadian-open-2020.xml", DATA / "r2-pairing-2020.xml"


def _import(path: Path) -> Tournament:
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    return Tournament.objects.get(pk=json.loads(out.getvalue().splitlines()[-1])["tournament"])


def _file_names(path: Path) -> set[tuple[str, str]]:
    root = ET.fromstring(path.read_bytes())
    return {(p.get("name", ""), p.get("firstName", "")) for p in root.iterfind("Players/Player")}


def _export(api: Any, t: Tournament, fmt: str) -> bytes:
    response = api.get(f"{URL}{t.pk}/export/", {"format": fmt})
    assert response.status_code == 200, response.content
    return response.content


def test_each_export_names_the_players_as_the_events_own_file(db: Any, api: Any) -> None:
    _import(FIRST)
    second = _import(SECOND)
    luo = Player.objects.get(aga_id="34239")
    chai = Player.objects.get(aga_id="63352")
    # One player each, linked across the two events, called as the first file spelt him.
    assert (luo.family_name, chai.family_name) == ("Luo", "Chai")
    assert luo.entries.count() == chai.entries.count() == 2
    # Whatever the player is called later, the event keeps its own spelling.
    player_update(actor=None, player=luo, family_name="Luo-Renamed")

    root = ET.fromstring(_export(api, second, "opengotha"))
    written = {(p.get("name", ""), p.get("firstName", "")) for p in root.iterfind("Players/Player")}
    assert written == _file_names(SECOND)
    assert {("LUO", "Wenyong"), ("chai", "jerry")} <= written

    rows = list(csv.reader(io.StringIO(_export(api, second, "csv").decode("utf-8-sig"))))
    cells = {tuple(r) for r in rows}
    assert any("LUO" in r and "Wenyong" in r for r in cells)
    assert not any("Luo-Renamed" in c or "Chai" in c for r in cells for c in r)

    h9 = _export(api, second, "egf").decode("iso-8859-15")
    tou = _export(api, second, "ffg").decode("iso-8859-15")
    aga = _export(api, second, "aga").decode("iso-8859-15")
    for text in (h9, tou, aga):
        assert "LUO" in text and "chai" in text
        assert "Luo-Renamed" not in text and "Chai" not in text
    assert "34239\tLUO, Wenyong" in aga


def test_the_player_page_shows_the_other_spellings(db: Any, client: Any) -> None:
    first = _import(FIRST)
    second = _import(SECOND)
    luo = Player.objects.get(aga_id="34239")
    entry = TournamentEntry.objects.get(tournament=first, player=luo)
    assert (entry.family_name, entry.given_name) == ("Luo", "Wenyong")
    page = client.get(f"/players/{luo.pk}/").content.decode()
    assert "Also spelt:" in page and "LUO Wenyong" in page and second.name in page
