"""``/api/v1/tournaments/<id>/entries/``: a tournament's entries and their participation;
``.../entries/from-list/``: enter a player from a federation's rating list."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Tournament, TournamentEntry
from games.services import outbound
from games.tournament import services as tournament_services
from games.tournament.api.serializers import (
    ENTRY_FIELDS,
    PRESENCE_CODES,
    EntryCreateSerializer,
    EntryFromListResultSerializer,
    EntryFromListSerializer,
    EntrySerializer,
    EntryUpdateSerializer,
)
from ops.api import CONFLICT, ERRORS, NOT_FOUND, changes, service_errors, valid
from ops.services import UNSET


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
    lookup_value_regex = "[0-9]{1,18}"  # a larger number is no id (and overflows the column)
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
            entry = tournament_services.entry_add(
                actor=request.user, tournament=tournament, **kwargs
            )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    def partial_update(
        self, request: Request, tournament_pk: str | None = None, pk: str | None = None
    ) -> Response:
        entry: TournamentEntry = self.get_object()
        data = valid(EntryUpdateSerializer, request.data)
        with service_errors():
            fields = changes(data, ENTRY_FIELDS)
            if any(v is not UNSET for v in fields.values()):
                entry = tournament_services.entry_update(actor=request.user, entry=entry, **fields)
            for item in data.get("participation", []):
                entry = tournament_services.entry_participation_set(
                    actor=request.user,
                    entry=entry,
                    round_number=item["round"],
                    presence=PRESENCE_CODES[item["presence"]],
                )
            if "withdraw_from" in data:
                entry = tournament_services.entry_withdraw(
                    actor=request.user, entry=entry, from_round=data["withdraw_from"]
                )
        return Response(EntrySerializer(entry).data)

    def destroy(
        self, request: Request, tournament_pk: str | None = None, pk: str | None = None
    ) -> Response:
        entry: TournamentEntry = self.get_object()
        with service_errors():
            tournament_services.entry_remove(actor=request.user, entry=entry)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryFromListView(APIView):
    """A director enters the player a rating list names (linked to goref's player by the
    import's rules, else created), with the list's rank, rating, club and country."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=EntryFromListSerializer,
        responses={201: EntryFromListResultSerializer, **ERRORS, **NOT_FOUND, **CONFLICT},
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        data = valid(EntryFromListSerializer, request.data)
        row = outbound.rating_list_row(data["list_entry"])
        if row is None:
            raise exceptions.ValidationError({"list_entry": "No such entry in the lists."})
        with service_errors():
            result = tournament_services.entry_add_from_list(
                actor=request.user, tournament=tournament, row=row
            )
        body = {
            "entry": dict(EntrySerializer(result.entry).data),
            "linked": result.linked,
            "review": result.review,
        }
        return Response(body, status=status.HTTP_201_CREATED)
