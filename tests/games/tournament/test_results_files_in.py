"""The results files read in: the FFG ``.tou`` and the AGA results file become tournaments
with the players and games of the event's OpenGotha file, as far as each format carries
them, and the ``.h9`` header's dates, komi, reduction, class and time are kept
(docs/tournaments.md, "Files")."""

from __future__ import annotations

import json
from collections import Counter
from decimal import Decimal
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Tournament
from games.tournament import selectors as day_selectors
from games.tournament.engine.formats import aga, egf, ffg, opengotha
from games.tournament.engine.formats.opengotha import FileFormatError
from games.tournament.engine.model import Entrant, Event, Outcome, Presence
from games.tournament.engine.timesystem import time_system_of
from games.tournament.services.files import tournament_import

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
# Real OpenGotha files of several kinds: McMahon, Swiss, categories, by-default results,
# byes and jigo, 167 players, unknown colours.
EVENTS = [
    "juvisy-2019.xml",
    "cdfo-2020.xml",
    "ecole-go-jeune-2020.xml",
    "ppik-2010.xml",
    "congreso-2020.xml",
    "canadian-open-2020.xml",
    "nz-open-2020.xml",
    "exports/cdfa-2020-cup.xml",
]


def games_of(event: Event, *, tou: bool = False, aga_file: bool = False) -> Counter[tuple]:
    """Each game once: round, White's and Black's names, handicap, result; what the format
    cannot say is folded as it folds it (the .tou has no by-default mark, the AGA file
    rates only a played win)."""
    names = {e.id: _spelt(e) for e in event.entrants}
    if tou:  # the name as its 25 columns hold it
        names = {i: (" ".join(n).replace(" ", "_")[:25].rstrip(), "") for i, n in names.items()}
    out: Counter[tuple] = Counter()
    for g in event.games:
        outcome = g.outcome
        if aga_file and (g.by_default or outcome not in (Outcome.WHITE, Outcome.BLACK)):
            outcome = Outcome.UNKNOWN
        out[(g.round, names[g.white], names[g.black], g.handicap, outcome)] += 1
    return out


def _spelt(e: Entrant) -> tuple[str, str]:
    # The .tou writes a space inside a name as "_": an "_" in a name comes back a space.
    return e.family_name.replace("_", " "), e.given_name.replace("_", " ")


def _played(event: Event) -> set[int]:
    ids = {p for g in event.games for p in (g.black, g.white)}
    return ids | {e.id for e in event.entrants if Presence.BYE in e.presence}


@pytest.mark.parametrize("xml", EVENTS)
def test_a_tou_file_reads_back_to_the_events_players_and_games(xml: str) -> None:
    event = opengotha.read((DATA / xml).read_bytes())
    back = ffg.read_tou(ffg.write_tou(event))
    listed = [e for e in event.entrants if e.id in _played(event)]
    assert sorted((e.rank, e.ffg_licence[-7:]) for e in back.entrants) == sorted(
        (e.rank, e.ffg_licence[-7:]) for e in listed
    )
    # Names of 25 characters or more are cut by the format itself; the others come back.
    whole = {_spelt(e) for e in listed if len(e.family_name + e.given_name) < 24}
    assert whole <= {_spelt(e) for e in back.entrants}
    assert games_of(back, tou=True) == games_of(event, tou=True)
    assert back.settings.rounds == event.settings.rounds
    assert back.begin_date == event.begin_date and back.komi == event.komi


@pytest.mark.parametrize("xml", EVENTS)
def test_an_aga_file_reads_back_to_the_events_players_and_games(xml: str) -> None:
    event = opengotha.read((DATA / xml).read_bytes())
    back = aga.read_aga(aga.write_aga(event))
    assert sorted(e.rank for e in back.entrants) == sorted(e.rank for e in event.entrants)
    # OpenGotha stores the stand-ins it gave (99999, 99998, ...) in its file too.
    stand_ins = range(aga.FIRST_TEMPORARY_ID - len(event.entrants) + 1, aga.FIRST_TEMPORARY_ID + 1)
    real = {e.aga_id for e in event.entrants if e.aga_id.isdigit() and int(e.aga_id) > 0}
    real = {i for i in real if int(i) not in stand_ins}
    assert {e.aga_id for e in back.entrants if e.aga_id} == real  # stand-ins read as no id
    assert games_of(back, aga_file=True) == games_of(event, aga_file=True)
    assert back.name == event.name and back.location == event.location
    assert (back.begin_date, back.end_date) == (event.begin_date, event.end_date)
    assert back.settings.rounds == event.settings.rounds


def test_the_aga_file_opengotha_wrote_reads_with_its_stand_in_as_no_id() -> None:
    event = aga.read_aga((DATA / "exports" / "essai-lv-2020.txt").read_bytes())
    (luc,) = event.entrants
    assert (luc.family_name, luc.given_name, luc.rank, luc.aga_id) == ("Vañnier", "Luc", -30, "")
    assert event.settings.rounds == 5 and event.games == ()
    assert event.komi == Decimal("7.5")  # no game: the AGA rules' komi
    assert (event.name, event.location, str(event.begin_date)) == (
        "EssaiLVLu15h27",
        "Les Oustalous",
        "2020-08-31",
    )


def test_the_agas_own_layout_is_read_and_games_without_rounds_are_spread() -> None:
    data = (
        b"TOURNEY Princeton Go Club Rated Games, Princeton, NJ\n"
        b"        start=6/15/2004\n        finish=6/30/2004\n        rules=AGA\n"
        b"PLAYERS\n 489 Matthews, Paul 4k\n3199 Mott, Rick     4k\n"
        b"GAMES\n489 3199 b 0 7\n3199 489 w 0 7\n"
    )
    event = aga.read_aga(data)
    assert [(e.aga_id, e.family_name, e.given_name, e.rank) for e in event.entrants] == [
        ("489", "Matthews", "Paul", -4),
        ("3199", "Mott", "Rick", -4),
    ]
    assert [(g.round, g.white, g.black, g.outcome) for g in event.games] == [
        (1, 1, 2, Outcome.BLACK),
        (2, 2, 1, Outcome.WHITE),
    ]
    assert str(event.begin_date) == "2004-06-15" and str(event.end_date) == "2004-06-30"
    assert event.komi == Decimal("7.5")  # the file's whole 7, less the half point for ties


def test_opengothas_own_tou_imports_as_the_event_its_xml_is(db: Any) -> None:
    xml = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    out = StringIO()
    call_command("import_tournament", str(DATA / "exports" / "juvisy-2019.tou"), stdout=out)
    t = Tournament.objects.get(pk=json.loads(out.getvalue().splitlines()[-1])["tournament"])
    assert (t.name, t.short_name, t.venue, str(t.start_date), t.komi) == (
        "Tournoi de Juvisy",
        "Tournoi de Juvisy",
        "Juvisy",
        "2019-10-26",
        xml.komi,
    )
    assert Game.objects.filter(tournament=t).count() == len(xml.games) == 36
    back = day_selectors.event_of(t).event
    # The .tou drops the by-default mark only; every game is the XML's.
    strip = Counter({(r, w, b, h, o): n for (r, w, b, h, o), n in games_of(xml).items()})
    assert games_of(back) == strip
    # Its licences reached the players, and its time and adjusted time its settings.
    licences = {p.ffg_licence for p in day_selectors.event_of(t).players.values()}
    assert {e.ffg_licence for e in xml.entrants} - {""} <= licences
    assert t.time_system["basicTime"] == "60" and t.time_system["adjustedTime"] == "82"
    tou = day_selectors.export(t, "ffg").decode("iso8859_15")
    assert ";time=60+b\n;ta=82\n;komi=7.5\n" in tou


def test_the_h9_header_is_read_and_written_as_opengotha_wrote_it(db: Any) -> None:
    theirs = (DATA / "juvisy-2019.h9").read_bytes()
    out = StringIO()
    call_command("import_tournament", str(DATA / "juvisy-2019.h9"), stdout=out)
    t = Tournament.objects.get(pk=json.loads(out.getvalue().splitlines()[-1])["tournament"])
    assert (str(t.start_date), str(t.end_date), t.egf_class, t.handicap_correction) == (
        "2019-10-26",
        "2019-10-28",
        "A",
        1,
    )
    ours = day_selectors.export(t, "egf").decode("utf-8")
    for key in ("CL", "EV", "PC", "DT", "HA", "KM", "TM", "CM"):
        line = next(x for x in theirs.decode("latin-1").splitlines() if x.startswith(f"; {key}["))
        assert line in ours.splitlines(), key


def test_an_h9_without_ha_has_no_reduction_and_an_online_class_stays_online() -> None:
    event = egf.h9_event(egf.read_h9((DATA / "ioct-2020-02.h9").read_bytes()))
    assert event.settings.hd_correction == 0 and event.egf_class == "D"
    assert event.extra["bInternet"] == "true" and event.extra["adjustedTime"] == "120"
    assert str(event.begin_date) == "2020-08-30" and event.location == "TR, Istanbul"


def tou_line(place: str, name: str, rank: str, licence: str, club: str, *cells: str) -> bytes:
    """A player line in OpenGotha's columns."""
    text = f"{place:>4} {name:<25}"[:30] + f"{rank:>3} {licence:>7} {club:>4}"
    return (text + "".join(f"{c:>8}" for c in cells) + "\n").encode("iso8859_15")


TOU_HEAD = (
    b";name=Test\n;date=02/03/2024\n;komi=6.5\n;Num Nom Prenom               Niv Licence Club\n"
)


DUPONT = ("1", "Dupont Jean", "3D", "1234567", "75Pa")
MARTIN = ("2", "Martin Luc", "3D", "1234568", "75Pa")


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (tou_line("1", "Dupont Jean", "XX", "1234567", "75Pa", "2+w0"), "line 5"),
        (tou_line(*DUPONT, "2+w0"), "player 1"),  # line 2 does not exist
        (tou_line(*DUPONT, "2+w0") + tou_line(*MARTIN, "1-b0", "0="), "line 6"),
        (tou_line(*DUPONT, "2+x0"), "line 5"),
        (tou_line("", "Ghost Writer", "3D", "", "75Pa", "0+"), "line 5"),
    ],
)
def test_a_tou_that_cannot_be_read_is_refused_naming_the_line(body: bytes, where: str) -> None:
    with pytest.raises(FileFormatError) as caught:
        ffg.read_tou(TOU_HEAD + body)
    assert caught.value.element == where


def test_a_tou_game_whose_halves_disagree_is_refused() -> None:
    body = tou_line(*DUPONT, "2+w0") + tou_line(*MARTIN, "0=")
    with pytest.raises(FileFormatError, match="does not name this player back"):
        ffg.read_tou(TOU_HEAD + body)


def test_an_empty_club_a_bye_a_jigo_and_an_unknown_colour_are_read() -> None:
    # As OpenGotha writes them: club column blank, "0+" the bye, "=" a jigo, "?" no colour;
    # a name of 25 characters touches the rank.
    body = (
        tou_line("1", "Dupont_de_la_Tour Jean-Pierre", "3D", "1234567", "75Pa", "3=w0", "0+")
        + tou_line("2", "Moreau Luc", "5K", "", "38Gr", "0+", "3+?3")
        + tou_line("3", "Martin Claire", "2D", "0712345", "", "1=b0", "2-?3")
    )
    event = ffg.read_tou(TOU_HEAD + body)
    first, second, third = event.entrants
    assert (first.family_name, first.given_name, first.club) == (
        "Dupont de la Tour",
        "Jean-Pi",
        "75Pa",
    )
    assert (second.ffg_licence, third.club, third.ffg_licence) == ("", "", "0712345")
    assert first.presence == (Presence.PLAY, Presence.BYE)
    games = [(g.round, g.white, g.black, g.handicap, g.outcome, g.known_color) for g in event.games]
    assert games == [(1, 1, 3, 0, Outcome.JIGO, True), (2, 2, 3, 3, Outcome.WHITE, False)]
    assert (str(event.begin_date), event.komi) == ("2024-03-02", 6.5)


def test_a_file_goref_cannot_read_imports_nothing_and_names_its_format(
    db: Any, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.tou"
    bad.write_bytes(TOU_HEAD + tou_line(*DUPONT, "9+w0"))
    with pytest.raises(CommandError, match=r"FFG results \(\.tou\) file cannot be read"):
        call_command("import_tournament", str(bad), stdout=StringIO())
    assert Tournament.objects.count() == 0


def test_an_aga_file_imports_with_its_members_ids_and_the_aga_rules(
    db: Any, tmp_path: Path
) -> None:
    xml = opengotha.read((DATA / "canadian-open-2020.xml").read_bytes())
    path = tmp_path / "results.txt"
    path.write_bytes(aga.write_aga(xml))
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    t = Tournament.objects.get(pk=json.loads(out.getvalue().splitlines()[-1])["tournament"])
    assert (t.rules, t.komi, t.name) == ("aga", Decimal("7.5"), xml.name)
    assert Game.objects.filter(tournament=t).count() == len(xml.games)
    players = day_selectors.event_of(t).players.values()
    ids = {p.aga_id for p in players if p.aga_id}
    stand_ins = {str(i) for i in range(99999 - len(xml.entrants), 100000)}
    assert ids == {e.aga_id for e in xml.entrants if e.aga_id} - stand_ins
    assert games_of(day_selectors.event_of(t).event, aga_file=True) == games_of(xml, aga_file=True)


def test_a_utf8_tou_with_a_byte_order_mark_is_read() -> None:
    body = tou_line(*DUPONT, "2+w0") + tou_line(*MARTIN, "1-b0")
    text = (TOU_HEAD + body).decode("iso8859_15").replace("Dupont", "Dupönt")
    event = ffg.read_tou(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert [e.family_name for e in event.entrants] == ["Dupönt", "Martin"]
    assert len(event.games) == 1 and event.short_name == "Test"


def test_pairgoths_tou_is_read_too() -> None:
    # pairgoth: ";time=" without "+b" and before ";size=", the club right-aligned in 6 at
    # column 44, each round in 7 after a space, the family name upper-cased.
    head = b";name=Stage\n;date=10/07/2021\n;vill=Paris (online)\n;time=40\n;ta=62\n;size=19\n;\n"
    lines = [
        f"{'1':>4} {'MARTIN Claire':<24} {'2D':>3} {'0712345':>7}   {'38Gr':>6} {'2+w0':>7} {'0+':>7}",
        f"{'2':>4} {'DUPONT Jean':<24} {'3K':>3} {'':>7}   {'FR':>6} {'1-b0':>7} {'0-':>7}",
    ]
    event = ffg.read_tou(head + "\n".join(lines).encode() + b"\n")
    first, second = event.entrants
    assert (first.family_name, first.club, first.ffg_licence, second.club) == (
        "MARTIN",
        "38Gr",
        "0712345",
        "FR",
    )
    assert [(g.white, g.black, g.outcome) for g in event.games] == [(1, 2, Outcome.WHITE)]
    assert event.location == "Paris" and event.extra["bInternet"] == "true"
    assert "complementaryTimeSystem" not in event.extra and event.extra["adjustedTime"] == "62"


@pytest.mark.parametrize(
    ("xml", "tou"),
    [
        ("juvisy-2019.xml", "exports/juvisy-2019.tou"),  # OpenGotha 3.49.03
        ("exports/cdfa-2020-cup.xml", "exports/cdfa-2020-cup.tou"),  # 3.51.02
    ],
)
def test_opengothas_own_tou_files_read_as_their_events(xml: str, tou: str) -> None:
    event = opengotha.read((DATA / xml).read_bytes())
    back = ffg.read_tou((DATA / tou).read_bytes())
    assert games_of(back, tou=True) == games_of(event, tou=True)
    assert back.settings.rounds == event.settings.rounds and back.komi == event.komi
    assert (back.short_name, back.begin_date) == (event.short_name, event.begin_date)
    played = _played(event)
    assert sorted(e.ffg_licence for e in back.entrants) == sorted(
        e.ffg_licence for e in event.entrants if e.id in played
    )


def test_opengothas_tou_imported_and_exported_is_opengothas_file(db: Any) -> None:
    theirs = (DATA / "exports" / "juvisy-2019.tou").read_bytes()
    t = tournament_import(actor=None, data=theirs).tournament
    ours = day_selectors.export(t, "ffg")
    keep = [
        line
        for line in theirs.decode("iso8859_15").split("\n")
        if not line.startswith((";prog=", "; Generated by"))
    ]
    assert [
        line
        for line in ours.decode("iso8859_15").split("\n")
        if not line.startswith((";prog=", "; Generated by"))
    ] == keep


@pytest.mark.parametrize(
    ("cells", "said"),
    [
        (("2+w0", "1-w0"), "both have w"),
        (("2+w2", "1-b3"), "handicap 2 here, 3 on line 2"),
        (("1+w0", "0="), "plays himself"),
    ],
)
def test_a_game_whose_two_halves_disagree_is_refused(cells: tuple[str, str], said: str) -> None:
    body = tou_line(*DUPONT, cells[0]) + tou_line(*MARTIN, cells[1])
    with pytest.raises(FileFormatError, match=said):
        ffg.read_tou(TOU_HEAD + body)


@pytest.mark.parametrize("name", ["exports/juvisy-2019.tou", "juvisy-2019.h9"])
def test_a_stated_adjusted_time_reaches_opengotha_as_the_same_tm_and_class(
    db: Any, name: str
) -> None:
    t = tournament_import(actor=None, data=(DATA / name).read_bytes()).tournament
    xml = opengotha.read(day_selectors.export(t, "opengotha"))
    # What OpenGotha computes from the attributes it reads: the .h9's TM[82] and CL[A].
    times = time_system_of({k: v for k, v in xml.extra.items() if k != "adjustedTime"})
    assert (times.adjusted_seconds() // 60, times.egf_class()) == (82, "A")


def test_pairgoths_h9_with_pins_after_the_rounds_is_read() -> None:
    data = (
        b"; CL[B]\n; EV[Paris]\n; PC[FR,Paris]\n; DT[2024-03-02,2024-03-03]\n; KM[7.5]\n"
        b"; TM[60]\n;\n"
        b"   1 Martin Claire                   2D FR 38Gr       2       0    2+/w0 |12345678\n"
        b"   2 Dupont Jean                     3K FR xxxx       0       0    1-/b0 |\n"
    )
    event = egf.h9_event(egf.read_h9(data))
    assert [(e.family_name, e.egd_pin) for e in event.entrants] == [
        ("Martin", "12345678"),
        ("Dupont", ""),
    ]
    assert len(event.games) == 1 and event.settings.rounds == 1 and event.location == "Paris"
