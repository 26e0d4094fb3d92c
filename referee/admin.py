"""The audit trail and disputes in the admin: read-only, for directors (view permission,
scoped to their tournaments) and superusers."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from games.models import Game
from referee.models import AuditEntry, Dispute, Ruling


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "action", "object_type", "object_id", "object_repr", "actor")
    list_filter = ("action", "object_type")
    search_fields = ("object_repr", "object_id", "action")
    list_select_related = ("actor",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "created_at",
        "actor",
        "action",
        "object_type",
        "object_id",
        "object_repr",
        "old_value",
        "new_value",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuditEntry]:
        """A director sees the entries about his tournaments, their games and disputes."""
        qs = super().get_queryset(request)
        user: Any = request.user
        if user.is_superuser:
            return qs
        tournaments = list(user.directed_tournaments.values_list("pk", flat=True))
        games = Game.objects.filter(tournament__in=tournaments).values_list("pk", flat=True)
        disputes = Dispute.objects.filter(game__tournament__in=tournaments).values_list(
            "pk", flat=True
        )
        return qs.filter(
            Q(object_type="games.tournament", object_id__in=[str(t) for t in tournaments])
            | Q(object_type="games.game", object_id__in=[str(g) for g in games])
            | Q(object_type="referee.dispute", object_id__in=[str(d) for d in disputes])
        )

    # Rows are only ever added, by services (referee.audit.audit_record).
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RulingInline(admin.TabularInline):
    model = Ruling
    extra = 0
    fields = ("level", "decided_by", "decision", "result", "reasons", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    """Read-only: disputes are raised and ruled at the referee desk or the API."""

    list_display = ("id", "game", "kind", "state", "level", "assigned_referee", "created_at")
    list_filter = ("state", "kind", "level")
    list_select_related = ("game__round", "game__black", "game__white", "assigned_referee")
    readonly_fields = (
        "game", "kind", "raised_by", "move_number", "claim", "evidence", "state", "level",
        "assigned_referee", "created_at", "closed_at",
    )  # fmt: skip
    inlines = [RulingInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Dispute]:
        qs = super().get_queryset(request)
        user: Any = request.user
        return qs if user.is_superuser else qs.filter(game__tournament__directors=user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
