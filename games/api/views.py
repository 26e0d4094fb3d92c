"""The REST API (v1): parse input, call a service, format the output.

Status codes (400, 401, 403, 404, 409) and the error shape: docs/games.md, "API status
codes".
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from knox.models import AuthToken
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import cache as page_cache
from games import permissions, selectors, services
from games.api import serializers as s
from games.models import Game, GameState, Player
from games.people import selectors as people_selectors
from games.people import services as people
from games.people.services.players import PLAYER_FIELDS
from games.tournament import services as tournament_services
from ops.accounts import token_create, token_revoke
from ops.api import CONFLICT, ERRORS, NOT_FOUND, changes, service_errors, valid
from ops.auth import TokenAuthentication
from ops.logins import locked_message, login_remembered
from ops.pages import cache
from ops.pages.api import CachedRead
from ops.pages.cache import visitor_max_age
from ops.text import small_number

# --------------------------------------------------------------------------- auth


class TokenView(APIView):
    """``POST``: exchange a username and password for a new API token
    (``Authorization: Token <key>``), which expires; ``DELETE``: revoke the token the
    request is authenticated with.  Failed logins count towards the lockout."""

    permission_classes = [AllowAny]

    def get_authenticators(self) -> list[Any]:
        # Logging in needs no credentials (a stale token must not turn it into a 401);
        # revoking needs the token being revoked.
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST":
            return []
        return [TokenAuthentication()]

    @extend_schema(
        request=s.TokenRequestSerializer,
        responses={200: s.TokenSerializer, 400: ERRORS[400], 429: ERRORS[429]},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = valid(s.TokenRequestSerializer, request.data)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if getattr(request._request, "axes_locked_out", False):
            return Response({"message": locked_message(request._request), "extra": {}}, status=429)
        if user is None or not user.is_active:
            raise exceptions.ValidationError(
                {"non_field_errors": ["Unable to log in with those credentials."]}
            )
        login_remembered(request._request, user)
        key, expiry = token_create(user=user)
        return Response({"token": key, "expiry": expiry})

    @extend_schema(request=None, responses={204: None, 401: ERRORS[401]})
    def delete(self, request: Request) -> Response:
        if not isinstance(request.auth, AuthToken):
            raise exceptions.NotAuthenticated(
                "Send the token to revoke: Authorization: Token <key>."
            )
        token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------- players


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("search", str, description="Words in the family or given name."),
            OpenApiParameter("club", str, description="Club name (exact, any case)."),
            OpenApiParameter("country", str, description="Two-letter country code."),
        ],
        responses={200: s.PlayerSerializer(many=True), 400: ERRORS[400]},
    ),
    retrieve=extend_schema(responses={200: s.PlayerSerializer, **NOT_FOUND}),
    create=extend_schema(
        request=s.PlayerWriteSerializer, responses={201: s.PlayerSerializer, **ERRORS}
    ),
    partial_update=extend_schema(
        request=s.PlayerWriteSerializer(partial=True), responses={200: s.PlayerSerializer, **ERRORS}
    ),
)
class PlayerViewSet(
    CachedRead, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Player]
):
    """Players: readable by everyone, created and edited by tournament directors and staff."""

    serializer_class = s.PlayerSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> Any:
        # The ratings (one-to-ones) come in the same query: the list's count stays pinned.
        if self.action != "list":
            return people_selectors.player_list().select_related("rating", "honorary_title")
        params = valid(s.PlayerFilterSerializer, self.request.query_params.dict())
        return people_selectors.player_list(**params).select_related("rating", "honorary_title")

    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """One player with his rating: the public lookup, cached until he, any player's
        club or the ratings change (``games.cache``)."""
        if small_number(pk) is None:
            return super().retrieve(request, pk=pk)  # the usual 404
        key, versions = _player_entry(int(pk or 0))
        data = cache.cached(
            key,
            versions,
            lambda: dict(s.PlayerSerializer(self.get_object()).data),
            max_age=visitor_max_age(request),
        )
        return Response(data)

    def cached_read(self, request: HttpRequest, **kwargs: Any) -> tuple[str, list[str]] | None:
        pk = small_number(kwargs.get("pk"))  # none on the list, whose answers are not kept
        return None if pk is None or request.GET else _player_entry(pk)

    def create(self, request: Request) -> Response:
        data = valid(s.PlayerWriteSerializer, request.data)
        with service_errors():
            player = people.player_create(actor=request.user, **data)
        return Response(s.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        player = self.get_object()
        data = valid(s.PlayerWriteSerializer, request.data, partial=True)
        with service_errors():
            player = people.player_update(
                actor=request.user, player=player, **changes(data, (*PLAYER_FIELDS, "email"))
            )
        return Response(s.PlayerSerializer(player).data)


def _player_entry(pk: int) -> tuple[str, list[str]]:
    """The cache key and versions of the player lookup: until he, any player's club or
    the ratings change (``games.cache``)."""
    return f"api.player.{pk}", [page_cache.player(pk), page_cache.PLAYERS, page_cache.RATINGS]


# --------------------------------------------------------------------------- games

GAME_WRITE_ERRORS = {**ERRORS, **CONFLICT}


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("tournament", int, description="Tournament id."),
            OpenApiParameter("round", int, description="Round number."),
            OpenApiParameter("player", int, description="Player id (either colour)."),
            OpenApiParameter(
                "state", str, enum=[c for c, _ in GameState.choices], description="Game state."
            ),
        ],
        responses={200: s.GameListSerializer(many=True), 400: ERRORS[400]},
    ),
    retrieve=extend_schema(responses={200: s.GameSerializer, **NOT_FOUND}),
    create=extend_schema(
        request=s.GameCreateSerializer, responses={201: s.GameSerializer, **ERRORS}
    ),
    partial_update=extend_schema(
        request=s.GameUpdateSerializer, responses={200: s.GameSerializer, **GAME_WRITE_ERRORS}
    ),
)
class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Game]):
    """Games and their results."""

    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_serializer_class(self) -> Any:
        return s.GameListSerializer if self.action == "list" else s.GameSerializer

    def get_queryset(self) -> Any:
        if self.action != "list":
            return selectors.game_list()
        params = valid(s.GameFilterSerializer, self.request.query_params.dict())
        if "round" in params:
            params["round_number"] = params.pop("round")
        return selectors.game_list(**params)

    def _game(self) -> Game:
        game: Game = self.get_object()
        return game

    def _out(self, game: Game, code: int = status.HTTP_200_OK) -> Response:
        return Response(s.GameSerializer(game).data, status=code)

    def create(self, request: Request) -> Response:
        data = valid(s.GameCreateSerializer, request.data)
        with service_errors(rename={"round_number": "round"}):
            game = tournament_services.game_create(
                actor=request.user,
                tournament=data["tournament"],
                round_number=data["round"],
                black=data["black"],
                white=data["white"],
                handicap=data.get("handicap"),  # none given: the policy advises one
                komi=data.get("komi"),
                table=data.get("table"),
            )
        return self._out(game, status.HTTP_201_CREATED)

    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        game = self._game()
        data = valid(s.GameUpdateSerializer, request.data)
        names = ["black", "white", "handicap", "komi", "table", "rules"]
        with service_errors():
            game = tournament_services.game_update(
                actor=request.user, game=game, **changes(data, names)
            )
        return self._out(game)

    @extend_schema(
        request=s.ResultRequestSerializer,
        responses={200: s.GameSerializer, **GAME_WRITE_ERRORS},
        description="A player submits the result of his own game (his opponent then confirms "
        "or contests it); a director of the tournament enters or corrects any result.",
    )
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        game = self._game()
        participant = permissions.is_participant(request.user, game)
        if not participant and not permissions.can_enter_results(request.user, game):
            raise exceptions.PermissionDenied(
                "Only the players of this game or the tournament's directors can record its result."
            )
        data = valid(s.ResultRequestSerializer, request.data)
        kwargs = {
            "actor": request.user,
            "game": game,
            "result": data["result"],
            "sgf": data.get("sgf"),
            "dead_stones": data.get("dead_stones"),
            "comment": data.get("comment", ""),
        }
        with service_errors():
            # A director who plays in the game submits like any player: his own
            # game is not his to enter.
            if participant:
                game = services.game_result_submit(**kwargs)
            else:
                game = services.game_result_enter(**kwargs)
        return self._out(game)

    @extend_schema(
        request=s.ConfirmRequestSerializer, responses={200: s.GameSerializer, **GAME_WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        game = self._game()
        data = valid(s.ConfirmRequestSerializer, request.data)
        with service_errors():
            game = services.game_result_confirm(
                actor=request.user, game=game, claim=data.get("claim")
            )
        return self._out(game)

    @extend_schema(
        request=s.ContestRequestSerializer, responses={200: s.GameSerializer, **GAME_WRITE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def contest(self, request: Request, pk: str | None = None) -> Response:
        game = self._game()
        data = valid(s.ContestRequestSerializer, request.data)
        with service_errors():
            game = services.game_result_contest(
                actor=request.user,
                game=game,
                reason=data.get("reason", ""),
                claim=data.get("claim"),
            )
        return self._out(game)

    @extend_schema(request=None, responses={200: s.GameSerializer, **GAME_WRITE_ERRORS})
    @action(detail=True, methods=["post"])
    def finalise(self, request: Request, pk: str | None = None) -> Response:
        game = self._game()
        with service_errors():
            game = services.game_finalise(actor=request.user, game=game)
        return self._out(game)

    @extend_schema(
        responses={200: s.SubmissionSerializer(many=True), **NOT_FOUND},
        description="Every claim about the result, oldest first: for the game's players, "
        "the tournament's directors and referees (404 for everyone else).",
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def submissions(self, request: Request, pk: str | None = None) -> Response:
        game = get_object_or_404(Game.objects.select_related("tournament"), pk=_int_or_404(pk))
        if not permissions.can_see_submissions(request.user, game):
            raise exceptions.NotFound()
        subs = selectors.submissions_of(game)  # may see them: checked just above
        return Response(s.SubmissionSerializer(subs, many=True).data)


def _int_or_404(pk: str | None) -> int:
    try:
        return int(pk or "")
    except ValueError:
        raise exceptions.NotFound() from None
