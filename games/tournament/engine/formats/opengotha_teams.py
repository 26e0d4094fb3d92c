"""The team layer of an OpenGotha file: ``<Teams>`` (each team's line-up per round and
board) and ``<TeamTournamentParameterSet>`` (team size, six placement criteria).

Read and written as OpenGotha 3.51's ``ExternalDocument`` does: a board naming no known
player is dropped (after the accent-free retry), a board without ``roundNumber`` sets
every round, an unknown criterion is NULL, and a file without team parameters has six
NULL criteria.  docs/tournaments.md, "Team tournaments".
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping

from games.tournament.engine.model import Team, TeamSettings
from games.tournament.engine.teams import CRITERIA, CRITERIA_SLOTS, MAX_BOARDS, MAX_TEAM_ROUNDS

Lookup = Callable[[str], int | None]


def _number(el: ET.Element, name: str, default: int) -> int:
    try:
        return int(el.get(name, str(default)).strip())
    except ValueError:
        return default


def read_teams(root: ET.Element, lookup: Lookup) -> tuple[Team, ...]:
    teams = []
    for el in root.iterfind("Teams/Team"):
        boards: dict[tuple[int, int], int] = {}
        for board_el in el.iterfind("Board"):
            player = lookup(board_el.get("player", ""))
            board = _number(board_el, "boardNumber", 1)
            if player is None or not 1 <= board <= MAX_BOARDS:
                continue
            if board_el.get("roundNumber") is None:  # files before 3.28.04: every round
                for r in range(1, MAX_TEAM_ROUNDS + 1):
                    boards[(r, board)] = player
                continue
            r = _number(board_el, "roundNumber", 1)
            if 1 <= r <= MAX_TEAM_ROUNDS:
                boards[(r, board)] = player
        teams.append(
            Team(
                number=_number(el, "teamNumber", 1),
                name=el.get("teamName", "Unnamed team"),
                boards=boards,
            )
        )
    return tuple(teams)


def read_team_settings(root: ET.Element) -> TeamSettings | None:
    ttps = root.find("TeamTournamentParameterSet")
    if ttps is None:
        return None
    general = ttps.find("TeamGeneralParameterSet")
    size = _number(general, "teamSize", 4) if general is not None else 4
    slots = ["NULL"] * CRITERIA_SLOTS
    for el in ttps.iterfind("TeamPlacementParameterSet/PlacementCriteria/PlacementCriterion"):
        k = _number(el, "number", 0)
        if 1 <= k <= CRITERIA_SLOTS:
            name = el.get("name", "NULL")
            slots[k - 1] = name if name in CRITERIA else "NULL"
    return TeamSettings(size=min(max(size, 2), MAX_BOARDS), criteria=tuple(slots))


def write_teams(root: ET.Element, teams: tuple[Team, ...], keys: Mapping[int, str]) -> None:
    """``<Teams>``, after ``<ByePlayers>``, only when the event has teams."""
    if not teams:
        return
    out = ET.SubElement(root, "Teams")
    for team in teams:
        el = ET.SubElement(out, "Team", {"teamName": team.name, "teamNumber": str(team.number)})
        for (r, board), player in sorted(team.boards.items()):
            if player in keys:
                ET.SubElement(
                    el,
                    "Board",
                    {"roundNumber": str(r), "boardNumber": str(board), "player": keys[player]},
                )


def write_team_settings(root: ET.Element, settings: TeamSettings | None) -> None:
    if settings is None:
        return
    ttps = ET.SubElement(root, "TeamTournamentParameterSet")
    ET.SubElement(ttps, "TeamGeneralParameterSet", {"teamSize": str(settings.size)})
    criteria = ET.SubElement(ET.SubElement(ttps, "TeamPlacementParameterSet"), "PlacementCriteria")
    names = list(settings.criteria) + ["NULL"] * (CRITERIA_SLOTS - len(settings.criteria))
    for k, name in enumerate(names[:CRITERIA_SLOTS], 1):
        ET.SubElement(criteria, "PlacementCriterion", {"name": name, "number": str(k)})
