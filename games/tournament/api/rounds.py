"""``/api/v1/tournaments/{id}/rounds/{R}/pairing/``: pair a round (POST) or undo its
pairing (DELETE) through ``games.tournament.services.rounds``;
``/api/v1/games/{id}/even-game/``: choose an even game instead of the handicap."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from games.models import Game, Tournament
from games.tournament.api.serializers import EvenGameSerializer
from games.tournament.engine.pairing import COST_NAMES
from games.tournament.services.pairing_jobs import (
    REQUEST_FIELDS,
    pairing_answer,
    pairing_needs_job,
    round_pair_job_start,
)
from games.tournament.services.pairings import game_choose_even
from games.tournament.services.rounds import (
    MAX_PAIRS,
    round_pair,
    round_unpair,
)
from ops.api import CONFLICT, ERRORS, JobRefSerializer, service_errors, valid
from ops.services import UNSET


@extend_schema_field({"oneOf": [{"type": "boolean"}, {"type": "string", "enum": ["all"]}]})
class ExplainField(serializers.Field[Any, Any, Any, Any]):
    """``false``, ``true`` (each game's reasons in words) or ``"all"`` (also every pair's cost)."""

    def to_internal_value(self, data: Any) -> bool | str:
        if isinstance(data, bool):
            return data
        if data == "all":
            return "all"
        raise exceptions.ValidationError('Send true, false or "all".')

    def to_representation(self, value: Any) -> Any:
        return value


class PairingRequestSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=4000,
        help_text="Player ids to pair, the bye not among them. Left out: everyone entered "
        "and playing in the round (less those already paired by hand).",
    )
    bye = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="The player who sits out, or null for nobody. Left out: the bye recorded "
        "for the round if any, else the rule chooses one for an odd field.",
    )
    dry_run = serializers.BooleanField(
        default=False, help_text="true: answer the pairing without creating any game."
    )
    explain = ExplainField(required=False, default=False)
    pairs_of = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=20,
        help_text='With explain "all": only the pairs of these players (at most 20).',
    )
    pairs_offset = serializers.IntegerField(
        min_value=0, default=0, help_text='With explain "all": the first pair to answer.'
    )
    pairs_limit = serializers.IntegerField(
        min_value=1,
        max_value=MAX_PAIRS,
        default=500,
        help_text=f'With explain "all": how many pairs to answer (at most {MAX_PAIRS}).',
    )
    accept_unfinished = serializers.BooleanField(
        default=False,
        help_text="true: pair even though games of earlier rounds have no final result "
        "(without it such a pairing is refused with 409 naming them).",
    )


def _costs_schema() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(),
        help_text="OpenGotha's cost components: " + ", ".join(COST_NAMES) + ".",
    )


class PairedGameSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    black = serializers.IntegerField()
    white = serializers.IntegerField()
    handicap = serializers.IntegerField()
    komi = serializers.DecimalField(max_digits=4, decimal_places=1)
    costs = _costs_schema()
    explanation = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="With explain: the reasons."
    )


class PairCostSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField(help_text="First in pairing-list order.")
    b = serializers.IntegerField()
    costs = _costs_schema()


class UnfinishedGameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    black = serializers.IntegerField()
    white = serializers.IntegerField()
    state = serializers.CharField()


class PairingSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    unfinished = UnfinishedGameSerializer(
        many=True, help_text="Games of earlier rounds without a final result."
    )
    bye = serializers.IntegerField(allow_null=True)
    games = PairedGameSerializer(many=True)
    total_cost = serializers.IntegerField(help_text="The sum of the games' totalCost.")
    pairs = PairCostSerializer(
        many=True,
        required=False,
        help_text='With explain "all": a page of the pairs of players to pair, in '
        "pairing-list order (pairs_offset, pairs_limit; pairs_of).",
    )
    pairs_total = serializers.IntegerField(
        required=False, help_text='With explain "all": how many pairs there are in all.'
    )


class UnpairSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    removed = serializers.IntegerField(help_text="Games removed.")


ROUND = OpenApiParameter("round_number", int, OpenApiParameter.PATH, description="Round, from 1.")


def _as_job(
    request: Request, tournament: Tournament, round_number: int, data: dict[str, Any]
) -> Response:
    """202 with the job that pairs a congress-size round (its answer: the job's result)."""
    options = {k: data[k] for k in REQUEST_FIELDS if k in data}
    with service_errors():
        job = round_pair_job_start(
            actor=request.user, tournament=tournament, round_number=round_number, request=options
        )
    url = reverse("api-job", args=[job.pk], request=request)
    body = {"job": job.pk, "status": job.state, "url": url}
    return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class RoundPairingView(APIView):
    """Pair a round as OpenGotha 3.52 does (docs/tournaments.md, "Pairing")."""

    @extend_schema(
        operation_id="tournaments_round_pairing_create",
        parameters=[ROUND],
        request=PairingRequestSerializer,
        responses={
            200: PairingSerializer,
            201: PairingSerializer,
            202: JobRefSerializer,
            **ERRORS,
            **CONFLICT,
        },
        description="A director pairs round R. dry_run: the proposed games (200) and the "
        "earlier rounds' games without a final result; otherwise the games are created "
        "(201), replacing the round's games if none has a result (409 when one has), and "
        "refused with 409 naming the earlier games without a final result unless "
        "accept_unfinished is true. Costs are OpenGotha's components per game. Above "
        "GOREF_PAIRING_JOB_PLAYERS entered players (300 by default) every such request, dry "
        "runs and explain included, runs as a job: 202 with its URL, whose result is this "
        "answer once done; 409 while another pairing job of the tournament is under way.",
    )
    def post(self, request: Request, pk: int, round_number: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(PairingRequestSerializer, request.data)
        if pairing_needs_job(tournament, data.get("players")):
            return _as_job(request, tournament, round_number, data)
        with service_errors():
            result = round_pair(
                actor=request.user,
                tournament=tournament,
                round_number=round_number,
                players=data.get("players", UNSET),
                bye=data.get("bye", UNSET),
                dry_run=data["dry_run"],
                explain=data["explain"],
                accept_unfinished=data["accept_unfinished"],
                pairs_of=data.get("pairs_of"),
                pairs_offset=data["pairs_offset"],
                pairs_limit=data["pairs_limit"],
            )
        code = status.HTTP_200_OK if data["dry_run"] else status.HTTP_201_CREATED
        answer = pairing_answer(result, data["explain"], tournament)
        return Response(PairingSerializer(answer).data, status=code)

    @extend_schema(
        operation_id="tournaments_round_pairing_destroy",
        parameters=[ROUND],
        request=None,
        responses={200: UnpairSerializer, **ERRORS, **CONFLICT},
        description="A director undoes round R's pairing while none of its results is "
        "entered (409 otherwise): its games and its bye go.",
    )
    def delete(self, request: Request, pk: int, round_number: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        with service_errors():
            removed = round_unpair(
                actor=request.user, tournament=tournament, round_number=round_number
            )
        return Response({"round": round_number, "removed": removed})


class EvenGameView(APIView):
    """The players (or a director) choose an even game under 0.5 stones (New Zealand Rules)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: EvenGameSerializer, **ERRORS, **CONFLICT},
        parameters=[OpenApiParameter("pk", int, OpenApiParameter.PATH, description="Game id.")],
    )
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game.objects.select_related("tournament", "black", "white"), pk=pk)
        with service_errors():
            game = game_choose_even(actor=request.user, game=game)
        return Response(EvenGameSerializer(game).data)
