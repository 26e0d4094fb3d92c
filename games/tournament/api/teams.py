"""``/api/v1/tournaments/{id}/teams/``: a team event's teams and line-ups, its team
parameters, and pairing a team round, through ``games.tournament.services.teams``.
The team standings are ``/tournaments/{id}/team-standings/``."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Player, Team, Tournament
from games.tournament.engine.teams import CRITERIA
from games.tournament.services import teams as services
from games.tournament.services.pairs import pair_enter
from ops.api import CONFLICT, ERRORS, service_errors, valid

ROUND = OpenApiParameter("round_number", int, OpenApiParameter.PATH, description="Round, from 1.")


class TeamSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    lineups = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Round -> player ids, board 1 first.",
    )


class TeamCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=90)
    members = serializers.ListField(
        child=serializers.IntegerField(), max_length=10, help_text="Player ids, board 1 first."
    )


class TeamParamsSerializer(serializers.Serializer[Any]):
    size = serializers.IntegerField(min_value=2, max_value=10, help_text="Boards per team.")
    criteria = serializers.ListField(
        child=serializers.ChoiceField(choices=list(CRITERIA)),
        max_length=6,
        required=False,
        help_text="OpenGotha's team placement criteria, in order.",
    )


class LineupSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=1, max_value=20, help_text="From this round on.")
    members = serializers.ListField(child=serializers.IntegerField(), max_length=10)


class TeamPairingRequestSerializer(serializers.Serializer[Any]):
    matches = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        required=False,
        max_length=200,
        help_text="Pairs of team numbers. Left out: a Swiss of the teams by their standings "
        "(a round robin for a round-robin event).",
    )
    dry_run = serializers.BooleanField(default=False)
    accept_unfinished = serializers.BooleanField(default=False)


def _team(team: Team) -> dict[str, Any]:
    lineups: dict[str, list[int]] = {}
    for board in team.boards.order_by("round", "board"):
        lineups.setdefault(str(board.round), []).append(board.player_id)
    return {"id": team.pk, "number": team.number, "name": team.name, "lineups": lineups}


def _players(tournament: Tournament, ids: list[int]) -> list[Player]:
    found = {p.pk: p for p in Player.objects.filter(pk__in=ids, entries__tournament=tournament)}
    if len(found) != len(set(ids)):
        raise serializers.ValidationError(
            {"members": "Every member is entered in this tournament."}
        )
    return [found[i] for i in ids]


class TeamsView(APIView):
    """A team event's teams with their line-ups; a director adds a team."""

    @extend_schema(
        operation_id="tournaments_teams_list", responses={200: TeamSerializer(many=True)}
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        teams = tournament.teams.prefetch_related("boards").order_by("number")
        return Response([_team(t) for t in teams])

    @extend_schema(
        operation_id="tournaments_teams_create",
        request=TeamCreateSerializer,
        responses={201: TeamSerializer, **ERRORS, **CONFLICT},
        description="A new team, its members on boards 1.. for every round.",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(TeamCreateSerializer, request.data)
        with service_errors():
            team = services.team_create(
                actor=request.user,
                tournament=tournament,
                name=data["name"],
                members=_players(tournament, data["members"]),
            )
        return Response(_team(team), status=status.HTTP_201_CREATED)


class TeamParamsView(APIView):
    """Make a tournament a team event: its team size and team placement criteria."""

    @extend_schema(
        operation_id="tournaments_team_params_set",
        request=TeamParamsSerializer,
        responses={200: TeamParamsSerializer, **ERRORS, **CONFLICT},
    )
    def put(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(TeamParamsSerializer, request.data)
        with service_errors():
            tournament = services.team_params_set(
                actor=request.user,
                tournament=tournament,
                size=data["size"],
                criteria=data.get("criteria"),
            )
        return Response(tournament.team_params)


class TeamLineupView(APIView):
    """A team's line-up from a round on (board order, substitutes)."""

    @extend_schema(
        operation_id="tournaments_teams_lineup",
        request=LineupSerializer,
        responses={200: TeamSerializer, **ERRORS, **CONFLICT},
        parameters=[
            OpenApiParameter("team_pk", int, OpenApiParameter.PATH, description="Team id.")
        ],
    )
    def put(self, request: Request, pk: int, team_pk: int) -> Response:
        team = get_object_or_404(
            Team.objects.select_related("tournament"), pk=team_pk, tournament_id=pk
        )
        data = valid(LineupSerializer, request.data)
        with service_errors():
            team = services.team_lineup_set(
                actor=request.user,
                team=team,
                round_number=data["round"],
                members=_players(team.tournament, data["members"]),
            )
        return Response(_team(team))


class TeamPairingView(APIView):
    """Pair a team round: the matches, then one game per board."""

    @extend_schema(
        operation_id="tournaments_round_team_pairing",
        parameters=[ROUND],
        request=TeamPairingRequestSerializer,
        responses={200: None, 201: None, **ERRORS, **CONFLICT},
        description="A director pairs round R of a team event: the matches he names, or a "
        "Swiss of the teams by their standings (a round robin of teams for a round-robin "
        "event); board k meets board k with OpenGotha's colours and each board's "
        "handicap. dry_run answers without writing (200); otherwise 201.",
    )
    def post(self, request: Request, pk: int, round_number: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(TeamPairingRequestSerializer, request.data)
        with service_errors():
            result = services.round_pair_teams(
                actor=request.user,
                tournament=tournament,
                round_number=round_number,
                matches=[tuple(m) for m in data["matches"]] if "matches" in data else None,
                dry_run=data["dry_run"],
                accept_unfinished=data["accept_unfinished"],
            )
        return Response(
            {
                "round": result.round,
                "matches": [
                    {"teams": [a.number, b.number], "names": [a.name, b.name]}
                    for a, b in result.matches
                ],
                "games": [
                    {"table": g.table, "black": g.black, "white": g.white, "handicap": g.handicap}
                    for g in result.games
                ],
            },
            status=status.HTTP_200_OK if data["dry_run"] else status.HTTP_201_CREATED,
        )


class PairEntrySerializer(serializers.Serializer[Any]):
    members = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=4,
        help_text="Player ids in playing order: a pair, or a rengo team of up to four.",
    )
    rule = serializers.ChoiceField(
        choices=["average", "strongest", "weakest"],
        default="average",
        help_text="The pair's rank from its members': their average (default), or the "
        "strongest or weakest member's.",
    )


class PairEntryView(APIView):
    """Enter a pair go pair or rengo team as one player."""

    @extend_schema(
        operation_id="tournaments_entries_pair",
        request=PairEntrySerializer,
        responses={201: None, **ERRORS, **CONFLICT},
        description="The pair (or rengo team) plays as one entrant: paired, handicapped and "
        "placed like a player, its games never rated.",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(PairEntrySerializer, request.data)
        found = {p.pk: p for p in Player.objects.filter(pk__in=data["members"], is_pair=False)}
        if len(found) != len(set(data["members"])):
            raise serializers.ValidationError({"members": "Every member is a known player."})
        with service_errors():
            entry = pair_enter(
                actor=request.user,
                tournament=tournament,
                members=[found[i] for i in data["members"]],
                rule=data["rule"],
            )
        return Response(
            {
                "entry": entry.pk,
                "player": entry.player_id,
                "name": str(entry.player),
                "rank": entry.rank,
            },
            status=status.HTTP_201_CREATED,
        )
