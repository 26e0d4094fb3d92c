"""Users in the admin: a superuser names and revokes federation officials with the list's
actions, through the audited service; the group itself is never changed by hand.

Django's own user form edits a user's groups: the Federation officials group is left
out of it, and a membership it had is kept, so the grant has one path, audited.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.db.models import QuerySet
from django.http import HttpRequest

from games.groups import FEDERATION_GROUP, federation_official_grant, federation_official_revoke

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
