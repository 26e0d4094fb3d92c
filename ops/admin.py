"""Background jobs and worker heartbeats in the admin: read-only, with job progress."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from ops.models import Job, WorkerHeartbeat


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "state", "progress", "failed", "created_by", "created_at")
    list_filter = ("state", "kind")
    list_select_related = ("created_by",)
    readonly_fields = (
        "kind",
        "state",
        "progress",
        "params",
        "total",
        "done",
        "failed",
        "error",
        "created_by",
        "created_at",
        "finished_at",
    )

    @admin.display(description="progress")
    def progress(self, obj: Job) -> str:
        return format_html(
            '<progress max="100" value="{}">{}%</progress> {}/{}',
            obj.percent,
            obj.percent,
            obj.done + obj.failed,
            obj.total,
        )


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(ReadOnlyAdmin):
    list_display = ("hostname", "pid", "started_at", "last_seen")
    readonly_fields = ("hostname", "pid", "started_at", "last_seen")
