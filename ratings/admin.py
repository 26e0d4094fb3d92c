"""Ratings in the admin: read-only rows, and a page where a director starts a recompute.

The recompute page (``Rating runs → Recompute ratings``) calls
``ratings.services.ratings_recompute_start`` and sends the director to the
job's page in the ops admin, whose progress bar follows the run.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from games import permissions
from games.models import Tournament
from ops.admin_mixins import ReadOnlyAdminMixin
from ops.services import StateConflict
from ops.text import small_number
from ratings import holds, services
from ratings.models import HonoraryTitle, PlayerRating, RatingHistory, RatingHold, RatingRun
from ratings.promotion import admin as promotion_admin  # noqa: F401  (registers its models)


class DirectorsView(ReadOnlyAdminMixin, admin.ModelAdmin[Any]):
    """Directors see rating rows without holding the model permissions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_any_director(request.user) and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)


@admin.register(RatingRun)
class RatingRunAdmin(DirectorsView):
    list_display = (
        "id",
        "algorithm",
        "version",
        "mode",
        "state",
        "from_tournament",
        "events",
        "games",
        "history_rows",
        "started_at",
        "finished_at",
        "job_link",
    )
    list_filter = ("state", "mode", "algorithm")
    list_select_related = ("from_tournament", "job")

    @admin.display(description="job")
    def job_link(self, obj: RatingRun) -> str:
        from django.utils.html import format_html

        if obj.job_id is None:
            return "–"
        return format_html(
            '<a href="{}">#{}</a>', reverse("admin:ops_job_change", args=[obj.job_id]), obj.job_id
        )

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "recompute/",
                self.admin_site.admin_view(self.recompute_view),
                name="ratings_ratingrun_recompute",
            )
        ]
        return own + super().get_urls()

    def recompute_view(self, request: HttpRequest) -> HttpResponse:
        if not permissions.is_any_director(request.user):
            raise PermissionDenied
        if request.method == "POST":
            tid = request.POST.get("from_tournament") or ""
            number = small_number(tid)
            tournament = None if number is None else Tournament.objects.filter(pk=number).first()
            try:
                job = services.ratings_recompute_start(
                    actor=request.user, from_tournament=tournament
                )
            except PermissionDenied as exc:
                messages.error(request, str(exc))
                return HttpResponseRedirect(reverse("admin:ratings_ratingrun_recompute"))
            if job.created_by_id != request.user.pk:
                # Coalesced with the job already waiting, which someone else started.
                messages.success(
                    request, f"A recompute was already waiting (job #{job.pk}): it covers yours."
                )
                return HttpResponseRedirect(reverse("admin:ratings_ratingrun_changelist"))
            messages.success(request, f"Rating recompute queued as job #{job.pk}.")
            return HttpResponseRedirect(reverse("admin:ops_job_change", args=[job.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": "Recompute ratings",
            "opts": self.model._meta,
            "tournaments": Tournament.objects.filter(rated=True).order_by("-end_date", "-id")[:200],
            "last": RatingRun.objects.order_by("-id").first(),
        }
        return TemplateResponse(request, "admin/ratings/recompute.html", context)


@admin.register(PlayerRating)
class PlayerRatingAdmin(DirectorsView):
    list_display = ("player", "rating", "rank", "games", "tournaments", "provisional", "algorithm")
    list_select_related = ("player",)
    search_fields = ("player__family_name", "player__given_name", "player__egd_pin")
    list_filter = ("provisional", "algorithm")


@admin.register(RatingHistory)
class RatingHistoryAdmin(DirectorsView):
    list_display = (
        "player",
        "tournament",
        "event_date",
        "rating_before",
        "rating_after",
        "change",
        "games",
        "wins",
        "algorithm",
        "version",
    )
    list_select_related = ("player", "tournament")
    search_fields = ("player__family_name", "tournament__name")
    date_hierarchy = "event_date"


@admin.register(HonoraryTitle)
class HonoraryTitleAdmin(DirectorsView):
    list_display = ("player", "awarded_by", "awarded_at", "reason")
    list_select_related = ("player", "awarded_by")


@admin.register(RatingHold)
class RatingHoldAdmin(DirectorsView):
    """The held rated games the user may release (all of them for an official); the
    action releases through ``ratings.holds.rating_hold_release``, one audit row each."""

    list_display = (
        "tournament",
        "player",
        "reason",
        "created_by",
        "created_at",
        "released_by",
        "released_at",
    )
    list_filter = ("reason",)
    actions = ["release"]

    def get_queryset(self, request: HttpRequest) -> Any:
        return holds.holds_visible(request.user)

    @admin.action(description="Release the selected games to the ratings")
    def release(self, request: HttpRequest, queryset: Any) -> None:
        done = 0
        for hold in queryset:
            try:
                holds.rating_hold_release(actor=request.user, hold=hold)
                done += 1
            except (PermissionDenied, StateConflict) as exc:
                messages.error(request, f"{hold}: {' '.join(getattr(exc, 'messages', [str(exc)]))}")
        if done:
            messages.success(request, f"Released {done}: the ratings are being computed again.")
