"""The review list of possible duplicates (docs/tournaments.md, "One person across
events"): each pair an import could not tell apart, with both players' records a click
away; "Keep apart" records that they are two people (``games.services.duplicates``)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import DuplicateState, Player, PossibleDuplicate
from games.services.duplicates import duplicate_keep_apart, duplicate_merge, duplicates_visible
from ops.admin_mixins import ReadOnlyAdminMixin
from ops.services import StateConflict


def _player_link(p: Player) -> str:
    url = reverse("admin:games_player_change", args=[p.pk])
    pin = f", EGD {p.egd_pin}" if p.egd_pin else ""
    return format_html('<a href="{}">{} ({}{})</a>', url, p.full_name, p.rank, pin)


@admin.register(PossibleDuplicate)
class PossibleDuplicateAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[PossibleDuplicate]):
    list_display = ("new_player", "existing_player", "reason", "tournament", "state")
    list_filter = ("state",)
    list_select_related = ("player", "other", "tournament")
    actions = ("keep_apart", "merge_into_existing")
    search_fields = ("player__family_name", "other__family_name", "reason")

    def get_queryset(self, request: HttpRequest) -> QuerySet[PossibleDuplicate]:
        # The same pairs as the review page (games:duplicates) shows this user.
        return (
            super()
            .get_queryset(request)
            .filter(pk__in=duplicates_visible(request.user).values("pk"))
        )

    @admin.display(description="player (from the import)")
    def new_player(self, obj: PossibleDuplicate) -> str:
        return _player_link(obj.player)

    @admin.display(description="could be")
    def existing_player(self, obj: PossibleDuplicate) -> str:
        return _player_link(obj.other)

    @admin.action(description="Keep apart: two different people")
    def keep_apart(self, request: HttpRequest, queryset: QuerySet[PossibleDuplicate]) -> None:
        done = 0
        for dup in queryset.filter(state=DuplicateState.OPEN)[:500]:
            try:
                duplicate_keep_apart(actor=request.user, duplicate=dup)
            except (PermissionDenied, StateConflict) as e:
                self.message_user(request, f"{dup}: {e}", messages.ERROR)
                continue
            done += 1
        self.message_user(request, f"{done} pair(s) kept apart.", messages.SUCCESS)

    @admin.action(description="Merge: one person (the existing record is kept)")
    def merge_into_existing(
        self, request: HttpRequest, queryset: QuerySet[PossibleDuplicate]
    ) -> None:
        done = 0
        for dup in queryset.filter(state=DuplicateState.OPEN).select_related("other")[:50]:
            try:
                duplicate_merge(actor=request.user, duplicate=dup, keep=dup.other)
            except (PermissionDenied, StateConflict, ValidationError) as e:
                text = " ".join(e.messages) if isinstance(e, ValidationError) else str(e)
                self.message_user(request, f"{dup}: {text}", messages.ERROR)
                continue
            done += 1
        self.message_user(request, f"{done} pair(s) merged.", messages.SUCCESS)
