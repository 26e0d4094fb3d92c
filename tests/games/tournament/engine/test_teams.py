"""Team standings equal OpenGotha's own on the real team files.

``opengotha-team-standings.tsv`` holds what OpenGotha 3.51.02's
``getAnUpToDateScoredTeamsSet`` gave for every round of each file, on the file's team
criteria (``TeamStandDump.java`` beside it made it): team number, name, printed place
(empty when shared with the row above) and the six stored values."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.tournament.engine.formats import opengotha
from games.tournament.engine.model import Team, TeamSettings
from games.tournament.engine.teams import matches, mean_rating, team_standings

DATA = Path(__file__).resolve().parents[3] / "data" / "opengotha"


def _dump() -> dict[str, dict[int, list[list[str]]]]:
    out: dict[str, dict[int, list[list[str]]]] = {}
    rounds: dict[int, list[list[str]]] = {}
    current: list[list[str]] = []
    for line in (DATA / "opengotha-team-standings.tsv").read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if parts[0] == "FILE":
            rounds = out[parts[1]] = {}
        elif parts[0] == "ROUND":
            current = rounds[int(parts[1])] = []
        else:
            current.append(parts)
    return out


DUMP = _dump()


@pytest.mark.parametrize("name", sorted(DUMP))
def test_team_standings_equal_opengothas_every_round(name: str) -> None:
    event = opengotha.read((DATA / name).read_bytes())
    assert event.team_settings is not None and event.teams
    for r, expected in DUMP[name].items():
        rows = team_standings(event, event.teams, event.team_settings, r)
        got = [[str(row.team.number), row.team.name] for row in rows]
        assert got == [line[:2] for line in expected], (name, r)
        for row, line in zip(rows, expected, strict=True):
            shown = line[2]
            assert shown == "" or int(shown) == row.place, (name, r, row.team.name)
            values = [int(v) for v in line[3:]]
            named = [c for c in event.team_settings.criteria if c != "NULL"]
            assert [row.values[c] for c in named] == values[: len(named)], (name, r)


def test_the_team_layer_comes_back_from_the_export() -> None:
    event = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    again = opengotha.read(opengotha.write(event))
    assert again.team_settings == event.team_settings
    assert {(t.number, t.name, dict(t.boards).__len__()) for t in again.teams} == {
        (t.number, t.name, len(t.boards)) for t in event.teams
    }
    keys = {e.id: e.key for e in event.entrants}
    again_keys = {e.id: e.key for e in again.entrants}
    for a, b in zip(event.teams, again.teams, strict=True):
        assert {k: keys[p] for k, p in a.boards.items()} == {
            k: again_keys[p] for k, p in b.boards.items()
        }


def test_a_match_needs_more_than_half_the_boards_and_more_than_the_opponent() -> None:
    from games.tournament.engine.model import Entrant, Event, GameRec, Outcome, Settings, System

    people = [
        Entrant(id=i, family_name=f"P{i}", given_name="", rank=0, rating=2000 + i)
        for i in range(1, 9)
    ]
    red = Team(1, "Red", {(1, b): b for b in range(1, 5)})
    blue = Team(2, "Blue", {(1, b): 4 + b for b in range(1, 5)})
    # Boards 1 and 2 won by Red, 3 by Blue, 4 unknown: 2 board wins against 1 of 4 boards.
    games = (
        GameRec(1, 5, 1, outcome=Outcome.WHITE),
        GameRec(1, 2, 6, outcome=Outcome.BLACK),
        GameRec(1, 7, 3, outcome=Outcome.BLACK),
        GameRec(1, 4, 8),
    )
    event = Event(Settings.defaults(System.SWISS, 1), tuple(people), games)
    settings = TeamSettings(size=4)
    (match,) = matches(event, (red, blue), settings, 1)
    assert match.white is red and match.team_points(red) == 1 and match.team_points(blue) == 0
    rows = team_standings(event, (red, blue), settings, 1)
    assert [(r.team.name, r.place, r.values["TEAMP"], r.values["BDW"]) for r in rows] == [
        ("Red", 1, 1, 4),
        ("Blue", 2, 0, 2),
    ]
    assert mean_rating(red, 4, {e.id: e.rating for e in people}) == 2002


def test_sost_sums_the_opponents_team_points_and_bdwku_counts_the_first_k_boards() -> None:
    from games.tournament.engine.model import Entrant, Event, GameRec, Outcome, Settings, System

    people = [
        Entrant(id=i, family_name=f"P{i}", given_name="", rank=0, rating=2000) for i in range(1, 7)
    ]
    a = Team(1, "A", {(r, b): b for r in (1, 2) for b in (1, 2)})
    b = Team(2, "B", {(r, k): 2 + k for r in (1, 2) for k in (1, 2)})
    c = Team(3, "C", {(r, k): 4 + k for r in (1, 2) for k in (1, 2)})
    games = (
        # Round 1: A beats B on both boards; C has no match.
        GameRec(1, 3, 1, outcome=Outcome.WHITE),
        GameRec(1, 2, 4, outcome=Outcome.BLACK),
        # Round 2: C beats A on board 2 only (board 1 jigo): C 3 half-points, A 1.
        GameRec(2, 5, 1, outcome=Outcome.JIGO),
        GameRec(2, 6, 2, outcome=Outcome.BLACK),
    )
    event = Event(Settings.defaults(System.SWISS, 2), tuple(people), games)
    settings = TeamSettings(size=2, criteria=("TEAMP", "SOST", "BDW", "BDW1U", "BDW9U", "NULL"))
    rows = {r.team.name: r for r in team_standings(event, (a, b, c), settings, 2)}
    assert rows["A"].values == {"TEAMP": 2, "SOST": 2, "BDW": 5, "BDW1U": 3, "BDW9U": 5}
    assert rows["C"].values == {"TEAMP": 2, "SOST": 2, "BDW": 3, "BDW1U": 1, "BDW9U": 3}
    assert rows["B"].values["TEAMP"] == 0 and rows["B"].values["SOST"] == 2
    # A and C are equal on every criterion but BDW: A first; B last.
    assert [r.team.name for r in team_standings(event, (a, b, c), settings, 2)] == ["A", "C", "B"]
