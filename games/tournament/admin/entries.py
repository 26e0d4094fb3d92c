"""The directors' admin of entries: a tournament's entries listed, and the bulk changes
of a selection (OpenGotha's Players Quick Check) as admin actions, each through
``games.tournament.services.corrections``.  A director sees the entries of the
tournaments he directs; single corrections go through the entries page and the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from games.messages import entries_changed
from games.models import Tournament, TournamentEntry
from games.permissions import directed_by
from games.tournament.services import corrections
from ops.services import StateConflict


@admin.register(TournamentEntry)
class TournamentEntryAdmin(admin.ModelAdmin[TournamentEntry]):
    list_display = (
        "player",
        "event_name",
        "tournament",
        "rank_display",
        "rating",
        "rating_origin",
        "smms_correction",
        "final",
    )
    list_filter = ("tournament", "final")
    list_select_related = ("player", "tournament")
    search_fields = ("player__family_name", "player__given_name", "family_name", "given_name")
    actions = [
        "ratings_from_list",
        "ranks_from_ratings",
        "raise_rank",
        "lower_rank",
        "make_final",
        "make_preliminary",
    ]

    @admin.display(description="name in this event")
    def event_name(self, obj: TournamentEntry) -> str:
        return f"{obj.family_name} {obj.given_name}".strip()

    @admin.display(description="rank", ordering="rank")
    def rank_display(self, obj: TournamentEntry) -> str:
        return obj.get_rank_display()

    def get_queryset(self, request: HttpRequest) -> QuerySet[TournamentEntry]:
        directed = Tournament.objects.filter(directed_by(request.user))
        return super().get_queryset(request).filter(tournament__in=directed)

    # Entries are added, corrected and removed through the entries page and the API
    # (their services); here a selection changes through the actions.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def _each_tournament(
        self,
        request: HttpRequest,
        queryset: QuerySet[TournamentEntry],
        change: Callable[..., corrections.BulkChange],
        **kwargs: Any,
    ) -> None:
        """``change`` the selected entries of each tournament, and say what it did."""
        by_tournament: dict[int, list[int]] = {}
        for pk, tournament_id in queryset.values_list("pk", "tournament_id"):
            by_tournament.setdefault(tournament_id, []).append(pk)
        for tournament in Tournament.objects.filter(pk__in=by_tournament):
            try:
                done = change(
                    actor=request.user,
                    tournament=tournament,
                    entry_ids=by_tournament[tournament.pk],
                    **kwargs,
                )
            except (PermissionDenied, ValidationError, StateConflict) as e:
                text = " ".join(e.messages) if isinstance(e, ValidationError) else str(e)
                self.message_user(request, f"{tournament}: {text}", messages.ERROR)
                continue
            text = entries_changed(
                tournament=tournament,
                changed=done.changed,
                unchanged=done.unchanged,
                effect=done.effect,
            )
            warned = done.changed and done.effect is not None
            self.message_user(request, text, messages.WARNING if warned else messages.SUCCESS)

    @admin.action(description="Update ratings from the current rating lists")
    def ratings_from_list(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        self._each_tournament(request, queryset, corrections.entries_ratings_update)

    @admin.action(description="Ranks from ratings")
    def ranks_from_ratings(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        self._each_tournament(request, queryset, corrections.entries_ranks_from_ratings)

    @admin.action(description="Raise the rank by one")
    def raise_rank(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        self._each_tournament(request, queryset, corrections.entries_rank_shift, by=1)

    @admin.action(description="Lower the rank by one")
    def lower_rank(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        self._each_tournament(request, queryset, corrections.entries_rank_shift, by=-1)

    @admin.action(description="Make the registration final")
    def make_final(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        self._each_tournament(request, queryset, corrections.entries_final_set, final=True)

    @admin.action(description="Make the registration preliminary")
    def make_preliminary(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> None:
        self._each_tournament(request, queryset, corrections.entries_final_set, final=False)
