"""People in the admin.

- The review list of possible duplicates (docs/tournaments.md, "One person across
  events"): each pair an import could not tell apart, with both players' records a click
  away; "Keep apart" records that they are two people (``games.people.services.duplicates``).
- Users: a superuser names and revokes federation officials with the list's actions,
  through the audited service; the group itself is never changed by hand.  Django's own
  user form edits a user's groups: the Federation officials group is left out of it, and
  a membership it had is kept, so the grant has one path, audited.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import DuplicateState, Player, PossibleDuplicate
from games.people.selectors import duplicates_visible
from games.people.services.duplicates import duplicate_keep_apart, duplicate_merge
from games.people.services.grants import (
    FEDERATION_GROUP,
    federation_official_grant,
    federation_official_revoke,
)
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


User = get_user_model()


class OfficialsUserAdmin(UserAdmin[Any]):
    actions = ["name_federation_officials", "revoke_federation_officials"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if not request.user.is_superuser:
            actions.pop("name_federation_officials", None)
            actions.pop("revoke_federation_officials", None)
        return actions

    @admin.action(description="Name the selected users federation officials")
    def name_federation_officials(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for user in queryset:
            federation_official_grant(actor=request.user, user=user)
        self.message_user(request, f"{queryset.count()} federation official(s) named.")

    @admin.action(description="Revoke the selected users' federation official powers")
    def revoke_federation_officials(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for user in queryset:
            federation_official_revoke(actor=request.user, user=user)
        self.message_user(request, f"{queryset.count()} federation official(s) revoked.")

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "groups":
            kwargs["queryset"] = Group.objects.exclude(name=FEDERATION_GROUP)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: Any) -> None:
        official = (
            form.instance.pk is not None
            and form.instance.groups.filter(name=FEDERATION_GROUP).exists()
        )
        super().save_related(request, form, formsets, change)
        if official:  # the form does not offer the group: keep it as it was
            form.instance.groups.add(Group.objects.get(name=FEDERATION_GROUP))


class OfficialsGroupAdmin(GroupAdmin):
    """The Federation officials group cannot be renamed, deleted or given permissions
    by hand: its powers are checked by name, and its members change through the service."""

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.name == FEDERATION_GROUP:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.name == FEDERATION_GROUP:
            return False
        return super().has_delete_permission(request, obj)


admin.site.unregister(User)
admin.site.register(User, OfficialsUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, OfficialsGroupAdmin)
