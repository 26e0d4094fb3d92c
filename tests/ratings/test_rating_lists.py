"""The federations' rating lists: reading the three formats, importing through the
command (newer replaces older, what changed is recorded), searching through the API."""

from __future__ import annotations

import json
from datetime import date
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from ops.models import AuditAction, AuditEntry
from ratings import rating_lists
from ratings.models import RatingList, RatingListEntry
from tests.factories import PlayerFactory

DATA = Path(__file__).resolve().parents[1] / "data" / "ratinglists"
FFG = DATA / "ech_ffg_V3-head.txt"  # the FFG's échelle of 11/01/2021, first 1,500 lines
AGA = DATA / "tdlista-head.txt"  # the AGA's TDList, first 1,500 lines
# The EGD's all-world layout (a date line, then one fixed-column line per player).
EGD_SAMPLE = """\
 European Go Database
 (25 Nov 2026)
   Pin    Name                                  Co  Club  Grade Prom   GoR  Tnt  Last
  19574643  Abad Jahin                            FR  38GJ   20k   --     15     2  T200202B
  10234567  Müller Jörg Peter                     DE  Berl    3d   --   2310    41  T261101A
  17654321  Kim Jiseok                            KR  Seou    9p   --   2950     5  T250505C
""".encode()

API = "/api/v1/rating-lists/search/"


def test_the_three_lists_are_read_from_their_content() -> None:
    egd = rating_lists.read(EGD_SAMPLE)
    assert (egd.source, egd.published, len(egd.players)) == ("egd", date(2026, 11, 25), 3)
    muller = egd.players[1]
    assert (muller.federation_id, muller.family_name, muller.given_name) == (
        "10234567",
        "Müller",
        "Jörg Peter",
    )
    assert (muller.rank, muller.rating, muller.club, muller.country) == (2, 2310, "Berl", "DE")
    assert egd.players[2].rank == 8  # a professional: the top of the amateur ladder

    ffg = rating_lists.read(FFG.read_bytes())
    assert (ffg.source, ffg.published, ffg.unreadable) == ("ffg", date(2021, 1, 11), 0)
    assert len(ffg.players) == 1499
    aaij = ffg.players[0]
    assert (aaij.given_name, aaij.rating, aaij.rank) == ("René", 243 + 2050, 2)  # Latin-1
    abad = next(p for p in ffg.players if p.family_name == "ABAD")
    assert (abad.federation_id, abad.rating, abad.rank, abad.club) == ("2000205", -950, -30, "38GJ")

    aga = rating_lists.read(AGA.read_bytes(), today=date(2021, 1, 1))
    assert aga.source == "aga" and len(aga.players) + aga.unreadable == 1500
    aal = aga.players[0]
    assert (aal.federation_id, aal.family_name, aal.given_name) == ("15648", "Aal", "Zachary")
    assert (aal.rank, aal.rating, aal.list_rating) == (-20, None, "-20.05711")
    assert rating_lists.aga_rank(3.4) == 2 and rating_lists.aga_rank(0.5) is None

    with pytest.raises(rating_lists.ListFormatError, match="Not a rating list"):
        rating_lists.read(b"hello\nworld\n")


def _run(path: Path, *args: str) -> dict[str, Any]:
    out = StringIO()
    call_command("import_rating_list", str(path), *args, stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue().strip().splitlines()[-1])
    return result


def test_the_command_imports_replaces_and_refuses_an_older_list(db: Any, tmp_path: Path) -> None:
    first = _run(FFG)
    assert (first["source"], first["published"], first["entries"]) == ("ffg", "2021-01-11", 1499)
    assert first["removed"] == 0 and first["rating_changed"] == 0 and first["added"] > 1400
    # A newer list: one rating changed, one player gone.
    lines = FFG.read_bytes().splitlines(keepends=True)
    lines[0] = lines[0].replace(b"11/01/2021", b"01/02/2021")
    lines[1] = lines[1].replace(b"  243 ", b"  250 ")
    newer = tmp_path / "newer.txt"
    newer.write_bytes(b"".join(lines[:-1]))
    second = _run(newer)
    assert second["published"] == "2021-02-01" and second["entries"] == 1498
    assert second["rating_changed"] == 1 and second["removed"] == 1
    assert RatingList.objects.count() == 1 and RatingListEntry.objects.count() == 1498
    assert AuditEntry.objects.filter(action=AuditAction.RATING_LIST_IMPORTED).count() == 2
    with pytest.raises(CommandError, match="newer than this one"):
        _run(FFG)
    assert RatingListEntry.objects.count() == 1498  # nothing lost
    aga = _run(AGA, "--published", "2021-01-03")
    assert aga["source"] == "aga" and aga["published"] == "2021-01-03"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"nothing here\n")
    with pytest.raises(CommandError, match="Not a rating list goref reads"):
        _run(bad)


def test_search_as_you_type_finds_list_entries_and_players(db: Any, tmp_path: Path) -> None:
    _run(FFG)
    egd = tmp_path / "egd.txt"
    egd.write_bytes(EGD_SAMPLE)
    _run(egd)
    PlayerFactory(family_name="Muller", given_name="Anna", ffg_licence="1234567")
    client = APIClient()
    found = client.get(API, {"q": "jorg mull"}).json()
    assert [(e["federation"], e["federation_id"]) for e in found["lists"]] == [("egd", "10234567")]
    assert found["lists"][0]["rank"] == "3d" and found["lists"][0]["rating"] == 2310
    assert [p["name"] for p in found["players"]] == []
    both = client.get(API, {"q": "mull"}).json()
    assert [p["name"] for p in both["players"]] == ["Muller Anna"]
    assert client.get(API, {"q": "2000205"}).json()["lists"][0]["family_name"] == "ABAD"
    assert client.get(API, {"q": "1234567"}).json()["players"][0]["ffg_licence"] == "1234567"
    many = client.get(API, {"q": "a"})
    assert many.status_code == 400
    assert client.get(API, {"q": "x" * 101}).status_code == 400
    assert len(client.get(API, {"q": "ab"}).json()["lists"]) <= 20


def test_the_list_search_reads_the_words_table_by_prefix(db: Any, tmp_path: Path) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings.lists import search_lists
    from ratings.models import RatingListToken

    egd = tmp_path / "egd.txt"
    egd.write_bytes(EGD_SAMPLE)
    _run(egd)
    assert RatingListToken.objects.count() == 2 + 3 + 2  # each entry's folded words
    assert [e.federation_id for e in search_lists("PET jö MÜ")] == ["10234567"]
    assert search_lists("mullerx") == [] and search_lists("zz") == []
    with CaptureQueriesContext(connection) as queries:
        search_lists("ki ji")
    # One statement through the words' index: no scan of the names.
    sqls = [q["sql"] for q in queries]
    assert len(sqls) == 1 and '"token" >= ' in sqls[0] and "EXISTS" in sqls[0]
    assert not any('"name_key"::text LIKE' in sql for sql in sqls)
    # A newer list replaces the words with the entries.
    _run(egd)
    assert RatingListToken.objects.count() == 7


def test_a_director_enters_a_player_from_the_list(db: Any, director: Any, tmp_path: Path) -> None:
    from games.models import Player, PossibleDuplicate
    from tests.factories import TournamentFactory

    egd = tmp_path / "egd.txt"
    egd.write_bytes(EGD_SAMPLE)
    _run(egd)
    t = TournamentFactory()
    t.directors.add(director)
    known = PlayerFactory(family_name="MULLER", given_name="Jorg-Peter", declared_rank=0)
    client = APIClient()
    client.force_authenticate(director)
    hit = client.get(API, {"q": "joerg"}).json()["lists"]
    assert hit == []  # "oe" is not "ö": the typist writes what he sees
    (hit,) = client.get(API, {"q": "mul jö"}).json()["lists"]
    url = f"/api/v1/tournaments/{t.pk}/entries/from-list/"
    answer = client.post(url, {"list_entry": hit["id"]}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    # The same person (name order, accents, hyphen ignored): linked, his PIN filled in.
    assert body["linked"] is True and body["review"] == 0
    assert body["entry"]["player"]["id"] == known.pk
    assert (body["entry"]["rank"], body["entry"]["rating"]) == ("3d", 2310)
    assert Player.objects.get(pk=known.pk).egd_pin == "10234567"
    again = client.post(url, {"list_entry": hit["id"]}, format="json")
    assert again.status_code == 400  # already entered
    # A name goref holds twice: a new player, both pairs for review.
    PlayerFactory(family_name="Abad", given_name="Jahin")
    PlayerFactory(family_name="ABAD", given_name="JAHIN")
    (abad,) = client.get(API, {"q": "abad"}).json()["lists"]
    answer = client.post(url, {"list_entry": abad["id"]}, format="json")
    assert answer.status_code == 201 and answer.json()["review"] == 2
    assert PossibleDuplicate.objects.count() == 2
    outsider = APIClient()
    assert outsider.post(url, {"list_entry": abad["id"]}, format="json").status_code in (401, 403)
    assert client.post(url, {"list_entry": 999999}, format="json").status_code == 400


def test_names_come_in_as_people_write_them_and_the_line_is_kept(db: Any, tmp_path: Path) -> None:
    egd_line = "  12345678  Chung Siu_Hong                        HK  HKG    5d   --   2450    12  T261101A"
    egd = rating_lists.read(EGD_SAMPLE + (egd_line + "\n").encode())
    chung = egd.players[-1]
    assert (chung.family_name, chung.given_name, chung.raw) == ("Chung", "Siu Hong", egd_line)
    ffg_text = (
        "#Echelle au 11/01/2021 07:09:39\n"
        "DUPONT Alain(78Ra)                      -520 - 9912345 xxxx FR\n"
        "MARTIN Jean-Luc                          100 C 9954321 75Pa FR\n"
    )
    ffg = rating_lists.read(ffg_text.encode("latin-1"))
    dupont, martin = ffg.players
    assert (dupont.family_name, dupont.given_name, dupont.club) == ("DUPONT", "Alain", "78Ra")
    assert (martin.given_name, martin.club) == ("Jean-Luc", "75Pa")
    # Imported, the list's line stays beside what goref read from it.
    path = tmp_path / "ffg.txt"
    path.write_bytes(ffg_text.encode("latin-1"))
    _run(path)
    entry = RatingListEntry.objects.get(federation_id="9912345")
    assert (entry.given_name, entry.club) == ("Alain", "78Ra")
    assert entry.raw_line == "DUPONT Alain(78Ra)                      -520 - 9912345 xxxx FR"
