"""``/api/v1/tournaments/{id}/rounds/{R}/tables/``: the round's tables (GET) and moving
them (POST) through ``games.tournament.services.tables``; a player's pin is the entry's
``table_pin`` (``/entries/{id}/table-pin/``)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import permissions
from games.models import Game, Tournament, TournamentEntry
from games.tournament.services import tables
from ops.api import CONFLICT, ERRORS, service_errors, valid

ROUND = OpenApiParameter("round_number", int, OpenApiParameter.PATH, description="Round, from 1.")


class TablesMoveSerializer(serializers.Serializer[Any]):
    """Exactly one of the moves."""

    game = serializers.IntegerField(required=False, help_text="With table: the game to move.")
    table = serializers.IntegerField(
        required=False, help_text="With game: its new table (a game there takes its old one)."
    )
    swap = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        min_length=2,
        max_length=2,
        help_text="Two table numbers whose games exchange tables.",
    )
    shift = serializers.IntegerField(
        required=False, help_text="Move every table by this many (100: a second room from 101)."
    )
    renumber = serializers.ChoiceField(
        choices=["score", "rating"],
        required=False,
        help_text="Renumber from table 1 by the better player's score then rating, or rating.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        kinds = [k for k in ("game", "swap", "shift", "renumber") if k in attrs]
        if len(kinds) != 1 or (("game" in attrs) != ("table" in attrs)):
            raise serializers.ValidationError(
                "Send one move: game and table, swap, shift or renumber."
            )
        return attrs


class TableRowSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    black = serializers.IntegerField()
    white = serializers.IntegerField()


class TablesSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    moved = serializers.IntegerField(required=False)
    games = TableRowSerializer(many=True)


def _tables(tournament: Tournament, number: int) -> list[dict[str, Any]]:
    rows = Game.objects.filter(tournament=tournament, round__number=number).order_by("table", "id")
    return [
        {"game": pk, "table": table, "black": black, "white": white}
        for pk, table, black, white in rows.values_list("pk", "table", "black_id", "white_id")
    ]


class RoundTablesView(APIView):
    """Where each game of a round is played, and moving tables after the pairing."""

    @extend_schema(
        operation_id="tournaments_round_tables_list",
        parameters=[ROUND],
        responses={200: TablesSerializer, **ERRORS},
    )
    def get(self, request: Request, pk: int, round_number: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        return Response({"round": round_number, "games": _tables(tournament, round_number)})

    @extend_schema(
        operation_id="tournaments_round_tables_move",
        parameters=[ROUND],
        request=TablesMoveSerializer,
        responses={200: TablesSerializer, **ERRORS, **CONFLICT},
        description="A director moves tables of round R: one game to a table (a game "
        "there takes its old table), two tables swapped, every table shifted, or the "
        "round renumbered by score or rating (pinned players keep their tables). Who "
        "plays whom, colours, handicaps and results never change.",
    )
    def post(self, request: Request, pk: int, round_number: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(TablesMoveSerializer, request.data)
        actor, number = request.user, round_number
        with service_errors():
            if "game" in data:
                n = tables.round_table_set(
                    actor=actor,
                    tournament=tournament,
                    round_number=number,
                    game_id=data["game"],
                    table=data["table"],
                )
            elif "swap" in data:
                a, b = data["swap"]
                n = tables.round_tables_swap(
                    actor=actor, tournament=tournament, round_number=number, a=a, b=b
                )
            elif "shift" in data:
                n = tables.round_tables_shift(
                    actor=actor, tournament=tournament, round_number=number, by=data["shift"]
                )
            else:
                n = tables.round_tables_renumber(
                    actor=actor, tournament=tournament, round_number=number, by=data["renumber"]
                )
        return Response(
            {"round": round_number, "moved": n, "games": _tables(tournament, round_number)}
        )


class TablePinSerializer(serializers.Serializer[Any]):
    table_pin = serializers.IntegerField(
        allow_null=True, help_text="The table he plays at in every round; null: none."
    )


class EntryTablePinView(APIView):
    """Pin a player to one table for the whole event (a wheelchair, a streamed board)."""

    @extend_schema(
        operation_id="tournaments_entries_table_pin",
        request=TablePinSerializer,
        responses={200: TablePinSerializer, **ERRORS, **CONFLICT},
        parameters=[
            OpenApiParameter("entry_pk", int, OpenApiParameter.PATH, description="Entry id.")
        ],
    )
    def put(self, request: Request, pk: int, entry_pk: int) -> Response:
        entry = get_object_or_404(
            TournamentEntry.objects.select_related("tournament", "player"),
            pk=entry_pk,
            tournament_id=pk,
        )
        if not permissions.is_director(request.user, entry.tournament):
            # Another event's entry is not his to know about.
            get_object_or_404(TournamentEntry.objects.none())
        data = valid(TablePinSerializer, request.data)
        with service_errors():
            entry = tables.entry_table_pin(actor=request.user, entry=entry, table=data["table_pin"])
        return Response({"table_pin": entry.table_pin})
