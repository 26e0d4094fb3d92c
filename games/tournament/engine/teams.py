"""Team tournaments as OpenGotha 3.51 runs them: a team layer over an individual event.

Players, games and byes stay individual; a team is a name, a number and a line-up per
round (board -> player).  Matches are found through board 1, boards are scored in
half-points (wx2), a match gives 2, 1 or 0 team points, and the teams are placed by
OpenGotha's six team criteria (``TeamPlacementParameterSet``).  docs/tournaments.md,
"Team tournaments", names each rule and where OpenGotha has it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.tournament.engine.model import (
    DEFAULT_TEAM_CRITERIA,
    Event,
    GameRec,
    Team,
    TeamSettings,
)

MAX_BOARDS = 10  # OpenGotha's MAX_NUMBER_OF_MEMBERS_BY_TEAM
MAX_TEAM_ROUNDS = 20  # OpenGotha's line-up grid: 20 rounds
CRITERIA_SLOTS = 6
DEFAULT_CRITERIA = DEFAULT_TEAM_CRITERIA
# OpenGotha's long names, and the coefficient the shown value is divided by.
COEF = {"NULL": 1, "TEAMP": 1, "SOST": 1, "BDW": 2, "MNR": 1} | {
    f"BDW{k}U": 2 for k in range(1, 10)
}
CRITERIA = tuple(COEF)


@dataclass(frozen=True)
class Match:
    round: int
    white: Team  # the team whose board-1 player has White
    black: Team
    white_boards: tuple[int, ...]  # wx2 per board, board 1 first
    black_boards: tuple[int, ...]
    size: int

    def wx2(self, team: Team) -> int:
        return sum(self.white_boards if team is self.white else self.black_boards)

    def opponent(self, team: Team) -> Team:
        return self.black if team is self.white else self.white

    def team_points(self, team: Team) -> int:
        """2, 1 or 0: more than the opponent's and more than half the boards."""
        threshold = max(self.size, self.wx2(self.opponent(team)))
        mine = self.wx2(team)
        return 2 if mine > threshold else 1 if mine == threshold else 0


@dataclass(frozen=True)
class TeamRow:
    team: Team
    place: int  # shared by teams equal on every criterion
    values: dict[str, int]  # stored values: BDW and BDWkU in half-points


def _wx2(game: GameRec, player: int) -> int:
    """A player's half-points from a game (``GameRec.points2``: forfeits count as played,
    both win 2 each); 0 if he is not in it."""
    return game.points2(player) if player in (game.black, game.white) else 0


class _Games:
    def __init__(self, games: Sequence[GameRec]) -> None:
        self.of: dict[tuple[int, int], GameRec] = {}
        for g in games:
            self.of.setdefault((g.round, g.black), g)
            self.of.setdefault((g.round, g.white), g)

    def game(self, round_number: int, player: int | None) -> GameRec | None:
        return None if player is None else self.of.get((round_number, player))


def _team_of(teams: Sequence[Team], player: int, round_number: int) -> Team | None:
    for team in teams:
        for board in range(1, MAX_BOARDS + 1):
            if team.member(round_number, board) == player:
                return team
    return None


def _build(games: _Games, r: int, team1: Team, team2: Team, size: int) -> Match | None:
    first = team1.member(r, 1)
    game = games.game(r, first)
    if game is None:
        return None
    white, black = (team1, team2) if game.white == first else (team2, team1)
    w, b = [0] * MAX_BOARDS, [0] * MAX_BOARDS
    for board in range(1, MAX_BOARDS + 1):
        wp, bp = white.member(r, board), black.member(r, board)
        if wp is None or bp is None:
            continue
        g = games.game(r, wp)
        if g is None:
            continue
        w[board - 1], b[board - 1] = _wx2(g, wp), _wx2(g, bp)
    return Match(r, white, black, tuple(w), tuple(b), size)


def matches(event: Event, teams: Sequence[Team], settings: TeamSettings, up_to: int) -> list[Match]:
    """The matches of rounds 1..``up_to``, found through board 1 as OpenGotha's
    ``matchesListUpTo`` does: each once, from the team whose name sorts first."""
    games = _Games(event.games)
    found = []
    for team in teams:
        for r in range(1, up_to + 1):
            first = team.member(r, 1)
            game = games.game(r, first)
            if first is None or game is None:
                continue
            other = _team_of(teams, game.black if game.white == first else game.white, r)
            if other is None or not team.name < other.name:
                continue
            match = _build(games, r, team, other, settings.size)
            if match is not None:
                found.append(match)
    return found


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def mean_rating(team: Team, size: int, ratings: Mapping[int, int]) -> int:
    """MNR: the round-1 line-up's ratings summed over ``size`` boards (an empty board adds
    0), divided as Java's integer division does."""
    total = sum(
        ratings.get(p, 0)
        for board in range(1, MAX_BOARDS + 1)
        if (p := team.member(1, board)) is not None
    )
    return _trunc_div(total, max(size, 1))


def team_standings(
    event: Event, teams: Sequence[Team], settings: TeamSettings, after_round: int
) -> list[TeamRow]:
    """The teams in order after ``after_round`` by the settings' criteria, then by team
    number; a team shares the place above when every criterion is equal."""
    size = settings.size
    found = matches(event, teams, settings, after_round)
    index = {id(t): i for i, t in enumerate(teams)}
    points = [0] * len(teams)
    by_board = [[0] * MAX_BOARDS for _ in teams]
    for m in found:
        for team, boards in ((m.white, m.white_boards), (m.black, m.black_boards)):
            i = index[id(team)]
            points[i] += m.team_points(team)
            for b in range(size):
                by_board[i][b] += boards[b]
    sost = [0] * len(teams)
    for m in found:
        sost[index[id(m.white)]] += points[index[id(m.black)]]
        sost[index[id(m.black)]] += points[index[id(m.white)]]
    ratings = {e.id: e.rating for e in event.entrants}
    criteria = tuple(settings.criteria) + ("NULL",) * (CRITERIA_SLOTS - len(settings.criteria))

    def value(i: int, name: str) -> int:
        if name == "TEAMP":
            return points[i]
        if name == "SOST":
            return sost[i]
        if name == "BDW":
            return sum(by_board[i][:size])
        if name.startswith("BDW") and name.endswith("U"):
            return sum(by_board[i][: min(int(name[3:-1]), size)])
        if name == "MNR":
            return mean_rating(teams[i], size, ratings)
        return 0

    scored = [
        (tuple(value(i, c) for c in criteria[:CRITERIA_SLOTS]), team)
        for i, team in enumerate(teams)
    ]
    scored.sort(key=lambda item: (tuple(-v for v in item[0]), item[1].number))
    rows: list[TeamRow] = []
    for n, (values, team) in enumerate(scored):
        place = rows[-1].place if rows and scored[n - 1][0] == values else n + 1
        named = {c: v for c, v in zip(criteria, values, strict=True) if c != "NULL"}
        rows.append(TeamRow(team, place, named))
    return rows


__all__ = [
    "COEF",
    "CRITERIA",
    "DEFAULT_CRITERIA",
    "MAX_BOARDS",
    "Match",
    "Team",
    "TeamRow",
    "TeamSettings",
    "matches",
    "mean_rating",
    "team_standings",
]
