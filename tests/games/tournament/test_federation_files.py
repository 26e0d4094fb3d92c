"""The FFG ``.tou`` and AGA results files: real events imported into goref and exported,
compared with what OpenGotha wrote for the same events and read back with small readers of
the formats (docs/formats.md, "FFG results" and "AGA results")."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.models import Game, Player, Tournament, TournamentEntry
from games.tournament import selectors as day_selectors
from games.tournament.engine.formats import aga, ffg, opengotha
from games.tournament.engine.model import Event, GameRec, Outcome
from games.tournament.services.files import tournament_import

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
URL = "/api/v1/tournaments/"

# --------------------------------------------------------------------------- small readers

_CELL = re.compile(r"^\s*(\d+)([+\-=?])([wb?]?)(\d?)\s*$")


def read_tou(data: bytes) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The header and the player lines of a .tou file, by OpenGotha's fixed columns: place
    [0,4), name [5,30), rank [30,33), licence [34,41), club [42,46), then 8 per round."""
    header: dict[str, str] = {}
    players = []
    for line in data.decode("iso8859_15").split("\n"):
        if line.startswith(";"):
            key, _, value = line[1:].partition("=")
            header[key] = value
            continue
        if not line:
            continue
        assert (len(line) - 46) % 8 == 0 and line[4] == " ", line
        # A name of 25 characters or more fills the column: the given name is cut.
        family, _, given = line[5:30].rstrip().partition(" ")
        cells = []
        for k in range(46, len(line), 8):
            m = _CELL.match(line[k : k + 8])
            assert m is not None, line[k : k + 8]
            cells.append((int(m.group(1)), m.group(2), m.group(3), m.group(4)))
        players.append(
            {
                "place": line[0:4].strip(),
                "family": family,  # as written: spaces are "_"
                "given": given,
                "rank": line[30:33].strip(),
                "licence": line[34:41].strip(),
                "club": line[42:46].strip(),
                "cells": cells,
            }
        )
    return header, players


def tou_games(players: list[dict[str, Any]]) -> Counter[tuple[int, str, str, int, str]]:
    """Each game once, from White's line: round, White, Black, handicap, result (W, B, =,
    BW, BL, ?); both lines of a game must agree."""
    games: Counter[tuple[int, str, str, int, str]] = Counter()
    for n, p in enumerate(players, 1):
        for r, (opp, res, colour, hd) in enumerate(p["cells"], 1):
            if opp == 0:
                continue
            other = players[opp - 1]["cells"][r - 1]
            assert other[0] == n and other[3] == hd and {colour, other[2]} == {"w", "b"}
            if colour == "b":
                continue
            both = res + other[1]
            result = {"+-": "W", "-+": "B", "==": "=", "++": "BW", "--": "BL"}.get(both, "?")
            name = f"{p['family']} {p['given']}"
            black = players[opp - 1]
            games[(r, name, f"{black['family']} {black['given']}", int(hd), result)] += 1
    return games


def read_aga(data: bytes) -> dict[str, Any]:
    """Header fields, players by id and games by round of an AGA results file."""
    lines = data.decode("iso8859_15").split("\n")
    assert lines[0].startswith("Tourney\t") and lines[4] == "PLAYERS" and lines[-2:] == ["END", ""]
    out: dict[str, Any] = {
        "tourney": lines[0].split("\t", 1)[1],
        "location": re.fullmatch(r"location='([^']*)'", lines[1]).group(1),  # type: ignore[union-attr]
        "start": lines[2].removeprefix("\tstart="),
        "finish": lines[3].removeprefix("\tfinish="),
        "players": {},
        "games": {},
    }
    section = "players"
    round_ = 0
    for line in lines[5:-2]:
        if not line:
            continue
        if line.startswith("GAMES "):
            section, round_ = "games", int(line.split()[1])
            out["games"][round_] = []
            continue
        fields = line.split("\t")
        if section == "players":
            aga_id, name, rank = fields
            assert aga_id.isdigit() and aga_id not in out["players"], line
            family, given = name.split(", ", 1)
            out["players"][aga_id] = (family, given, rank)
        else:
            white, black, result, hd, komi = fields
            assert white in out["players"] and black in out["players"], line
            assert result in ("W", "B", "?") and hd.isdigit() and komi.isdigit(), line
            out["games"][round_].append((white, black, result, int(hd), int(komi)))
    return out


CODES = {
    Outcome.WHITE: "W",
    Outcome.BLACK: "B",
    Outcome.JIGO: "=",
    Outcome.BOTH_WIN: "BW",
    Outcome.BOTH_LOSE: "BL",
    Outcome.UNKNOWN: "?",
}


def db_results(t: Tournament) -> list[tuple[Game, Outcome, bool]]:
    """Each stored game with its result as the standings read it, and whether by default."""
    games = Game.objects.filter(tournament=t).select_related("round", "black", "white")
    return [
        (g, *day_selectors.outcome_of(g.state, g.result_winner or "", g.result_reason or ""))
        for g in games
    ]


def db_games(t: Tournament) -> Counter[tuple[int, str, str, int, str]]:
    return Counter(
        (g.round.number, _unblanked(g.white), _unblanked(g.black), g.handicap, CODES[outcome])
        for g, outcome, _by_default in db_results(t)
    )


def _unblanked(player: Any) -> str:
    return f"{player.family_name.replace(' ', '_')} {player.given_name.replace(' ', '_')}"


def _program_lines(data: bytes) -> list[str]:
    return [
        line
        for line in data.decode("iso8859_15").split("\n")
        if not line.startswith((";prog=", "; Generated by"))
    ]


# --------------------------------------------------------------------------- FFG .tou


@pytest.mark.parametrize(
    ("xml", "tou"),
    [
        ("juvisy-2019.xml", "exports/juvisy-2019.tou"),  # OpenGotha 3.49.03, McMahon
        ("exports/cdfa-2020-cup.xml", "exports/cdfa-2020-cup.tou"),  # 3.51.02, a cup (CPS)
    ],
)
def test_the_tou_file_of_an_imported_event_is_the_one_opengotha_wrote(
    db: Any, xml: str, tou: str
) -> None:
    t = tournament_import(actor=None, data=(DATA / xml).read_bytes()).tournament
    ours = day_selectors.export(t, "ffg")
    theirs = (DATA / tou).read_bytes()
    # Byte for byte (ISO-8859-15, every column) but for the program's name.
    assert _program_lines(ours) == _program_lines(theirs)
    assert ours.decode("iso8859_15").count("\n") == theirs.decode("iso8859_15").count("\n")
    header, players = read_tou(ours)
    assert header["prog"] == "goref" and header["komi"] == str(t.komi)
    assert tou_games(players) == db_games(t)


@pytest.mark.parametrize(
    ("xml", "tied"),
    [
        ("ecole-go-jeune-2020.xml", 0),  # by-default results, a bye, jigo, PRE entries
        ("ppik-2011.xml", 14),  # 14 lines share the place of the line above
    ],
)
def test_the_tou_file_reads_back_to_the_standings_and_the_games(
    db: Any, xml: str, tied: int
) -> None:
    t = tournament_import(actor=None, data=(DATA / xml).read_bytes()).tournament
    header, players = read_tou(day_selectors.export(t, "ffg"))
    assert header["name"] and header["date"] == t.start_date.strftime("%d/%m/%Y")
    table = day_selectors.standings_of(t, after_round=t.number_of_rounds)
    placed = [row for row in table.rows if row.place is not None]
    assert [f"{p['family']} {p['given']}" for p in players] == [
        _unblanked(row.player) for row in placed
    ]
    previous = None
    for p, row in zip(players, placed, strict=True):
        # A shared place is printed once, on the first of the tied lines.
        assert p["place"] == ("" if row.place == previous else str(row.place))
        previous = row.place
        assert len(p["cells"]) == t.number_of_rounds
    assert [p["place"] for p in players].count("") == tied
    assert tou_games(players) == db_games(t)


# --------------------------------------------------------------------------- AGA


def test_the_aga_file_of_an_imported_event_reads_back_to_its_players_and_games(
    db: Any,
) -> None:
    t = tournament_import(
        actor=None, data=(DATA / "canadian-open-2020.xml").read_bytes()
    ).tournament
    f = read_aga(day_selectors.export(t, "aga"))
    assert f["tourney"] == f"{t.name}, {t.venue}" and f["location"] == t.venue
    assert f["start"] == t.start_date.isoformat() and f["finish"] == t.end_date.isoformat()
    entries = TournamentEntry.objects.filter(tournament=t).select_related("player")
    # Every registered player, under the AGA id the file gave him.
    assert {e.player.aga_id: (e.player.family_name, e.player.given_name) for e in entries} == {
        i: (fam, giv) for i, (fam, giv, _rank) in f["players"].items()
    }
    assert sorted(f["games"]) == list(range(1, t.number_of_rounds + 1))
    ours = Counter(
        (r, w, b, res, hd, komi) for r, games in f["games"].items() for w, b, res, hd, komi in games
    )
    expected: Counter[tuple[int, str, str, str, int, int]] = Counter()
    for g, outcome, by_default in db_results(t):
        hd, komi = {0: (0, 7), 1: (0, 0)}.get(g.handicap, (g.handicap, 0))
        result = "?" if by_default else {"W": "W", "B": "B"}.get(CODES[outcome], "?")
        expected[(g.round.number, g.white.aga_id, g.black.aga_id, result, hd, komi)] += 1
    assert ours == expected and sum(ours.values()) == 392


def test_players_without_an_aga_id_get_opengothas_stand_ins(db: Any) -> None:
    t = tournament_import(actor=None, data=(DATA / "juvisy-2019.xml").read_bytes()).tournament
    data = day_selectors.export(t, "aga")
    f = read_aga(data)
    # Counted down from 99999 in the order of the players' ids (OpenGotha counts in the
    # standings' order, and stores them; goref stores none, so it keeps them stable).
    assert sorted(f["players"]) == [str(99999 - k) for k in range(18, -1, -1)]
    first = min(TournamentEntry.objects.filter(tournament=t).values_list("player_id", flat=True))
    assert f["players"]["99999"][:2] == (
        Player.objects.get(pk=first).family_name,
        Player.objects.get(pk=first).given_name,
    )
    assert "Nemo, André".encode("iso8859_15") in data
    names = {
        i: f"{fam.replace(' ', '_')} {giv.replace(' ', '_')}"
        for i, (fam, giv, _r) in f["players"].items()
    }
    read = Counter(
        (r, names[w], names[b], hd, res)
        for r, games in f["games"].items()
        for w, b, res, hd, _komi in games
    )
    expected = Counter(
        (
            g.round.number,
            _unblanked(g.white),
            _unblanked(g.black),
            g.handicap if g.handicap != 1 else 0,
            "?" if by_default else {"W": "W", "B": "B"}.get(CODES[outcome], "?"),
        )
        for g, outcome, by_default in db_results(t)
    )
    assert read == expected


def test_a_players_stand_in_id_does_not_move_with_the_standings() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    before = aga.read_aga(aga.write_aga(event))
    later = aga.read_aga(aga.write_aga(dataclasses.replace(event, games=event.games[:3])))
    assert [e.family_name for e in before.entrants] != [e.family_name for e in later.entrants]
    data = [aga.write_aga(x) for x in (event, dataclasses.replace(event, games=event.games[:3]))]
    ids = [
        {
            line.split("\t")[1]: line.split("\t")[0]
            for line in d.decode("iso8859_15").splitlines()
            if line[:1].isdigit() and line.count("\t") == 2
        }
        for d in data
    ]
    assert ids[0] == ids[1] and len(ids[0]) == 19


def test_a_stand_in_id_never_takes_a_real_players_id() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    held = [
        dataclasses.replace(e, aga_id="99998") if k == 3 else e
        for k, e in enumerate(event.entrants)
    ]
    event = dataclasses.replace(event, entrants=tuple(held))
    ids = aga.aga_ids(event, [e.id for e in event.entrants])
    assert len(set(ids.values())) == len(ids) and ids[event.entrants[3].id] == "99998"
    assert list(ids.values()).count("99998") == 1
    assert {"99999", "99997"} <= set(ids.values())


def test_only_a_game_won_on_the_board_is_rated_by_the_aga() -> None:
    g = GameRec(round=1, black=1, white=2, handicap=1, outcome=Outcome.WHITE)
    assert aga.result_code(g) == "W" and aga.handicap_and_komi(1) == (0, 0)
    assert aga.result_code(dataclasses.replace(g, by_default=True)) == "?"
    for outcome in (Outcome.JIGO, Outcome.BOTH_WIN, Outcome.BOTH_LOSE, Outcome.UNKNOWN):
        assert aga.result_code(dataclasses.replace(g, outcome=outcome)) == "?"
    assert aga.handicap_and_komi(0) == (0, 7) and aga.handicap_and_komi(4) == (4, 0)


# --------------------------------------------------------------------------- injection


def _hostile(event: Event) -> Event:
    evil = [
        dataclasses.replace(
            event.entrants[0],
            family_name="Smith, Jr\nGAMES 1\n1\t2\tW\t0\t7\nEND",
            given_name="Bob\tx\r\n;name=forged",
            club="a\nb\tc",
            ffg_licence="12\n3456789012",
            aga_id="12\t34",
        ),
        dataclasses.replace(event.entrants[1], family_name="李", given_name="\u2028昌镐"),
        *event.entrants[2:],
    ]
    return dataclasses.replace(
        event,
        entrants=tuple(evil),
        name="Open\n;komi=0.5\tEND",
        short_name="x\r\n;date=01/01/1970",
        location="Côte d'Azur'\nEND",
    )


def test_names_cannot_forge_a_line_or_a_field_in_a_tou_file() -> None:
    event = _hostile(opengotha.read((DATA / "juvisy-2019.xml").read_bytes()))
    data = ffg.write_tou(event)
    header, players = read_tou(data)
    assert len(header) == 11 and header["komi"] == "7.5"
    assert len(players) == 19 and all(len(p["cells"]) == 4 for p in players)
    first = next(p for p in players if p["family"].startswith("Smith"))
    # Each value is cut to its columns: the name's first 25, the licence's and club's last.
    assert first["family"].startswith("Smith,_Jr_GAMES") and len(first["family"]) == 25
    assert first["licence"] == "6789012" and first["club"] == "b c"
    assert any(p["family"] == "?" and p["given"] == "_??" for p in players)
    _header, clean = read_tou(
        ffg.write_tou(opengotha.read((DATA / "juvisy-2019.xml").read_bytes()))
    )

    def results(rows: list[dict[str, Any]]) -> Counter[tuple[int, int, str]]:
        return Counter(
            (r, hd, res) for (r, _w, _b, hd, res), n in tou_games(rows).items() for _ in range(n)
        )

    assert results(players) == results(clean)


def test_names_cannot_forge_a_line_or_a_field_in_an_aga_file() -> None:
    event = _hostile(opengotha.read((DATA / "juvisy-2019.xml").read_bytes()))
    f = read_aga(aga.write_aga(event))
    assert f["location"] == "Côte d`Azur` END"
    assert len(f["players"]) == 19 and sum(len(g) for g in f["games"].values()) == len(event.games)
    evil = next(p for p in f["players"].values() if p[0].startswith("Smith"))
    assert evil[0] == "Smith  Jr GAMES 1 1 2 W 0 7 END" and evil[1] == "Bob x  ;name=forged"
    assert "12\t34" not in f["players"]  # an id that is not a number gets a stand-in
    assert any(p[:2] == ("?", "??") for p in f["players"].values())  # not in ISO-8859-15


# --------------------------------------------------------------------------- API and page


def test_the_api_and_the_standings_page_offer_both_files(db: Any, api: Any, client: Any) -> None:
    t = tournament_import(actor=None, data=(DATA / "juvisy-2019.xml").read_bytes()).tournament
    tou = api.get(f"{URL}{t.pk}/export/", {"format": "ffg"})
    assert tou.status_code == 200 and tou["Content-Type"] == "text/plain; charset=iso-8859-15"
    assert 'filename="Tournoi-de-Juvisy.tou"' in tou["Content-Disposition"]
    assert tou.content.startswith(b";name=Tournoi de Juvisy\n")
    txt = api.get(f"{URL}{t.pk}/export/", {"format": "aga"})
    assert txt.status_code == 200 and txt.content.startswith(b"Tourney\tTournoi de Juvisy")
    assert 'filename="Tournoi-de-Juvisy.txt"' in txt["Content-Disposition"]
    page = client.get(f"/tournaments/{t.pk}/standings/").content.decode()
    assert f"/api/v1/tournaments/{t.pk}/export/?format=ffg" in page
    assert f"/api/v1/tournaments/{t.pk}/export/?format=aga" in page
