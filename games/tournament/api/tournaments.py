"""``/api/v1/tournaments/``: tournaments and their settings; start, close, standings,
files and re-scoring.  docs/tournaments.md."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors
from games.models import Tournament
from games.services.scoring import tournament_rescore
from games.tournament import selectors as day_selectors
from games.tournament import services as tournament_services
from games.tournament.api.fields import (
    SETTINGS_API_FIELDS,
    SETTINGS_RENAME,
    settings_from_api,
)
from games.tournament.api.serializers import (
    ExportQuerySerializer,
    ImportResultSerializer,
    ImportSerializer,
    StandingsQuerySerializer,
    StandingsSerializer,
    TeamStandingsSerializer,
    TournamentSerializer,
    TournamentWriteSerializer,
)
from games.tournament.engine.formats.opengotha import ExportRefused
from games.tournament.services.files import tournament_import
from games.tournament.services.tournaments import TOURNAMENT_FIELDS
from ops.api import CONFLICT, ERRORS, NOT_FOUND, JobSerializer, changes, service_errors, valid
from ratings.ranks import Rank


def standings_body(standings: day_selectors.Standings) -> dict[str, Any]:
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


@extend_schema_view(
    list=extend_schema(responses={200: TournamentSerializer(many=True)}),
    retrieve=extend_schema(responses={200: TournamentSerializer, **NOT_FOUND}),
    create=extend_schema(
        request=TournamentWriteSerializer, responses={201: TournamentSerializer, **ERRORS}
    ),
    partial_update=extend_schema(
        request=TournamentWriteSerializer(partial=True),
        responses={200: TournamentSerializer, **ERRORS},
    ),
)
class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Tournament],
):
    """Tournaments: readable by everyone; staff (or ``games.add_tournament``) create them,
    their directors edit them."""

    serializer_class = TournamentSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> Any:
        return selectors.tournament_list()

    def create(self, request: Request) -> Response:
        data = valid(TournamentWriteSerializer, request.data)
        settings = settings_from_api({k: data.pop(k) for k in SETTINGS_API_FIELDS if k in data})
        with service_errors(rename=SETTINGS_RENAME):
            tournament = tournament_services.tournament_create(
                actor=request.user, settings=settings, **data
            )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        data = valid(TournamentWriteSerializer, request.data, partial=True)
        settings = settings_from_api({k: data[k] for k in SETTINGS_API_FIELDS if k in data})
        with service_errors(rename=SETTINGS_RENAME):
            tournament = tournament_services.tournament_update(
                actor=request.user,
                tournament=tournament,
                settings=settings,
                **changes(data, TOURNAMENT_FIELDS),
            )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=None,
        responses={202: JobSerializer, **ERRORS},
        description="A director re-scores every game of the tournament that has a record "
        "(games already scored from the same record and result are kept). Answers 202 with "
        "the job; follow its url for progress.",
    )
    @action(detail=True, methods=["post"])
    def rescore(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        with service_errors():
            job = tournament_rescore(actor=request.user, tournament=tournament)
        data = JobSerializer(job, context={"request": request}).data
        return Response(data, status=status.HTTP_202_ACCEPTED)

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
            table = day_selectors.standings_of(
                tournament, after_round=query.get("round"), criteria=names or None
            )
        except ValueError as e:
            raise exceptions.ValidationError({"criteria": str(e)}) from None
        return Response(standings_body(table))

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round", int, description="After this round (default: the last round with a game)."
            ),
        ],
        responses={200: TeamStandingsSerializer, 400: ERRORS[400], **NOT_FOUND},
        description="A team event's team standings after a round, by its team placement "
        "criteria (OpenGotha's names: TEAMP, SOST, BDW, BDW1U..BDW9U, MNR); teams equal on "
        "every criterion share a place; board wins with halves as .5. 400 for an event "
        "without teams.",
    )
    @action(detail=True, methods=["get"], pagination_class=None, url_path="team-standings")
    def team_standings(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        query = valid(StandingsQuerySerializer, request.query_params.dict())
        try:
            table = day_selectors.team_standings_of(tournament, after_round=query.get("round"))
        except ValueError as e:
            raise exceptions.ValidationError({"non_field_errors": [str(e)]}) from None
        return Response(
            {
                "round": table.round,
                "criteria": table.criteria,
                "rows": [
                    {
                        "place": row.place,
                        "team": {"id": row.team.pk, "name": row.team.name},
                        "values": row.values,
                    }
                    for row in table.rows
                ],
            }
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=list(day_selectors.EXPORTS),
                required=True,
                description="opengotha (XML), egf (.h9 results), csv (standings), ffg (.tou "
                "results) or aga (AGA results).",
            ),
            OpenApiParameter(
                "round",
                int,
                description="After this round (egf, csv; ffg and aga hold every round).",
            ),
        ],
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY, 400: ERRORS[400]},
        description="The tournament as a file for OpenGotha, the EGD, the FFG, the AGA or a "
        "spreadsheet. OpenGotha holds at most 20 rounds: a longer tournament's OpenGotha "
        "file is a 400 naming the formats that hold it.",
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
        try:
            body = day_selectors.export(tournament, fmt, after_round=query.get("round"))
        except ExportRefused as refusal:
            raise exceptions.ValidationError({"format": [str(refusal)]}) from None
        response = HttpResponse(body, content_type=day_selectors.EXPORTS[fmt][0])
        response["Content-Disposition"] = (
            f'attachment; filename="{day_selectors.filename(tournament, fmt)}"'
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
            "linked": result.linked,
            "created": result.new_players,
            "review": result.review,
            "review_url": result.review_url,
            "held": result.held,
        }
        return Response(body, status=status.HTTP_201_CREATED)

    def _event_out(self, tournament: Tournament) -> Response:
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=inline_serializer(
            "TournamentClose",
            {"reason": serializers.CharField(required=False, max_length=500)},
        ),
        responses={200: TournamentSerializer, **ERRORS, **CONFLICT},
        description="A director closes the tournament once every game has a final result: "
        "its games then reach the ratings. 409 while a game waits for its result or is under "
        'an open dispute; a federation official may close over open disputes with {"reason": '
        '"..."}, recorded in the audit trail (the disputed games stay open for their rulings).',
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        body = request.data if isinstance(request.data, dict) else {}
        reason = body.get("reason") or ""
        if not isinstance(reason, str) or len(reason) > 500:
            raise exceptions.ValidationError({"reason": ["Send the reason as text (500 at most)."]})
        with service_errors():
            tournament = tournament_services.tournament_close(
                actor=request.user, tournament=tournament, reason=reason
            )
        return self._event_out(tournament)

    @extend_schema(
        request=None,
        responses={200: TournamentSerializer, **ERRORS, **CONFLICT},
        description="A director starts the tournament: a later change of an entry's rank, "
        "rating or McMahon correction is a correction during the event (pairing round 1 "
        "starts it too).",
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        with service_errors():
            tournament = tournament_services.tournament_start(
                actor=request.user, tournament=tournament
            )
        return self._event_out(tournament)
