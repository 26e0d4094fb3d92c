"""The tournament as an event in the API: entries and their participation, start, close,
standings, files.  docs/tournaments.md."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games import events, services
from games.api.serializers import TournamentSerializer
from games.models import Player, Presence, Tournament, TournamentEntry
from games.services.event_files import tournament_import
from ops.api import CONFLICT, ERRORS, NOT_FOUND, changes, service_errors, valid
from ops.services import UNSET
from ratings.ranks import Rank

PRESENCE_NAMES = {Presence.PLAY: "play", Presence.ABSENT: "absent", Presence.BYE: "bye"}
PRESENCE_CODES = {name: code for code, name in PRESENCE_NAMES.items()}
ENTRY_FIELDS = ("rank", "rating", "club", "country", "final", "smms_correction")

# --------------------------------------------------------------------------- serializers


class EntryPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    egd_pin = serializers.CharField(allow_null=True)


class EntrySerializer(serializers.ModelSerializer[TournamentEntry]):
    player = EntryPlayerSerializer(read_only=True)
    rank = serializers.SerializerMethodField()
    participation = serializers.SerializerMethodField()

    class Meta:
        model = TournamentEntry
        fields = [
            "id",
            "player",
            "rank",
            "rating",
            "club",
            "country",
            "final",
            "smms_correction",
            "participation",
        ]
        read_only_fields = fields

    def get_rank(self, obj: TournamentEntry) -> str:
        """The rank at entry (frozen once the tournament has started)."""
        return str(Rank(obj.rank))

    def get_participation(self, obj: TournamentEntry) -> list[str]:
        """play, absent or bye for each round from round 1."""
        rounds = obj.tournament.number_of_rounds
        return [PRESENCE_NAMES[Presence(obj.presence(n))] for n in range(1, rounds + 1)]


class EntryWriteSerializer(serializers.Serializer[Any]):
    rank = serializers.CharField(
        max_length=10, required=False, help_text='The rank at entry, such as "3k"; default his.'
    )
    rating = serializers.IntegerField(required=False, allow_null=True)
    club = serializers.CharField(max_length=100, required=False, allow_blank=True)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)
    final = serializers.BooleanField(required=False)
    smms_correction = serializers.IntegerField(min_value=-9, max_value=9, required=False)


class EntryCreateSerializer(EntryWriteSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class PresenceSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=1, max_value=64)
    presence = serializers.ChoiceField(choices=list(PRESENCE_CODES))


class EntryUpdateSerializer(EntryWriteSerializer):
    participation = PresenceSerializer(
        many=True, required=False, help_text="Rounds to change: play, absent or bye."
    )
    withdraw_from = serializers.IntegerField(
        min_value=1, max_value=64, required=False, help_text="Absent from this round on."
    )


class StandingPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    rank = serializers.CharField(help_text="The rank at entry.")
    club = serializers.CharField()
    country = serializers.CharField()


class StandingRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(
        allow_null=True, help_text="Shared by equal players; null: no game or bye yet."
    )
    player = StandingPlayerSerializer()
    values = serializers.DictField(child=serializers.FloatField())


class StandingsSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    criteria = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class StandingsQuerySerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField(min_value=0, max_value=64, required=False)
    criteria = serializers.CharField(max_length=200, required=False)


class ExportQuerySerializer(serializers.Serializer[Any]):
    format = serializers.ChoiceField(choices=list(events.EXPORTS))
    round = serializers.IntegerField(min_value=0, max_value=64, required=False)


class ImportSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="OpenGotha XML or EGF results (.h9).")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ImportResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    players = serializers.IntegerField()
    games = serializers.IntegerField()


def standings_body(standings: events.Standings) -> dict[str, Any]:
    return {
        "round": standings.round,
        "criteria": standings.criteria,
        "rows": [
            {
                "place": row.place,
                "player": {
                    "id": row.player.pk,
                    "family_name": row.player.family_name,
                    "given_name": row.player.given_name,
                    "rank": str(Rank(row.entry.rank)),
                    "club": row.entry.club,
                    "country": row.entry.country,
                },
                "values": row.values,
            }
            for row in standings.rows
        ],
    }


MAX_IMPORT_BYTES = 20_000_000


class FormatIsAFileFormat(DefaultContentNegotiation):
    """``?format=`` names the export's file format here, not DRF's renderer: answer with
    the first renderer (JSON, for errors); the file itself is a plain response."""

    def select_renderer(
        self, request: Any, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, first.media_type


# --------------------------------------------------------------------------- entries


@extend_schema_view(
    list=extend_schema(responses={200: EntrySerializer(many=True), **NOT_FOUND}),
    retrieve=extend_schema(responses={200: EntrySerializer, **NOT_FOUND}),
    create=extend_schema(
        request=EntryCreateSerializer,
        responses={201: EntrySerializer, **ERRORS, **CONFLICT},
        description="A director enters a player, with his rank at entry (default: his "
        "declared rank; rating, club and country default to his own).",
    ),
    partial_update=extend_schema(
        request=EntryUpdateSerializer,
        responses={200: EntrySerializer, **ERRORS, **CONFLICT},
        description="Correct an entry (rank and rating only before the start), change his "
        "participation in some rounds, or withdraw him from a round on.",
    ),
    destroy=extend_schema(
        responses={204: None, **ERRORS, **CONFLICT},
        description="Take back an entry made by mistake (only while he has no game).",
    ),
)
class EntryViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[TournamentEntry],
):
    """A tournament's entries: readable by everyone, changed by its directors."""

    serializer_class = EntrySerializer
    queryset = TournamentEntry.objects.all()  # the schema's id type; filtered per request
    pagination_class = None
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def _tournament(self) -> Tournament:
        pk = self.kwargs["tournament_pk"]
        tournament: Tournament = get_object_or_404(Tournament, pk=pk)
        return tournament

    def get_queryset(self) -> Any:
        return (
            TournamentEntry.objects.filter(tournament_id=self.kwargs["tournament_pk"])
            .select_related("player", "tournament")
            .order_by("player__family_name", "player__given_name", "player_id")
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        self._tournament()  # 404 for a tournament that does not exist
        return super().list(request, *args, **kwargs)

    def create(self, request: Request, tournament_pk: str | None = None) -> Response:
        tournament = self._tournament()
        data = valid(EntryCreateSerializer, request.data)
        kwargs = {k: v for k, v in data.items() if k != "rating"}
        if "rating" in data:
            kwargs["rating"] = data["rating"]
        with service_errors():
            entry = services.entry_add(actor=request.user, tournament=tournament, **kwargs)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    def partial_update(
        self, request: Request, tournament_pk: str | None = None, pk: str | None = None
    ) -> Response:
        entry: TournamentEntry = self.get_object()
        data = valid(EntryUpdateSerializer, request.data)
        with service_errors():
            fields = changes(data, ENTRY_FIELDS)
            if any(v is not UNSET for v in fields.values()):
                entry = services.entry_update(actor=request.user, entry=entry, **fields)
            for item in data.get("participation", []):
                entry = services.entry_participation_set(
                    actor=request.user,
                    entry=entry,
                    round_number=item["round"],
                    presence=PRESENCE_CODES[item["presence"]],
                )
            if "withdraw_from" in data:
                entry = services.entry_withdraw(
                    actor=request.user, entry=entry, from_round=data["withdraw_from"]
                )
        return Response(EntrySerializer(entry).data)

    def destroy(
        self, request: Request, tournament_pk: str | None = None, pk: str | None = None
    ) -> Response:
        entry: TournamentEntry = self.get_object()
        with service_errors():
            services.entry_remove(actor=request.user, entry=entry)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------- lifecycle


class TournamentEventActions(viewsets.GenericViewSet[Tournament]):
    """Start, close, standings and files: actions of ``TournamentViewSet``."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round", int, description="After this round (default: the last round with a game)."
            ),
            OpenApiParameter(
                "criteria",
                str,
                description="Comma-separated placement criteria "
                "such as MMS,SOSM,DC (default: the tournament's).",
            ),
        ],
        responses={200: StandingsSerializer, 400: ERRORS[400], **NOT_FOUND},
        description="The standings after a round, in order: players equal on every criterion "
        "share a place; values are plain numbers (halves as .5).",
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        query = valid(StandingsQuerySerializer, request.query_params.dict())
        names = [c for c in query.get("criteria", "").split(",") if c.strip()]
        try:
            table = events.standings_of(
                tournament, after_round=query.get("round"), criteria=names or None
            )
        except ValueError as e:
            raise exceptions.ValidationError({"criteria": str(e)}) from None
        return Response(standings_body(table))

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=list(events.EXPORTS),
                required=True,
                description="opengotha (XML), egf (.h9 results) or csv (standings).",
            ),
            OpenApiParameter("round", int, description="After this round (egf, csv)."),
        ],
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY, 400: ERRORS[400]},
        description="The tournament as a file for OpenGotha, the EGD or a spreadsheet.",
    )
    @action(
        detail=True,
        methods=["get"],
        pagination_class=None,
        content_negotiation_class=FormatIsAFileFormat,
    )
    def export(self, request: Request, pk: str | None = None) -> HttpResponse:
        tournament = self.get_object()
        query = valid(ExportQuerySerializer, request.query_params.dict())
        fmt = query["format"]
        body = events.export(tournament, fmt, after_round=query.get("round"))
        response = HttpResponse(body, content_type=events.EXPORTS[fmt][0])
        response["Content-Disposition"] = (
            f'attachment; filename="{events.filename(tournament, fmt)}"'
        )
        return response

    @extend_schema(
        request={"multipart/form-data": ImportSerializer},
        responses={201: ImportResultSerializer, **ERRORS},
        description="Import a tournament file as a new tournament (the format is recognised "
        "from its content); a file that cannot be read imports nothing.",
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_file(self, request: Request) -> Response:
        data = valid(
            ImportSerializer, request.data.dict() if hasattr(request.data, "dict") else request.data
        )
        upload = data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise exceptions.ValidationError({"file": "The file is too large."})
        with service_errors():
            result = tournament_import(
                actor=request.user, data=upload.read(), name=data.get("name", "")
            )
        body = {
            "tournament": result.tournament.pk,
            "players": result.players,
            "games": result.games,
        }
        return Response(body, status=status.HTTP_201_CREATED)

    def _event_out(self, tournament: Tournament) -> Response:
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **ERRORS, **CONFLICT},
        description="A director closes the tournament once every game has a final result: "
        "its games then reach the ratings. 409 while a game waits for its result.",
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        with service_errors():
            tournament = services.tournament_close(actor=request.user, tournament=tournament)
        return self._event_out(tournament)

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **ERRORS, **CONFLICT},
        description="A director starts the tournament: entry ranks and ratings are frozen "
        "(pairing round 1 starts it too).",
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        with service_errors():
            tournament = services.tournament_start(actor=request.user, tournament=tournament)
        return self._event_out(tournament)
