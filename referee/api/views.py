"""``/api/v1/``: disputes, rulings, appeals, acceptances; a tournament's officials.

Status codes as in ``games.api.views`` (409: the game's or the dispute's state forbids
it): docs/referee.md, "Who sees what, and status codes".
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game, Tournament
from ops.api import CONFLICT, ERRORS, NOT_FOUND, service_errors, valid
from referee import roles, selectors, services
from referee.api import serializers as s
from referee.models import Dispute, DisputeState

WRITE_ERRORS = {**ERRORS, **CONFLICT}


class GameDisputeCreateView(APIView):
    """Raise a dispute on a game."""

    @extend_schema(
        request=s.DisputeCreateSerializer,
        responses={201: s.DisputeSerializer, **WRITE_ERRORS},
        description="A player on his own game, or the tournament's referees and directors, "
        "raise a dispute while the result is not locked; the game becomes disputed. "
        "A repetition must be claimed at the last move of the record (New Zealand Rules).",
    )
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game.objects.select_related("tournament"), pk=pk)
        if not roles.can_raise_dispute(request.user, game):
            raise exceptions.PermissionDenied(
                "Only the players of this game or the tournament's referees and directors "
                "raise disputes."
            )
        data = valid(s.DisputeCreateSerializer, request.data)
        with service_errors():
            dispute = services.dispute_open(actor=request.user, game=game, **data)
        out = selectors.dispute_detail_queryset().get(pk=dispute.pk)
        return Response(s.DisputeSerializer(out).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("game", int, description="Game id."),
            OpenApiParameter("tournament", int, description="Tournament id."),
            OpenApiParameter(
                "state", str, enum=[c for c, _ in DisputeState.choices], description="State."
            ),
        ],
        responses={200: s.DisputeListSerializer(many=True), 400: ERRORS[400]},
        description="Players see their games' disputes, officials their tournaments', "
        "everyone the closed ones.",
    ),
    retrieve=extend_schema(responses={200: s.DisputeSerializer, **NOT_FOUND}),
)
class DisputeViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Dispute]
):
    """Disputes, their rulings and appeals."""

    http_method_names = ["get", "post", "head", "options"]

    def get_serializer_class(self) -> Any:
        return s.DisputeListSerializer if self.action == "list" else s.DisputeSerializer

    def get_queryset(self) -> Any:
        if self.action == "list":
            params = valid(s.DisputeFilterSerializer, self.request.query_params.dict())
            return selectors.dispute_list(user=self.request.user, **params)
        return selectors.dispute_detail_queryset()

    def _dispute(self) -> Dispute:
        dispute: Dispute = self.get_object()
        if not roles.can_see_dispute(self.request.user, dispute):
            raise exceptions.NotFound()
        return dispute

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(s.DisputeSerializer(self._dispute()).data)

    def _out(self, dispute: Dispute, code: int = status.HTTP_200_OK) -> Response:
        fresh = selectors.dispute_detail_queryset().get(pk=dispute.pk)
        return Response(s.DisputeSerializer(fresh).data, status=code)

    @extend_schema(
        request=s.RulingCreateSerializer,
        responses={
            201: s.DisputeSerializer,
            202: OpenApiResponse(
                s.DisputeSerializer, description="A committee vote, no majority yet."
            ),
            **WRITE_ERRORS,
        },
        description="The tournament's referee rules at level 1, the chief referee at level 2; "
        "at level 3 each committee member votes and the ruling is made when two agree.",
    )
    @action(detail=True, methods=["post"])
    def rulings(self, request: Request, pk: str | None = None) -> Response:
        dispute = self._dispute()
        if not roles.can_rule(request.user, dispute):  # before judging the body
            raise exceptions.PermissionDenied(
                roles.conflict_of_interest(request.user, dispute) or roles.who_rules(dispute)
            )
        data = valid(s.RulingCreateSerializer, request.data)
        before = dispute.rulings.count()
        with service_errors():
            dispute = services.dispute_rule(actor=request.user, dispute=dispute, **data)
        made = dispute.rulings.count() > before
        return self._out(dispute, status.HTTP_201_CREATED if made else status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=s.AppealSerializer,
        responses={200: s.DisputeSerializer, **WRITE_ERRORS},
        description="A player of the game appeals the standing ruling, once per level: the "
        "referee's to the chief referee, the chief's to the arbitration committee.",
    )
    @action(detail=True, methods=["post"])
    def appeal(self, request: Request, pk: str | None = None) -> Response:
        dispute = self._dispute()
        if not roles.is_party(request.user, dispute.game):
            raise exceptions.PermissionDenied("Only the players of this game appeal a ruling.")
        data = valid(s.AppealSerializer, request.data)
        with service_errors():
            dispute = services.dispute_appeal(
                actor=request.user, dispute=dispute, reason=data.get("reason", "")
            )
        return self._out(dispute)

    @extend_schema(
        request=s.AssignSerializer,
        responses={200: s.DisputeSerializer, **WRITE_ERRORS},
        description="A director assigns the dispute to a referee of the tournament; a referee "
        "of the tournament takes it himself (referee: himself, or left out). Only before the "
        "first ruling.",
    )
    @action(detail=True, methods=["post"])
    def assign(self, request: Request, pk: str | None = None) -> Response:
        dispute = self._dispute()
        if not roles.can_assign(request.user, dispute):
            raise exceptions.PermissionDenied(
                roles.conflict_of_interest(request.user, dispute)
                or (
                    "Only a director assigns a dispute; a referee may take one himself "
                    "unless a director assigned it to another referee."
                )
            )
        data = valid(s.AssignSerializer, request.data)
        with service_errors():
            dispute = services.dispute_assign(
                actor=request.user, dispute=dispute, referee=data.get("referee", request.user)
            )
        return self._out(dispute)

    @extend_schema(
        request=None,
        responses={200: s.DisputeSerializer, **WRITE_ERRORS},
        description="A player of the game accepts the standing ruling and gives up his appeal "
        "of it. The dispute closes when both players have accepted it, or when one has and "
        "there is no level left to appeal to (no chief referee, or no committee).",
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: str | None = None) -> Response:
        dispute = self._dispute()
        with service_errors():  # the service refuses anyone but a party (403)
            dispute = services.dispute_accept(actor=request.user, dispute=dispute)
        return self._out(dispute)

    @extend_schema(
        request=None,
        responses={200: s.DisputeSerializer, **WRITE_ERRORS},
        description="An official (referee, chief referee, director) closes a ruled dispute "
        "that no one appealed; the game goes back to submitted with the ruled result.",
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str | None = None) -> Response:
        dispute = self._dispute()
        with service_errors():  # the service refuses anyone but an official (403)
            dispute = services.dispute_close(actor=request.user, dispute=dispute)
        return self._out(dispute)


class TournamentOfficialsView(APIView):
    """A tournament's chief referee and arbitration committee (and, read-only, its referees)."""

    @extend_schema(
        responses={200: s.OfficialsSerializer, **NOT_FOUND},
        description="Public, by username: a referee's name is known at a tournament. "
        "No chief referee is null, no committee [].",
    )
    def get(self, request: Request, pk: int) -> Response:
        try:
            officials = selectors.officials_of_tournament(pk)
        except Tournament.DoesNotExist:
            raise exceptions.NotFound() from None
        return Response(s.OfficialsSerializer(officials).data)

    @extend_schema(
        request=s.OfficialsWriteSerializer,
        responses={200: s.OfficialsSerializer, **ERRORS},
        description="A director of the tournament names the chief referee and the committee "
        "of three different users (not the chief); null and [] name none. Users by id (a "
        "number) or username (a string). Audited (tournament.officials_set).",
    )
    def put(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        if not roles.can_name_officials(request.user, tournament):
            raise exceptions.PermissionDenied("Only the tournament's directors name its officials.")
        data = valid(s.OfficialsWriteSerializer, request.data)
        with service_errors():
            services.tournament_officials_set(actor=request.user, tournament=tournament, **data)
        return Response(s.OfficialsSerializer(selectors.officials_of_tournament(pk)).data)
