"""Teams of a team tournament: kept from an imported file, and made and lined up by a
director.  docs/tournaments.md, "Team tournaments"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import Game, Player, Team, TeamBoard, Tournament
from games.models.teams import MAX_BOARDS, MAX_TEAM_ROUNDS
from games.tournament.engine.model import Event, System, TeamSettings
from games.tournament.engine.model import Team as EngineTeam
from games.tournament.engine.pairing.pair import PairedGame, PairingError
from games.tournament.engine.pairing.teams import (
    board_games,
    complete,
    round_robin_matches,
    swiss_matches,
)
from games.tournament.engine.teams import CRITERIA, CRITERIA_SLOTS, DEFAULT_CRITERIA
from games.tournament.selectors import event_of
from games.tournament.services.entries import check_open
from games.tournament.services.rounds import handicap_rule, round_games_set
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, require


def _free_name(name: str, taken: set[str]) -> str:
    """OpenGotha's rule for a clash: ``_2``, ``_3``, ... appended."""
    name = (name.strip() or "Unnamed team")[:90]
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    taken.add(candidate)
    return candidate


def teams_import(tournament: Tournament, event: Event, players: Mapping[int, Player]) -> int:
    """Write a file's teams and team parameters for the tournament just imported (the
    caller's transaction).  A clashing name or number is made distinct and a player put in
    two teams of one round keeps the first: a file is never refused for its teams."""
    s = event.team_settings
    if s is None and event.teams:  # OpenGotha's reading: team size 4, six NULL criteria
        s = TeamSettings(size=4, criteria=("NULL",) * CRITERIA_SLOTS)
    if s is not None:
        tournament.team_params = {"size": s.size, "criteria": list(s.criteria)}
        tournament.save(update_fields=["team_params"])
    if not event.teams:
        return 0
    names: set[str] = set()
    numbers: set[int] = set()
    made = []
    for t in event.teams:
        number = t.number if t.number >= 1 and t.number not in numbers else 0
        if not number:
            number = max(numbers, default=0) + 1
        numbers.add(number)
        made.append(Team(tournament=tournament, number=number, name=_free_name(t.name, names)))
    Team.objects.bulk_create(made)
    seen: set[tuple[int, int]] = set()
    boards = []
    for team, t in zip(made, event.teams, strict=True):
        for (r, board), entrant in sorted(t.boards.items()):
            player = players.get(entrant)
            if player is None or (r, player.pk) in seen:
                continue
            seen.add((r, player.pk))
            boards.append(
                TeamBoard(team=team, tournament=tournament, round=r, board=board, player=player)
            )
    TeamBoard.objects.bulk_create(boards, batch_size=1000)
    return len(made)


def _params(tournament: Tournament) -> dict[str, Any]:
    """The team parameters as stored now (the caller's object may predate a change)."""
    stored = Tournament.objects.values_list("team_params", flat=True).get(pk=tournament.pk)
    return dict(stored or {})


def _check(actor: Actor, tournament: Tournament) -> None:
    require(permissions.is_director(actor, tournament), "Only its directors can change its teams.")
    check_open(tournament, "This tournament is closed: its teams cannot change.")


@transaction.atomic
def team_params_set(
    *, actor: Actor, tournament: Tournament, size: int, criteria: Sequence[str] | None = None
) -> Tournament:
    """Make the tournament a team event of ``size`` boards (2 to 10) placed by ``criteria``
    (OpenGotha's long names, at most six; default TEAMP, BDW, BDW3U, BDW2U, BDW1U, MNR)."""
    _check(actor, tournament)
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= MAX_BOARDS:
        raise ValidationError({"size": f"A team has 2 to {MAX_BOARDS} boards."})
    names = list(DEFAULT_CRITERIA if criteria is None else criteria)
    unknown = [c for c in names if c not in CRITERIA]
    if unknown or len(names) > CRITERIA_SLOTS:
        raise ValidationError(
            {"criteria": f"At most {CRITERIA_SLOTS} of {', '.join(CRITERIA)}; not {unknown}."}
        )
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    old = dict(locked.team_params or {})
    new = {"size": size, "criteria": names + ["NULL"] * (CRITERIA_SLOTS - len(names))}
    if old == new:
        return tournament
    locked.team_params = tournament.team_params = new
    locked.save(update_fields=["team_params"])
    audit_record(
        actor=actor, action=AuditAction.TOURNAMENT_TEAMS_SET, obj=tournament, old=old, new=new
    )
    return tournament


@transaction.atomic
def team_create(
    *, actor: Actor, tournament: Tournament, name: str, members: Sequence[Player]
) -> Team:
    """A new team with ``members`` on boards 1.. in that order, for every round (a line-up
    can then change round by round)."""
    _check(actor, tournament)
    params = _params(tournament)
    if not params:
        raise ValidationError({"name": "Set the team size first: this is not a team event."})
    size = int(params.get("size", 4))
    if len(members) > size:
        raise ValidationError({"members": f"A team of this event has {size} boards."})
    entered = set(tournament.entries.values_list("player_id", flat=True))
    strangers = [str(p) for p in members if p.pk not in entered]
    if strangers:
        raise ValidationError(
            {"members": f"Not entered in this tournament: {', '.join(strangers)}."}
        )
    taken = set(
        TeamBoard.objects.filter(tournament=tournament, player__in=members).values_list(
            "player_id", flat=True
        )
    )
    if taken:
        raise ValidationError({"members": "A player is already in another team."})
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A team has a name."})
    if tournament.teams.filter(name=name).exists():
        raise ValidationError({"name": "Another team has this name."})
    number = (
        tournament.teams.order_by("-number").values_list("number", flat=True).first() or 0
    ) + 1
    team = Team.objects.create(tournament=tournament, number=number, name=name)
    rounds = min(max(tournament.number_of_rounds, 1), MAX_TEAM_ROUNDS)
    TeamBoard.objects.bulk_create(
        TeamBoard(team=team, tournament=tournament, round=r, board=b, player=p)
        for r in range(1, rounds + 1)
        for b, p in enumerate(members, 1)
    )
    audit_record(
        actor=actor,
        action=AuditAction.TEAM_CREATED,
        obj=team,
        new={"name": name, "number": number, "members": [p.pk for p in members]},
    )
    return team


@dataclass(frozen=True)
class TeamRound:
    round: int
    matches: list[tuple[Team, Team]]  # goref's teams, the better placed first
    games: list[PairedGame]  # every board's game, tables numbered match by match
    created: list[Game]


def _pairs(
    event: Event, tournament: Tournament, number: int, chosen: Sequence[tuple[int, int]] | None
) -> list[tuple[EngineTeam, EngineTeam]]:
    assert event.team_settings is not None
    settings, by_number = event.team_settings, {t.number: t for t in event.teams}
    if chosen is None:
        if tournament.system == System.ROUND_ROBIN:
            return round_robin_matches(event, event.teams, settings, number)
        return swiss_matches(event, event.teams, settings, number)
    seen: set[int] = set()
    pairs = []
    for a, b in chosen:
        for n in (a, b):
            if n not in by_number:
                raise ValidationError({"matches": f"There is no team number {n}."})
            if n in seen:
                raise ValidationError({"matches": f"Team {n} is in two matches."})
            if not complete(event, by_number[n], settings.size, number):
                raise ValidationError(
                    {"matches": f"Team {by_number[n].name} has no full line-up for round {number}."}
                )
            seen.add(n)
        pairs.append((by_number[a], by_number[b]))
    return pairs


def round_pair_teams(
    *,
    actor: Actor,
    tournament: Tournament,
    round_number: int,
    matches: Sequence[tuple[int, int]] | None = None,
    dry_run: bool = False,
    accept_unfinished: bool = False,
) -> TeamRound:
    """Pair round ``round_number`` of a team event: ``matches`` as (team number, team
    number) pairs, or chosen by the rule (a Swiss of the teams by their standings, or a round
    robin), then one game per board written like any round (``round_games_set``)."""
    require(permissions.is_director(actor, tournament), "Only its directors can pair a round.")
    check_open(tournament, "This tournament is closed: no more rounds can be paired.")
    if not _params(tournament):
        raise ValidationError({"round": "This tournament is not a team event."})
    data = event_of(tournament)
    event = replace(data.event, games=tuple(g for g in data.event.games if g.round != round_number))
    try:
        pairs = _pairs(event, tournament, round_number, matches)
        assert event.team_settings is not None
        games = board_games(
            event,
            round_number,
            pairs,
            event.team_settings,
            handicap=handicap_rule(
                tournament,
                data.players,
                {pid: (e.rank, e.rating) for pid, e in data.entries.items()},
            ),
        )
    except PairingError as error:
        raise ValidationError({"matches": str(error)}) from None
    db = {t.number: t for t in tournament.teams.all()}
    found = [(db[a.number], db[b.number]) for a, b in pairs]
    created: list[Game] = []
    if not dry_run:
        created = round_games_set(
            actor=actor,
            tournament=tournament,
            round_number=round_number,
            games=[(g.black, g.white, g.handicap) for g in games],
            accept_unfinished=accept_unfinished,
        )
    return TeamRound(round_number, found, games, created)


@transaction.atomic
def team_lineup_set(
    *, actor: Actor, team: Team, round_number: int, members: Sequence[Player]
) -> Team:
    """Team ``team``'s line-up from round ``round_number`` on: ``members`` on boards 1.. in
    that order (a director's board order by rank or rating, or a substitute)."""
    tournament = team.tournament
    _check(actor, tournament)
    size = int(_params(tournament).get("size", 4))
    if not 1 <= round_number <= MAX_TEAM_ROUNDS:
        raise ValidationError({"round": f"A round from 1 to {MAX_TEAM_ROUNDS}."})
    if len(members) > size or len({p.pk for p in members}) != len(members):
        raise ValidationError({"members": f"At most {size} different players, board 1 first."})
    entered = set(tournament.entries.values_list("player_id", flat=True))
    if any(p.pk not in entered for p in members):
        raise ValidationError({"members": "Every member is entered in this tournament."})
    rounds = range(round_number, MAX_TEAM_ROUNDS + 1)
    elsewhere = TeamBoard.objects.filter(
        tournament=tournament, round__in=rounds, player__in=members
    ).exclude(team=team)
    if elsewhere.exists():
        raise ValidationError({"members": "A player is in another team in these rounds."})
    slots = TeamBoard.objects.filter(team=team, round__in=rounds)
    old = sorted(slots.filter(round=round_number).values_list("board", "player_id"))
    slots.delete()
    TeamBoard.objects.bulk_create(
        TeamBoard(team=team, tournament=tournament, round=r, board=b, player=p)
        for r in rounds
        for b, p in enumerate(members, 1)
    )
    audit_record(
        actor=actor,
        action=AuditAction.TEAM_LINEUP_SET,
        obj=team,
        old={"round": round_number, "boards": [p for _b, p in old]},
        new={"round": round_number, "boards": [p.pk for p in members]},
    )
    return team
