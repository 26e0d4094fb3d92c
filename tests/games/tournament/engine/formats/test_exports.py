"""The EGF and FFG results files and the standings CSV, checked against OpenGotha's own exports."""

from __future__ import annotations

import csv
import dataclasses
import io
from datetime import date
from pathlib import Path

import pytest

from games.tournament.engine.formats import aga, egf, ffg, opengotha
from games.tournament.engine.formats.spreadsheet import inert, write_csv
from games.tournament.engine.model import Entrant, Event, Settings, System
from games.tournament.engine.standings import Scoreboard
from games.tournament.engine.timesystem import time_system_of

DATA = Path(__file__).resolve().parents[4] / "data" / "opengotha"


def _pair(stem: str) -> tuple[egf.H9File, egf.H9File]:
    event = opengotha.read((DATA / f"{stem}.xml").read_bytes())
    ours = egf.read_h9(egf.write_h9(event))
    theirs = egf.read_h9((DATA / f"{stem}.h9").read_bytes())
    return ours, theirs


@pytest.mark.parametrize("stem", ["juvisy-2019", "chinois-2020"])
def test_the_h9_file_matches_the_one_opengotha_exported(stem: str) -> None:
    # Every place, criterion value and round cell, and the header, as OpenGotha wrote them.
    ours, theirs = _pair(stem)
    if stem == "chinois-2020":
        # OpenGotha 3.49.06 counted 120 standard byo-yomi periods in the adjusted time;
        # 3.49.03 and 3.51 count 45, as goref does.
        assert theirs.header.pop("TM") == "120" and ours.header.pop("TM") == "82"
    assert ours.header == theirs.header
    assert len(ours.players) == len(theirs.players)
    for mine, its in zip(ours.players, theirs.players, strict=True):
        assert (mine.place, mine.rank, mine.values, mine.results) == (
            its.place,
            its.rank,
            its.values,
            its.results,
        )
        if stem == "juvisy-2019":  # the other file's names are Chinese, lost to ISO-8859-15
            assert (mine.family_name, mine.given_name, mine.club, mine.country) == (
                its.family_name,
                its.given_name,
                its.club,
                its.country,
            )


def test_the_h9_values_are_opengothas_standings_after_the_last_round() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    theirs = egf.read_h9((DATA / "juvisy-2019.h9").read_bytes())
    rows = [r for r in Scoreboard(event).standings(4) if r.place is not None]
    for row, line in zip(rows, theirs.players, strict=True):
        assert [f"{v:g}" for v in row.values.values()] == list(line.values[:3])


def test_a_categories_h9_file_reads() -> None:
    h9 = egf.read_h9((DATA / "ioct-2020-02.h9").read_bytes())
    assert h9.header["CL"] == "D" and len(h9.players) == 4
    first = h9.players[0]
    assert (first.family_name, first.given_name, first.rank, first.values) == (
        "Kulubecioglu",
        "Ali",
        -7,
        ("1", "3", "3", "3"),
    )
    assert first.results[0] == egf.H9Result(3, "+", False, "b", 7)


def test_an_h9_file_rebuilds_the_games_and_their_standings() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    rebuilt = egf.h9_event(egf.read_h9(egf.write_h9(event)))
    assert len(rebuilt.games) == len(event.games)
    mms = [r.values["MMS"] for r in Scoreboard(rebuilt).standings(4)]
    assert mms == [r.values["MMS"] for r in Scoreboard(event).standings(4) if r.place]


def test_h9_lines_show_byes_absences_by_default_and_unknown_results() -> None:
    event = opengotha.read((DATA / "ecole-go-jeune-2020.xml").read_bytes())
    text = egf.write_h9(event).decode()
    kept = egf.write_h9(event, keep_by_default=True).decode()
    assert "!" not in text and "!" in kept
    assert " 0+" in text  # a bye worth a win in a Swiss (NBW bye value 2)


def test_a_name_with_a_newline_cannot_forge_an_h9_line() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    bad = dataclasses.replace(event.entrants[0], family_name="Evil\n   1 Forged Line")
    event = dataclasses.replace(event, entrants=(bad, *event.entrants[1:]), name="X]\n; CL[A")
    text = egf.write_h9(event).decode()
    assert "\n   1 Forged" not in text and "\n; CL[A]" not in text.split("\n", 1)[1]
    players = [line for line in text.splitlines() if not line.startswith(";")]
    assert len(players) == len(egf.read_h9(text.encode()).players) == 19


@pytest.mark.parametrize(
    ("data", "element"),
    [
        (b"; CL[A]\n", "h9"),
        (b"   1 Nobody FR xxxx 3 2+/w0\n", "line 1"),
        (b"   1 Someone Alone 2d\n", "line 1"),
        (b"   1 A B 2d FR xxxx 3    7+/w0\n", "player 1"),
        (b"  Ghost Writer 2d FR xxxx 3\n", "line 1"),
    ],
)
def test_a_malformed_h9_file_is_refused_naming_the_line(data: bytes, element: str) -> None:
    with pytest.raises(opengotha.FileFormatError) as caught:
        egf.read_h9(data)
    assert caught.value.element == element


def test_the_egf_class_follows_opengothas_time_rule() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    times = time_system_of(event.extra)
    assert times.adjusted_seconds() == 60 * 60 + 45 * 30 and times.egf_class() == "A"
    assert time_system_of({**event.extra, "basicTime": "30"}).egf_class() == "C"
    assert time_system_of({**event.extra, "bInternet": "true"}).egf_class() == "D"


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "' x"),
        ("\r=1", "' =1"),
        ("Müller", "Müller"),
        ("a\nb", "a b"),
    ],
)
def test_csv_cells_are_made_inert(text: str, cell: str) -> None:
    assert inert(text) == cell


def test_the_csv_holds_the_standings() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    bad = dataclasses.replace(event.entrants[0], family_name="=cmd|' /C calc'!A0")
    event = dataclasses.replace(event, entrants=(bad, *event.entrants[1:]))
    data = write_csv(event, 4)
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == [
        "Place",
        "Family name",
        "Given name",
        "Rank",
        "Club",
        "Country",
        "MMS",
        "SOSM",
        "SOSOSM",
    ]
    assert rows[1] == ["1", "Minieri", "Davide", "3d", "75Ju", "FR", "36", "128", "503"]
    assert any(r[1].startswith("'=cmd") for r in rows)
    assert len(rows) == 1 + len(event.entrants)


def test_opengothas_h9_with_halves_lost_to_its_encoding_still_reads() -> None:
    # OpenGotha writes ISO-8859-15, which has no ½ or ¼: its SOS column shows "21?" and a
    # SODOS of a quarter "0?", which looks like a round cell.  goref's own file says 21.5.
    event = opengotha.read((DATA / "ppik-2010.xml").read_bytes())
    theirs = egf.read_h9((DATA / "ppik-2010.h9").read_bytes())
    ours = egf.read_h9(egf.write_h9(event))
    assert all(len(p.results) == 6 for p in theirs.players)
    assert [p.results for p in ours.players] == [p.results for p in theirs.players]
    assert theirs.players[0].values[2] == "21?" and ours.players[0].values[2] == "21.5"


@pytest.mark.parametrize(
    ("xml", "tou"),
    [
        ("juvisy-2019.xml", "exports/juvisy-2019.tou"),
        ("exports/cdfa-2020-cup.xml", "exports/cdfa-2020-cup.tou"),
    ],
)
def test_the_tou_file_is_the_one_opengotha_exported(xml: str, tou: str) -> None:
    # Byte for byte, ISO-8859-15 included, but for the two lines naming the program.
    ours = ffg.write_tou(opengotha.read((DATA / xml).read_bytes())).split(b"\n")
    theirs = (DATA / tou).read_bytes().split(b"\n")
    assert len(ours) == len(theirs)
    for mine, its in zip(ours, theirs, strict=True):
        if its.startswith((b";prog=", b"; Generated by")):
            assert mine in (b";prog=goref", b"; Generated by goref")
        else:
            assert mine == its


def test_the_aga_file_is_laid_out_as_the_one_opengotha_exported() -> None:
    # OpenGotha 3.51's export of a test event (one player without an AGA id, five rounds
    # not yet paired): header, stand-in id, empty rounds and END, byte for byte.
    event = Event(
        Settings.defaults(System.SWISS, 5),
        (Entrant(id=7, family_name="Va\u00f1nier", given_name="Luc", rank=-30, rating=-900),),
        (),
        name="EssaiLVLu15h27",
        location="Les Oustalous",
        begin_date=date(2020, 8, 31),
        end_date=date(2020, 8, 31),
    )
    assert aga.write_aga(event) == (DATA / "exports" / "essai-lv-2020.txt").read_bytes()
