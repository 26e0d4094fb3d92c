"""The ratings and handicap API (v1): parse, call a service or a read, format.

Reads are public; recomputes and the honorary 9p+ are for directors and
staff.  Status codes and the error shape: docs/operations.md §3.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import cache as page_cache
from games.engine.coords import point_to_gtp
from games.engine.rules import get_rules
from games.models import Player, Tournament
from games.people.engine.federation_ids import ID_FIELDS
from games.people.selectors import search_players
from ops.api import CONFLICT, ERRORS, NOT_FOUND, JobRefSerializer, service_errors, valid
from ops.pages import cache
from ops.pages.api import CachedRead
from ops.pages.cache import visitor_max_age
from ops.text import small_number
from ratings import holds, lists, selectors, services
from ratings.api import serializers as s
from ratings.models import RatingHold
from ratings.ranks import Rank
from ratings.strength import current_strength, pairing_advice, policy_for, what_if

SCORES = {"black": 1.0, "white": 0.0, "jigo": 0.5}


def _player_field(pk: int, field_name: str) -> Player:
    player = selectors.rated_player(pk)
    if player is None:
        raise exceptions.ValidationError({field_name: f"There is no player with id {pk}."})
    return player


def tournament_field(data: dict[str, Any], field_name: str) -> Tournament | None:
    """The tournament ``data[field_name]`` names, None when it names none; an unknown id
    is a 400 naming the field."""
    pk = data.get(field_name)
    if pk is None:
        return None
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise exceptions.ValidationError({field_name: f"There is no tournament with id {pk}."})
    return tournament


def _two_players(data: dict[str, Any]) -> tuple[Player, Player]:
    if data["black"] == data["white"]:
        raise exceptions.ValidationError({"white": "Black and White must be two players."})
    return _player_field(data["black"], "black"), _player_field(data["white"], "white")


class HandicapView(CachedRead, APIView):
    """The handicap, komi and colours the tournament's policy gives two players."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[s.HandicapQuerySerializer],
        responses={200: s.HandicapSerializer, 400: ERRORS[400]},
    )
    def get(self, request: Request) -> Response:
        data = valid(s.HandicapQuerySerializer, request.query_params.dict())
        if data["black"] == data["white"]:
            _two_players(data)  # the 400

        def answer() -> dict[str, Any]:
            a, b = _two_players(data)
            tournament = tournament_field(data, "tournament")
            return dict(s.HandicapSerializer(handicap_payload(tournament, a, b)).data)

        key, versions = _handicap_entry(data["black"], data["white"], data.get("tournament"))
        return Response(cache.cached(key, versions, answer, max_age=visitor_max_age(request)))

    def cached_read(self, request: HttpRequest, **kwargs: Any) -> tuple[str, list[str]] | None:
        params = request.GET
        if not set(params) <= {"black", "white", "tournament"}:
            return None
        ids = [small_number(params.get(name)) for name in ("black", "white")]
        tid = small_number(params["tournament"]) if "tournament" in params else None
        if None in ids or ("tournament" in params and tid is None):
            return None  # what only the serializer can answer (a 400)
        return _handicap_entry(ids[0], ids[1], tid)


def _handicap_entry(black: Any, white: Any, tid: Any) -> tuple[str, list[str]]:
    """The cache key and versions of a handicap answer: until either player, the
    tournament or the ratings change (``games.cache``)."""
    versions = [page_cache.player(black), page_cache.player(white), page_cache.RATINGS]
    versions.append(page_cache.tournament(tid) if tid is not None else page_cache.TOURNAMENTS)
    return f"api.handicap.{black}.{white}.{tid}", versions


def handicap_payload(tournament: Tournament | None, a: Player, b: Player) -> dict[str, Any]:
    """The advice for ``a`` (asked as Black) and ``b`` as plain data (API and calculator page)."""
    rules = get_rules(tournament.rules if tournament is not None else "nz")
    size = tournament.board_size if tournament is not None else 19
    advice = pairing_advice(tournament=tournament, a=a, b=b, rules=rules, size=size)
    black, white = (advice.black, advice.white) if advice.black is not None else (a, b)
    assert isinstance(black, Player) and isinstance(white, Player)
    if advice.placement == "free":
        placement = ["free"]
    else:
        placement = [point_to_gtp(p, size) for p in advice.placement]
    return {
        "handicap": advice.handicap,
        "komi": advice.komi,
        "compensation": advice.compensation,
        "even_game_allowed": advice.even_game_allowed,
        "nigiri": advice.handicap == 0,
        "placement": placement,
        "white_passes": advice.white_passes,
        "black": black.pk,
        "white": white.pk,
        "rating_difference": round(advice.difference_stones, 4),
        "strengths": {str(p.pk): round(current_strength(p).stones, 4) for p in (a, b)},
        "policy": policy_for(tournament).kind.value,
        "rules": rules.name,
        "board_size": size,
        "explanation": advice.explanation,
    }


class WhatIfView(APIView):
    """The rating changes one game would cause, from current ratings; nothing is stored."""

    permission_classes = [AllowAny]

    def _answer(self, data: dict[str, Any]) -> Response:
        black, white = _two_players(data)
        result = what_if(
            black=black, white=white, score_black=SCORES[data["winner"]], handicap=data["handicap"]
        )
        return Response(s.WhatIfSerializer(result).data)

    @extend_schema(
        parameters=[s.WhatIfRequestSerializer],
        responses={200: s.WhatIfSerializer, 400: ERRORS[400]},
        operation_id="ratings_what_if_query",
    )
    def get(self, request: Request) -> Response:
        return self._answer(valid(s.WhatIfRequestSerializer, request.query_params.dict()))

    @extend_schema(
        request=s.WhatIfRequestSerializer,
        responses={200: s.WhatIfSerializer, 400: ERRORS[400]},
        operation_id="ratings_what_if",
    )
    def post(self, request: Request) -> Response:
        return self._answer(valid(s.WhatIfRequestSerializer, request.data))


class PlayerHistoryView(APIView):
    """A player's rating before and after each rated tournament, oldest first."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.HistoryRowSerializer(many=True), **NOT_FOUND})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        rows = selectors.player_history(player)
        return Response(s.HistoryRowSerializer(rows, many=True).data)


class RecomputeView(APIView):
    """Start a rating recompute (directors and staff): 202 with the job to follow."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.RecomputeRequestSerializer,
        responses={202: JobRefSerializer, **ERRORS},
        description="Full by default; with from_tournament, from that event onward. "
        "Follow the job at GET /api/v1/jobs/{id}/.",
    )
    def post(self, request: Request) -> Response:
        data = valid(s.RecomputeRequestSerializer, request.data or {})
        tournament = tournament_field(data, "from_tournament")
        with service_errors():
            job = services.ratings_recompute_start(actor=request.user, from_tournament=tournament)
        body = {"job": job.pk, "status": job.state, "url": reverse("api-job", args=[job.pk])}
        return Response(body, status=status.HTTP_202_ACCEPTED)


class HonoraryView(APIView):
    """Award the honorary 9p+ (directors and staff), with a reason; audited."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.HonoraryRequestSerializer, responses={201: s.HonorarySerializer, **ERRORS}
    )
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        data = valid(s.HonoraryRequestSerializer, request.data)
        with service_errors():
            title = services.player_award_honorary(
                actor=request.user, player=player, reason=data["reason"]
            )
        return Response(s.HonorarySerializer(title).data, status=status.HTTP_201_CREATED)


class RatingListSearchView(APIView):
    """Search-as-you-type over goref's players and the imported federation lists."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[s.RatingListSearchQuerySerializer],
        responses={200: s.RatingListSearchSerializer, 400: ERRORS[400]},
    )
    def get(self, request: Request) -> Response:
        q = valid(s.RatingListSearchQuerySerializer, request.query_params.dict())["q"]
        players = [
            {
                "id": p.pk,
                "name": p.full_name,
                "rank": str(p.rank),
                "club": p.club.name if p.club is not None else "",
                "country": p.country,
                **{f: getattr(p, f) for f in ID_FIELDS},
            }
            for p in search_players(q)
        ]
        entries = [
            {
                "id": e.pk,
                "federation": e.rating_list.source,
                "published": e.rating_list.published,
                "federation_id": e.federation_id,
                "family_name": e.family_name,
                "given_name": e.given_name,
                "rank": str(Rank(e.rank)) if e.rank is not None else None,
                "rating": e.rating,
                "list_rating": e.list_rating,
                "club": e.club,
                "country": e.country,
            }
            for e in lists.search_lists(q)
        ]
        body = s.RatingListSearchSerializer({"players": players, "lists": entries}).data
        return Response(body)


class RatingHoldsView(APIView):
    """The held rated games the user may release (every hold for an official)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.RatingHoldSerializer(many=True), **ERRORS})
    def get(self, request: Request) -> Response:
        rows = holds.holds_visible(request.user)[:500]
        return Response(s.RatingHoldSerializer(rows, many=True).data)


class RatingHoldReleaseView(APIView):
    """Release held games: they reach the ratings (a recompute from their event)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: s.RatingHoldSerializer, **ERRORS, **NOT_FOUND, **CONFLICT}
    )
    def post(self, request: Request, pk: int) -> Response:
        hold = get_object_or_404(RatingHold, pk=pk)
        with service_errors():
            hold = holds.rating_hold_release(actor=request.user, hold=hold)
        return Response(s.RatingHoldSerializer(hold).data)
