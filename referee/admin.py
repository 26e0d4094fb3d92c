"""The audit trail in the admin: read-only, for directors (view permission) and superusers."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from referee.models import AuditEntry


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

    # Rows are only ever added, by services (referee.audit.audit_record).
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
