"""``/api/v1/tournaments/<id>/entries/``: a tournament's entries and their participation;
``.../entries/from-list/``: enter a player from a federation's rating list."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.messages import correction_warning
from games.models import Tournament, TournamentEntry
from games.services import outbound
from games.tournament import services as tournament_services
from games.tournament.api.serializers import (
    ENTRY_FIELDS,
    PRESENCE_CODES,
    EntriesBulkResultSerializer,
    EntriesBulkSerializer,
    EntryCreateSerializer,
    EntryFromListResultSerializer,
    EntryFromListSerializer,
    EntrySerializer,
    EntryUpdateResultSerializer,
    EntryUpdateSerializer,
)
from games.tournament.services import corrections
from games.tournament.services.entries import CORRECTED, CorrectionEffect, correction_effect
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
        responses={200: EntryUpdateResultSerializer, **ERRORS, **CONFLICT},
        description="Correct an entry (after the start, a change of rank, rating or McMahon "
        "correction answers `correction`: the rounds already paired and what it changes), "
        "change his participation in some rounds, or withdraw him from a round on.",
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
        before = {f: getattr(entry, f) for f in CORRECTED}
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
        changed = [f for f in CORRECTED if getattr(entry, f) != before[f]]
        effect = correction_effect(entry.tournament, changed)
        return Response({**EntrySerializer(entry).data, "correction": correction_body(effect)})

    @extend_schema(
        request=EntriesBulkSerializer,
        responses={200: EntriesBulkResultSerializer, **ERRORS, **NOT_FOUND, **CONFLICT},
        description="A director changes a selection of entries at once (all of them when "
        "`entries` is left out, for ratings_from_list and ranks_from_ratings), each change "
        "audited; after the start the answer's `correction` names the rounds already paired.",
    )
    @action(detail=False, methods=["post"], url_path="bulk")
    def bulk(self, request: Request, tournament_pk: str | None = None) -> Response:
        tournament = self._tournament()
        data = valid(EntriesBulkSerializer, request.data)
        what, ids = data["action"], data.get("entries")
        with service_errors():
            if what in ("raise", "lower", "final", "preliminary") and not ids:
                raise ValidationError({"entries": "Choose the entries to change."})
            kwargs: dict[str, Any] = {"actor": request.user, "tournament": tournament}
            if what == "ratings_from_list":
                done = corrections.entries_ratings_update(entry_ids=ids, **kwargs)
            elif what == "ranks_from_ratings":
                done = corrections.entries_ranks_from_ratings(entry_ids=ids, **kwargs)
            elif what in ("raise", "lower"):
                by = data["by"] if what == "raise" else -data["by"]
                done = corrections.entries_rank_shift(entry_ids=ids or [], by=by, **kwargs)
            else:
                final = what == "final"
                done = corrections.entries_final_set(entry_ids=ids or [], final=final, **kwargs)
        return Response(
            {
                "changed": done.changed,
                "unchanged": done.unchanged,
                "correction": correction_body(done.effect),
            }
        )

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


def correction_body(effect: CorrectionEffect | None) -> dict[str, Any] | None:
    """A correction's effect as the API answers it, with its words."""
    if effect is None:
        return None
    return {
        "paired_rounds": list(effect.paired_rounds),
        "changes": list(effect.changes),
        "warning": correction_warning(effect),
    }
