"""The tournament as an event in the API: entries and their participation, start, close,
standings, files.  docs/tournaments.md."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from games import services
from games.api.serializers import TournamentSerializer
from games.models import Player, Presence, Tournament, TournamentEntry
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
    """Start and close: actions of ``TournamentViewSet``."""

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
