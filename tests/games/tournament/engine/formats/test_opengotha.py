"""OpenGotha files: real ones read, give sane standings, survive a round trip; bad ones are
refused with an error naming the element."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from pathlib import Path

import pytest

from games.tournament.engine.formats import opengotha
from games.tournament.engine.formats.opengotha import FileFormatError
from games.tournament.engine.model import Outcome, Presence, System
from games.tournament.engine.standings import CRITERIA, Scoreboard

DATA = Path(__file__).resolve().parents[4] / "data" / "opengotha"
FILES = sorted(DATA.glob("*.xml"))


def load(name: str) -> opengotha.Event:
    return opengotha.read((DATA / name).read_bytes())


def test_the_real_files_are_there() -> None:
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_real_file_gives_sane_standings_for_every_round(path: Path) -> None:
    event = opengotha.read(path.read_bytes())
    assert event.entrants and event.settings.criteria
    board = Scoreboard(event)
    previous: dict[int, tuple[float, float]] = {}
    for r in range(board.rounds + 1):
        nbw2, mms2 = board.value2("NBW", r), board.value2("MMS", r)
        rows = board.standings(r)
        assert len(rows) == len(event.entrants)
        places = [row.place for row in rows if row.place is not None]
        assert places == sorted(places) and (not places or places[0] == 1)
        assert all(p <= k for k, p in enumerate(places, 1))
        assert len(places) == sum(board.implied(r))
        for e in event.entrants:
            i = board.index(e.id)
            nbw, mms = nbw2[i] / 2, mms2[i] / 2
            before = previous.get(e.id, (0.0, float(board.smms[i])))
            # Scores never go down from one round to the next.
            assert nbw >= before[0] and mms >= before[1], (e.id, r)
            previous[e.id] = (nbw, mms)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_writing_and_reading_back_keeps_games_and_every_standing(path: Path) -> None:
    event = opengotha.read(path.read_bytes())
    again = opengotha.read(opengotha.write(event))
    assert again.settings == event.settings
    assert again.entrants == event.entrants
    assert sorted(again.games, key=_game_key) == sorted(event.games, key=_game_key)
    assert again.pairing == event.pairing
    assert (again.name, again.location, again.begin_date, again.komi) == (
        event.name,
        event.location,
        event.begin_date,
        event.komi,
    )
    one, two = Scoreboard(event), Scoreboard(again)
    every = [c for c in CRITERIA if c not in ("DC", "SDC")]
    for r in range(one.rounds + 1):
        assert one.standings(r, every) == two.standings(r, every)
        assert one.standings(r) == two.standings(r)


def _game_key(g: opengotha.GameRec) -> tuple[int, int, int]:
    return (g.round, g.black, g.white)


def test_a_file_reads_into_the_model() -> None:
    event = load("juvisy-2019.xml")
    s = event.settings
    assert (s.system, s.rounds, s.mm_bar, s.mm_floor) == (System.MCMAHON, 4, 3, -20)
    assert s.criteria == ("MMS", "SOSM", "SOSOSM")
    assert (s.hd_based_on_mms, s.hd_no_hd_rank_threshold, s.hd_correction) == (True, 0, 1)
    assert event.name == "Tournoi de Juvisy" and event.komi == Decimal("7.5")
    assert event.pairing["paiMaSeedSystem1"] == "SPLITANDRANDOM"
    nicita = next(e for e in event.entrants if e.family_name == "Nicita")
    assert (nicita.rank, nicita.rating, nicita.egd_pin, nicita.club) == (
        -10,
        1114,
        "17033126",
        "91SM",
    )
    daguenet = next(e for e in event.entrants if e.family_name == "Daguenet")
    assert daguenet.presence == (Presence.PLAY, Presence.ABSENT, Presence.ABSENT, Presence.ABSENT)
    first = next(g for g in event.games if g.round == 1 and g.table == 1)
    assert first.outcome is Outcome.WHITE and event.entrant(first.white).family_name == "Minieri"


def test_byes_by_default_results_and_preliminary_entries_are_read() -> None:
    event = load("ecole-go-jeune-2020.xml")
    assert any(g.by_default for g in event.games)
    assert any(Presence.BYE in e.presence for e in event.entrants)
    assert any(not e.final for e in event.entrants)
    assert any(g.outcome is Outcome.JIGO for g in event.games)


def test_a_file_without_data_version_keeps_its_ratings() -> None:
    # OpenGotha 3.51 writes no dataVersion; its ratings are absolute, not relative to 2050.
    event = load("pairgoth-simplemm.xml")
    robin = next(e for e in event.entrants if e.family_name == "Robin")
    assert robin.rating == 1129


def test_an_old_file_has_relative_ratings_and_accent_free_keys() -> None:
    data = (
        b'<?xml version="1.0" encoding="UTF-8"?><Tournament><Players>'
        b'<Player name="M\xc3\xbcller" firstName="Jos\xc3\xa9" rank="2d" rating="50"/>'
        b'<Player name="Li" firstName="Wei" rank="3K" rating="-250"/></Players>'
        b'<Games><Game roundNumber="1" whitePlayer="MULLERJOSE" blackPlayer="LIWEI"'
        b' result="RESULT_WHITEWINS"/></Games></Tournament>'
    )
    event = opengotha.read(data)
    assert [e.rating for e in event.entrants] == [2100, 1800]
    assert event.games[0].white == 1 and event.games[0].outcome is Outcome.WHITE


def test_categories_are_read_and_written() -> None:
    event = load("r2-pairing-2020.xml")
    assert event.settings.category_limits == (0, -5)
    assert b'<Category number="2" lowerLimit="5K"' in opengotha.write(event)


def test_written_names_lose_control_characters() -> None:
    event = load("juvisy-2019.xml")
    first = dataclasses.replace(event.entrants[0], given_name="Man\nuela\x00")
    data = opengotha.write(dataclasses.replace(event, entrants=(first, *event.entrants[1:])))
    assert b'firstName="Man uela "' in data
    opengotha.read(data)


GOOD_PLAYER = '<Player name="Li" firstName="Wei" rank="3K" rating="1800"/>'
OTHER_PLAYER = '<Player name="Ma" firstName="Chao" rank="1D" rating="2100"/>'


def _file(players: str = GOOD_PLAYER + OTHER_PLAYER, games: str = "", extra: str = "") -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><Tournament dataVersion="201">'
        f"<Players>{players}</Players><Games>{games}</Games>{extra}</Tournament>"
    ).encode()


@pytest.mark.parametrize(
    ("data", "element", "message"),
    [
        (b"<Tournament><Players>", "Tournament", "not well-formed XML"),
        (b"\xff\xfe\x00", "Tournament", "not well-formed XML"),
        (b"<Event/>", "Event", "not <Tournament>"),
        (
            b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
            b"<Tournament>&b;</Tournament>",
            "Tournament",
            "entity declaration",
        ),
        (_file(players='<Player name="Li" firstName="Wei" rank="3X"/>'), "Player 1", "rank"),
        (_file(players='<Player name="Li" rank="3K" rating="high"/>'), "Player 1", "rating"),
        (_file(players='<Player name="" firstName="" rank="3K"/>'), "Player 1", "no name"),
        (_file(players=GOOD_PLAYER + GOOD_PLAYER), "Player 2", "share the key 'LIWEI'"),
        (
            _file(players='<Player name="Li" rank="3K" participating="11x1"/>'),
            "Player 1",
            "participating",
        ),
        (
            _file(players='<Player name="Li" rank="3K" registeringStatus="MAYBE"/>'),
            "Player 1",
            "registeringStatus",
        ),
        (
            _file(games='<Game roundNumber="1" whitePlayer="LIWEI" blackPlayer="NOBODY"/>'),
            "Game 1",
            "no player has the key 'NOBODY'",
        ),
        (
            _file(games='<Game roundNumber="1" whitePlayer="LIWEI" blackPlayer="LIWEI"/>'),
            "Game 1",
            "cannot play himself",
        ),
        (
            _file(
                games='<Game roundNumber="1" whitePlayer="LIWEI" blackPlayer="MACHAO"/>'
                '<Game roundNumber="1" whitePlayer="MACHAO" blackPlayer="LIWEI"/>'
            ),
            "Game 2",
            "two games in round 1",
        ),
        (
            _file(
                games='<Game roundNumber="1" whitePlayer="LIWEI" blackPlayer="MACHAO" result="W+R"/>'
            ),
            "Game 1",
            "not an OpenGotha result",
        ),
        (
            _file(games='<Game roundNumber="0" whitePlayer="LIWEI" blackPlayer="MACHAO"/>'),
            "Game 1",
            "roundNumber=0",
        ),
        (
            _file(
                games='<Game roundNumber="1" handicap="12" whitePlayer="LIWEI" blackPlayer="MACHAO"/>'
            ),
            "Game 1",
            "handicap=12",
        ),
        (
            _file(extra='<ByePlayers><ByePlayer roundNumber="1" player="GHOST"/></ByePlayers>'),
            "ByePlayer 1",
            "GHOST",
        ),
        (
            _file(
                extra='<TournamentParameterSet><GeneralParameterSet komi="six"/>'
                "</TournamentParameterSet>"
            ),
            "GeneralParameterSet",
            "komi",
        ),
        (
            _file(
                extra='<TournamentParameterSet><GeneralParameterSet beginDate="26/10/2019"/>'
                "</TournamentParameterSet>"
            ),
            "GeneralParameterSet",
            "beginDate",
        ),
        (
            _file(
                extra='<TournamentParameterSet><GeneralParameterSet numberOfRounds="99"/>'
                "</TournamentParameterSet>"
            ),
            "GeneralParameterSet",
            "numberOfRounds",
        ),
        (
            _file(
                extra="<TournamentParameterSet><GeneralParameterSet/><PlacementParameterSet>"
                '<PlacementCriteria><PlacementCriterion number="1" name="LUCK"/>'
                "</PlacementCriteria></PlacementParameterSet></TournamentParameterSet>"
            ),
            "PlacementCriterion",
            "LUCK",
        ),
        (
            _file(
                extra='<TournamentParameterSet><GeneralParameterSet/><HandicapParameterSet hdBasedOnMMS="yes"/>'
                "</TournamentParameterSet>"
            ),
            "HandicapParameterSet",
            "hdBasedOnMMS",
        ),
    ],
)
def test_a_malformed_file_is_refused_naming_the_element(
    data: bytes, element: str, message: str
) -> None:
    with pytest.raises(FileFormatError) as caught:
        opengotha.read(data)
    assert caught.value.element == element
    assert message in caught.value.message


def test_a_minimal_file_takes_opengothas_defaults() -> None:
    event = opengotha.read(_file(games='<Game whitePlayer="LIWEI" blackPlayer="MACHAO"/>'))
    assert event.settings.system is System.MCMAHON
    assert event.games[0].outcome is Outcome.UNKNOWN and event.games[0].round == 1


def test_games_without_or_with_clashing_tables_get_free_table_numbers() -> None:
    event = load("juvisy-2019.xml")
    round1 = [g for g in event.games if g.round == 1]
    clash = dataclasses.replace(round1[0], table=round1[1].table)
    loose = dataclasses.replace(round1[2], table=None)
    games = (clash, loose, *(g for g in event.games if g not in (round1[0], round1[2])))
    again = opengotha.read(opengotha.write(dataclasses.replace(event, games=games)))
    tables = [g.table for g in again.games if g.round == 1]
    assert len(again.games) == len(event.games) and len(set(tables)) == len(tables)


def test_more_rounds_than_opengotha_holds_are_refused_on_writing() -> None:
    event = load("juvisy-2019.xml")
    long = dataclasses.replace(event, settings=dataclasses.replace(event.settings, rounds=21))
    with pytest.raises(ValueError, match="at most 20 rounds"):
        opengotha.write(long)
