"""Pairing a team round: which teams meet, then one game per board.

Which teams meet: by the team standings before the round, the best still unpaired meeting
the best it has not met (a Swiss of teams, as pairgoth pairs teams automatically; OpenGotha
leaves it to the director, who may also name the matches himself), or a round robin of the
teams (Berger tables, strongest first by MNR).  The boards follow OpenGotha 3.51's
``Tournament.pairTeams``: board k meets board k, each game's handicap is the individual
rule's for those two players, board 1's colours come from the board-1 players' White-minus-
Black balances, odd boards copy them and even boards take the opposite, and a handicap game
gives the weaker player Black whatever his team's colour.  docs/tournaments.md, "Team
tournaments".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.tournament.engine.model import Event, Presence, Team, TeamSettings
from games.tournament.engine.pairing.berger import berger_rounds
from games.tournament.engine.pairing.colours import colours
from games.tournament.engine.pairing.pair import PairedGame, PairingError, SignedHandicap
from games.tournament.engine.pairing.params import PairingParams
from games.tournament.engine.pairing.state import PlayerState, round_state
from games.tournament.engine.pairing.weights import HandicapRule, opengotha_handicap
from games.tournament.engine.teams import matches as team_matches
from games.tournament.engine.teams import mean_rating, team_standings


def complete(event: Event, team: Team, size: int, round_number: int) -> bool:
    """OpenGotha's ``isTeamComplete``: every board 1..size holds a final entrant who plays
    the round."""
    by_id = {e.id: e for e in event.entrants}
    for board in range(1, size + 1):
        p = team.member(round_number, board)
        e = by_id.get(p) if p is not None else None
        if e is None or not e.final or e.presence_in(round_number) is not Presence.PLAY:
            return False
    return True


def _met(
    event: Event, teams: Sequence[Team], settings: TeamSettings, before: int
) -> set[frozenset[int]]:
    return {
        frozenset((m.white.number, m.black.number))
        for m in team_matches(event, teams, settings, before)
    }


def swiss_matches(
    event: Event, teams: Sequence[Team], settings: TeamSettings, round_number: int
) -> list[tuple[Team, Team]]:
    """The complete teams in team-standings order, each meeting the best team below it it
    has not met (backtracking when the last ones would have to meet again); an odd team
    out sits out (there is no team bye)."""
    ready = [t for t in teams if complete(event, t, settings.size, round_number)]
    order = {
        row.team.number: n
        for n, row in enumerate(team_standings(event, teams, settings, round_number - 1))
    }
    ready.sort(key=lambda t: order.get(t.number, len(order)))
    met = _met(event, teams, settings, round_number - 1)
    if len(ready) % 2:
        ready = ready[:-1]

    def solve(left: list[Team]) -> list[tuple[Team, Team]] | None:
        if not left:
            return []
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            if frozenset((first.number, other.number)) in met:
                continue
            tail = solve(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(first, other), *tail]
        return None

    found = solve(ready)
    if found is None:  # every pairing repeats a match: the standings order, rematches allowed
        found = [(ready[i], ready[i + 1]) for i in range(0, len(ready), 2)]
    return found


def round_robin_matches(
    event: Event, teams: Sequence[Team], settings: TeamSettings, round_number: int
) -> list[tuple[Team, Team]]:
    """Round ``round_number`` of a round robin of every team, strongest first by MNR."""
    ratings = {e.id: e.rating for e in event.entrants}
    field = sorted(teams, key=lambda t: (-mean_rating(t, settings.size, ratings), t.number))
    schedule = berger_rounds([t.number for t in field])
    if round_number > len(schedule):
        raise PairingError(f"a round robin of {len(field)} teams has {len(schedule)} rounds")
    by_number = {t.number: t for t in teams}
    return [(by_number[a], by_number[b]) for a, b in schedule[round_number - 1]]


def board_games(
    event: Event,
    round_number: int,
    pairs: Sequence[tuple[Team, Team]],
    settings: TeamSettings,
    *,
    handicap: SignedHandicap | None = None,
) -> list[PairedGame]:
    """One game per board of each match, tables numbered match by match, board 1 first."""
    params = PairingParams.from_opengotha(event.pairing, event.settings.system)
    players = [
        p
        for a, b in pairs
        for team in (a, b)
        for board in range(1, settings.size + 1)
        if (p := team.member(round_number, board)) is not None
    ]
    st = round_state(event, round_number, params, extra=players)
    rule: HandicapRule
    if handicap is None:
        rule = opengotha_handicap(event.settings)
    else:
        policy = handicap

        def rule(x: PlayerState, y: PlayerState) -> int:
            return policy(x.entrant, y.entrant)

    games: list[PairedGame] = []
    for team_a, team_b in pairs:
        a_white_on_1: bool | None = None
        for board in range(1, settings.size + 1):
            a, b = team_a.member(round_number, board), team_b.member(round_number, board)
            if a is None or b is None:
                raise PairingError(f"board {board} of {team_a.name} or {team_b.name} is empty")
            pa, pb = st.players[a], st.players[b]
            col = colours(a, b, rule(pa, pb), pa.wb, pb.wb, pa.det_name, pb.det_name)
            if board == 1:
                a_white_on_1 = col.white == a
            elif col.handicap == 0 and a_white_on_1 is not None:
                a_white = a_white_on_1 if board % 2 else not a_white_on_1
                col = replace(col, white=a if a_white else b, black=b if a_white else a)
            games.append(
                PairedGame(
                    table=len(games) + 1,
                    black=col.black,
                    white=col.white,
                    handicap=col.handicap,
                    costs={},
                    reasons=(),
                )
            )
    return games


__all__ = ["board_games", "complete", "round_robin_matches", "swiss_matches"]
