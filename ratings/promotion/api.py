"""The promotions API (v1): rank history, recent promotions and policies (public to read),
and the candidates (directors; a player sees his own, and gets 403 deciding them).

Status codes and the error shape: docs/operations.md §3.  Candidates are not
public (404); one already decided or stale is a 409.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Player
from ops.api import CONFLICT, ERRORS, NOT_FOUND, service_errors, valid
from ratings.api.views import tournament_field
from ratings.models import CandidateState, PromotionCandidate, PromotionPolicy
from ratings.promotion import selectors, services
from ratings.promotion.serializers import (
    CandidateFilterSerializer,
    CandidateSerializer,
    PolicySerializer,
    PolicyUpdateSerializer,
    PolicyWriteSerializer,
    PromotionFilterSerializer,
    RankChangeSerializer,
    RejectSerializer,
)

WRITE_ERRORS = {**ERRORS, **CONFLICT}


class PlayerRanksView(APIView):
    """A player's rank history: every change of his official rank, oldest first."""

    permission_classes = [AllowAny]
    pagination_class = None

    @extend_schema(responses={200: RankChangeSerializer(many=True), **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        rows = selectors.rank_history(player).select_related("player")
        return Response(RankChangeSerializer(rows, many=True).data)


class PromotionListView(mixins.ListModelMixin, viewsets.GenericViewSet[Any]):
    """Recent approved rank changes (promotions, demotions, honorary titles), newest first."""

    permission_classes = [AllowAny]
    serializer_class = RankChangeSerializer

    def get_queryset(self) -> Any:
        params = valid(PromotionFilterSerializer, self.request.query_params.dict())
        return selectors.recent_promotions(params.get("kind"))

    @extend_schema(
        parameters=[PromotionFilterSerializer],
        responses={200: RankChangeSerializer(many=True), 400: ERRORS[400]},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter(
                "state", str, enum=[c for c, _ in CandidateState.choices], description="State."
            ),
            OpenApiParameter("tournament", int, description="The triggering tournament's id."),
        ],
        responses={200: CandidateSerializer(many=True), 400: ERRORS[400], 401: ERRORS[401]},
        description="Federation directors see every candidate, a tournament's directors "
        "those it triggered, a player his own.",
    ),
    retrieve=extend_schema(responses={200: CandidateSerializer, **NOT_FOUND}),
)
class CandidateViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[PromotionCandidate]
):
    """Promotion candidates: proposed by the evaluation, decided by a director."""

    permission_classes = [IsAuthenticated]
    serializer_class = CandidateSerializer
    http_method_names = ["get", "post", "head", "options"]

    def get_queryset(self) -> Any:
        if self.action == "list":
            params = valid(CandidateFilterSerializer, self.request.query_params.dict())
            return selectors.candidates_for(self.request.user, **params)
        return selectors.candidate_queryset()

    def _candidate(self) -> PromotionCandidate:
        candidate: PromotionCandidate = self.get_object()
        if not services.can_see_candidate(self.request.user, candidate):
            raise exceptions.NotFound()
        return candidate

    def _decidable(self) -> PromotionCandidate:
        candidate = self._candidate()
        if not services.can_decide(self.request.user, candidate):
            raise exceptions.PermissionDenied(
                "Only federation directors, or the directors of the tournament that "
                "triggered it, decide a candidate."
            )
        return candidate

    def _out(self, candidate: PromotionCandidate) -> Response:
        fresh = selectors.candidate_queryset().get(pk=candidate.pk)
        return Response(CandidateSerializer(fresh).data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(CandidateSerializer(self._candidate()).data)

    @extend_schema(
        request=None,
        responses={200: CandidateSerializer, **WRITE_ERRORS},
        description="The player's official rank changes (rank history, audit entry, e-mail). "
        "409 when it was already decided or the player's rank changed since.",
    )
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str | None = None) -> Response:
        candidate = self._decidable()
        with service_errors():
            services.promotion_candidate_approve(actor=request.user, candidate=candidate)
        return self._out(candidate)

    @extend_schema(
        request=RejectSerializer,
        responses={200: CandidateSerializer, **WRITE_ERRORS},
        description="With a reason (audited); the same proposal is not made again.",
    )
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, pk: str | None = None) -> Response:
        candidate = self._decidable()
        data = valid(RejectSerializer, request.data)
        with service_errors():
            services.promotion_candidate_reject(
                actor=request.user, candidate=candidate, reason=data["reason"]
            )
        return self._out(candidate)


@extend_schema_view(
    list=extend_schema(responses={200: PolicySerializer(many=True)}),
    retrieve=extend_schema(responses={200: PolicySerializer, **NOT_FOUND}),
)
class PolicyViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[PromotionPolicy]
):
    """Promotion policies: public to read; federation directors set the default, a
    tournament's directors its own.  A bad parameter is a 400 on ``extra.fields.params``."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = PolicySerializer
    queryset = PromotionPolicy.objects.order_by("tournament_id", "-active", "name", "id")
    http_method_names = ["get", "post", "patch", "head", "options"]

    def _out(self, policy: PromotionPolicy, code: int = status.HTTP_200_OK) -> Response:
        fresh = PromotionPolicy.objects.get(pk=policy.pk)
        return Response(PolicySerializer(fresh).data, status=code)

    @extend_schema(request=PolicyWriteSerializer, responses={201: PolicySerializer, **ERRORS})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = valid(PolicyWriteSerializer, request.data)
        tournament = tournament_field(data, "tournament")
        with service_errors():
            policy = services.promotion_policy_create(
                actor=request.user,
                name=data["name"],
                params=data["params"],
                tournament=tournament,
                active=data["active"],
            )
        return self._out(policy, status.HTTP_201_CREATED)

    @extend_schema(request=PolicyUpdateSerializer, responses={200: PolicySerializer, **ERRORS})
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        policy: PromotionPolicy = self.get_object()
        data = valid(PolicyUpdateSerializer, request.data)
        with service_errors():
            services.promotion_policy_update(actor=request.user, policy=policy, **data)
        return self._out(policy)

    @extend_schema(
        request=None,
        responses={200: PolicySerializer, **ERRORS},
        description="Put it in force; the active policy of the same scope is switched off.",
    )
    @action(detail=True, methods=["post"])
    def activate(self, request: Request, pk: str | None = None) -> Response:
        policy: PromotionPolicy = self.get_object()
        with service_errors():
            services.promotion_policy_activate(actor=request.user, policy=policy)
        return self._out(policy)
