"""A real OpenGotha team file through the product path: imported with the command, its
team standings through the API equal OpenGotha's own for every round, and the OpenGotha
export gives OpenGotha the same teams."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Team, TeamBoard, Tournament
from games.tournament.engine.formats import opengotha
from games.tournament.engine.teams import COEF

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"


def _opengotha_dump() -> dict[str, dict[int, list[list[str]]]]:
    out: dict[str, dict[int, list[list[str]]]] = {}
    rounds: dict[int, list[list[str]]] = {}
    for line in (DATA / "opengotha-team-standings.tsv").read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if parts[0] == "FILE":
            rounds = out[parts[1]] = {}
            criteria = [c for c in parts[4].split(",") if c]
            rounds[0] = [criteria]
        elif parts[0] == "ROUND":
            current = rounds[int(parts[1])] = []
        else:
            current.append(parts)
    return out


def _import(path: Path) -> Tournament:
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue().strip().splitlines()[-1])
    return Tournament.objects.get(pk=result["tournament"])


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["juvisy-2019.xml", "chinois-2020.xml"])
def test_an_imported_team_files_team_standings_are_opengothas(api_as: Any, name: str) -> None:
    tournament = _import(DATA / name)
    dump = _opengotha_dump()[name]
    criteria = dump.pop(0)[0]
    assert Team.objects.filter(tournament=tournament).count() == len(dump[1])
    client = api_as(None)  # team standings are public, as the standings are
    for r, expected in dump.items():
        response = client.get(f"/api/v1/tournaments/{tournament.pk}/team-standings/?round={r}")
        assert response.status_code == 200, response.content
        body = response.json()
        named = [c for c in criteria if c != "NULL"]
        assert body["round"] == r and body["criteria"] == named
        assert [row["team"]["name"] for row in body["rows"]] == [line[1] for line in expected]
        place = 0
        for row, line in zip(body["rows"], expected, strict=True):
            place = int(line[2]) if line[2] else place  # blank: shares the place above
            assert row["place"] == place
            stored = [int(v) for v in line[3:]]
            assert [row["values"][c] * COEF[c] for c in named] == stored[: len(named)]


@pytest.mark.django_db
def test_the_export_of_an_imported_team_event_gives_opengotha_the_same_teams(
    api_as: Any, superuser: Any
) -> None:
    tournament = _import(DATA / "juvisy-2019.xml")
    original = opengotha.read((DATA / "juvisy-2019.xml").read_bytes())
    response = api_as(superuser).get(
        f"/api/v1/tournaments/{tournament.pk}/export/?format=opengotha"
    )
    assert response.status_code == 200
    back = opengotha.read(response.content)
    keys = {e.id: e.key for e in original.entrants}
    back_keys = {e.id: e.key for e in back.entrants}

    def lineups(event: Any, k: dict[int, str]) -> dict[str, dict[tuple[int, int], str]]:
        return {t.name: {slot: k[p] for slot, p in t.boards.items()} for t in event.teams}

    assert lineups(back, back_keys) == lineups(original, keys)
    assert back.team_settings == original.team_settings
    assert TeamBoard.objects.filter(tournament=tournament).count() == sum(
        len(t.boards) for t in original.teams
    )


@pytest.mark.django_db
def test_an_individual_event_has_no_team_standings(api_as: Any, tournament: Any) -> None:
    response = api_as(None).get(f"/api/v1/tournaments/{tournament.pk}/team-standings/")
    assert response.status_code == 400
