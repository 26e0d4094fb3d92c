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


def _team_event(director: Any, tournament: Any) -> list[Any]:
    from games.tournament.services import teams
    from tests.factories import PlayerFactory, enter

    tournament.system = "swiss"
    tournament.number_of_rounds = 3
    tournament.save()
    players = [
        PlayerFactory(family_name=f"Member{i:02d}", given_name="P", declared_rank=5 - i // 3)
        for i in range(12)
    ]
    enter(tournament, *players)
    teams.team_params_set(actor=director, tournament=tournament, size=3)
    return [
        teams.team_create(
            actor=director,
            tournament=tournament,
            name=f"Club {n}",
            members=players[3 * n : 3 * n + 3],
        )
        for n in range(4)
    ]


@pytest.mark.django_db
def test_a_team_event_is_paired_board_by_board_and_placed(
    api_as: Any, director: Any, tournament: Any
) -> None:
    from games.services import game_finalise, game_result_enter
    from games.tournament.services.teams import round_pair_teams

    made = _team_event(director, tournament)
    first = round_pair_teams(actor=director, tournament=tournament, round_number=1)
    assert len(first.matches) == 2 and len(first.created) == 6
    games = sorted(first.created, key=lambda g: g.table)
    assert [g.table for g in games] == [1, 2, 3, 4, 5, 6]
    # Board k meets board k; even boards of a match take the other colours than board 1.
    members = {t.pk: {b.board: b.player_id for b in t.boards.filter(round=1)} for t in made}
    a, b = first.matches[0]
    for board, game in enumerate(games[:3], 1):
        assert {game.black_id, game.white_id} == {members[a.pk][board], members[b.pk][board]}
    if games[0].handicap == games[1].handicap == 0:
        a_white_1 = games[0].white_id == members[a.pk][1]
        assert (games[1].white_id == members[a.pk][2]) is not a_white_1
    for game in games:  # the better-placed team's board-1 side... Black wins every board
        game_result_enter(actor=director, game=game, result="B+R")
        game_finalise(actor=director, game=game)
    second = round_pair_teams(actor=director, tournament=tournament, round_number=2)
    before = {frozenset((x.pk, y.pk)) for x, y in first.matches}
    assert not {frozenset((x.pk, y.pk)) for x, y in second.matches} & before
    body = api_as(None).get(f"/api/v1/tournaments/{tournament.pk}/team-standings/?round=1").json()
    assert body["criteria"] == ["TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR"]
    assert sum(row["values"]["BDW"] for row in body["rows"]) == 6


@pytest.mark.django_db
def test_a_director_names_the_matches_and_changes_a_line_up(director: Any, tournament: Any) -> None:
    from django.core.exceptions import ValidationError

    from games.tournament.services.teams import round_pair_teams, team_lineup_set

    made = _team_event(director, tournament)
    numbers = [t.number for t in made]
    done = round_pair_teams(
        actor=director,
        tournament=tournament,
        round_number=1,
        matches=[(numbers[0], numbers[3]), (numbers[1], numbers[2])],
        dry_run=True,
    )
    assert [(x.name, y.name) for x, y in done.matches] == [
        ("Club 0", "Club 3"),
        ("Club 1", "Club 2"),
    ]
    assert not done.created
    with pytest.raises(ValidationError, match="two matches"):
        round_pair_teams(
            actor=director,
            tournament=tournament,
            round_number=1,
            matches=[(numbers[0], numbers[1]), (numbers[1], numbers[2])],
        )
    members = [b.player for b in made[0].boards.filter(round=1).order_by("board")]
    team_lineup_set(actor=director, team=made[0], round_number=2, members=members[::-1])
    assert [b.player_id for b in made[0].boards.filter(round=2).order_by("board")] == [
        p.pk for p in members[::-1]
    ]
    assert [b.player_id for b in made[0].boards.filter(round=1).order_by("board")] == [
        p.pk for p in members
    ]


@pytest.mark.django_db
def test_a_team_event_through_the_api(
    api_as: Any, director: Any, outsider: Any, tournament: Any
) -> None:
    from tests.factories import PlayerFactory, enter

    players = [PlayerFactory(family_name=f"Api{i}", declared_rank=i - 4) for i in range(8)]
    enter(tournament, *players)
    api = api_as(director)
    base = f"/api/v1/tournaments/{tournament.pk}"
    assert api.put(f"{base}/team-params/", {"size": 2}, format="json").status_code == 200
    for n in range(4):
        made = api.post(
            f"{base}/teams/",
            {"name": f"T{n}", "members": [players[2 * n].pk, players[2 * n + 1].pk]},
            format="json",
        )
        assert made.status_code == 201, made.content
    clash = api.post(f"{base}/teams/", {"name": "T0", "members": []}, format="json")
    assert clash.status_code == 400
    team = api.get(f"{base}/teams/").json()[0]
    swapped = list(reversed(team["lineups"]["1"]))
    lineup = api.put(
        f"{base}/teams/{team['id']}/lineup/", {"round": 1, "members": swapped}, format="json"
    )
    assert lineup.status_code == 200 and lineup.json()["lineups"]["1"] == swapped
    dry = api.post(f"{base}/rounds/1/team-pairing/", {"dry_run": True}, format="json")
    assert dry.status_code == 200 and len(dry.json()["games"]) == 4
    paired = api.post(
        f"{base}/rounds/1/team-pairing/", {"matches": [[1, 2], [3, 4]]}, format="json"
    )
    assert paired.status_code == 201, paired.content
    assert [m["teams"] for m in paired.json()["matches"]] == [[1, 2], [3, 4]]
    refused = api_as(outsider).post(f"{base}/rounds/1/team-pairing/", {}, format="json")
    assert refused.status_code == 403


@pytest.mark.django_db
def test_the_teams_page_runs_a_team_event(director: Any, tournament: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    from games.models import Game
    from tests.factories import PlayerFactory, enter

    players = [PlayerFactory(family_name=f"Page{i}", declared_rank=5 - i) for i in range(8)]
    enter(tournament, *players)
    client = Client()
    client.force_login(director)
    url = reverse("games:teams", args=[tournament.pk])
    assert b"not a team event yet" in client.get(url).content
    client.post(url, {"action": "params", "size": "2"})
    for n in range(4):
        saved = client.post(
            url,
            {
                "action": "team",
                "name": f"Side {n}",
                "members": [players[2 * n].pk, players[2 * n + 1].pk],
            },
            follow=True,
        )
        assert b"Saved." in saved.content
    paired = client.post(
        url, {"action": "pair", "round": "1", "team_pairs": "1 2 3 4"}, follow=True
    )
    assert b"2 match(es) paired: 4 board game(s)." in paired.content
    assert Game.objects.filter(tournament=tournament, round__number=1).count() == 4
    page = Client().get(url)
    assert page.status_code == 200 and b"Team standings" in page.content
    assert b"Run the teams" not in page.content


def test_clubs_groups_are_read_written_and_halve_the_same_club_weight() -> None:
    from games.tournament.engine.formats import opengotha as og
    from games.tournament.engine.pairing.params import PairingParams
    from games.tournament.engine.pairing.weights import _geo

    event = og.read((DATA / "juvisy-2019.xml").read_bytes())
    from dataclasses import replace

    grouped = replace(event, club_groups=(("Paris", ("Paris 1", "Paris 2")),))
    again = og.read(og.write(grouped))
    assert again.club_groups == (("Paris", ("Paris 1", "Paris 2")),)
    assert b"<ClubsGroups>" in og.write(grouped) and b"<ClubsGroups>" not in og.write(event)
    p = PairingParams.for_system("mcmahon")
    same, half, apart = (_geo(p, False, clubs, 10, 0) for clubs in (0, 1, 2))
    assert same < half < apart  # one clubs group: between one club and two clubs apart


@pytest.mark.django_db
def test_a_director_sets_clubs_groups_through_the_api(
    api_as: Any, director: Any, outsider: Any, tournament: Any
) -> None:
    from ops.models import AuditEntry

    url = f"/api/v1/tournaments/{tournament.pk}/club-groups/"
    body = {"club_groups": [{"name": "Lyon", "clubs": ["Lyon 1", "Lyon 2"]}]}
    assert api_as(outsider).put(url, body, format="json").status_code == 403
    saved = api_as(director).put(url, body, format="json")
    assert saved.status_code == 200 and saved.json() == body
    bad = api_as(director).put(
        url, {"club_groups": [{"name": "Lyon", "clubs": ["Lyon 1"]}]}, format="json"
    )
    assert bad.status_code == 400
    assert AuditEntry.objects.filter(action="tournament.settings_changed").count() == 1


@pytest.mark.django_db
def test_the_results_page_heads_each_matchs_boards(director: Any, tournament: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    from games.tournament.services.teams import round_pair_teams

    _team_event(director, tournament)
    round_pair_teams(
        actor=director, tournament=tournament, round_number=1, matches=[(1, 2), (3, 4)]
    )
    client = Client()
    client.force_login(director)
    page = client.get(reverse("games:round-results", args=[tournament.pk, 1])).content.decode()
    assert page.count('<tr class="match">') == 2
    assert "Club 0 – Club 1" in page and "Club 2 – Club 3" in page
