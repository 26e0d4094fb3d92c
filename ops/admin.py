"""Background jobs and worker heartbeats in the admin: read-only, with job progress."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from ops.admin_mixins import ReadOnlyAdminMixin
from ops.models import Job, WorkerHeartbeat


@admin.register(Job)
class JobAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Job]):
    """Superusers see every job; anyone else in the admin the jobs he started (the API's
    ``/jobs/{id}/`` also shows a tournament's jobs to its directors)."""

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

    def get_queryset(self, request: HttpRequest) -> QuerySet[Job]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(created_by=request.user)

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
class WorkerHeartbeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ("hostname", "pid", "started_at", "last_seen")
    readonly_fields = ("hostname", "pid", "started_at", "last_seen")
