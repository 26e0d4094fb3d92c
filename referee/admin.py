"""The audit trail and disputes in the admin: read-only, for directors (view permission,
scoped to their tournaments) and superusers.  A tournament's officials (chief referee,
committee) are named here by its directors, through ``tournament_officials_set``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from games.models import Game, Tournament
from games.permissions import is_director
from ops.admin_mixins import ReadOnlyAdminMixin, ServiceRefusalAdminMixin
from ops.models import AuditEntry
from referee import services
from referee.forms import OfficialsFields, officials_initial
from referee.models import Dispute, Ruling, TournamentOfficials


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[AuditEntry]):
    """Rows are only ever added, by services (``ops.audit.audit_record``)."""

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


class RulingInline(admin.TabularInline[Ruling, Dispute]):
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
class DisputeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Dispute]):
    """Read-only: disputes are raised and ruled at the referee desk or the API."""

    list_display = ("id", "game", "kind", "state", "level", "assigned_referee", "created_at")
    list_filter = ("state", "kind", "level")
    list_select_related = ("game__round", "game__black", "game__white", "assigned_referee")
    readonly_fields = (
        "game",
        "kind",
        "raised_by",
        "move_number",
        "claim",
        "evidence",
        "state",
        "level",
        "assigned_referee",
        "created_at",
        "closed_at",
    )
    inlines = [RulingInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Dispute]:
        qs = super().get_queryset(request)
        user: Any = request.user
        return qs if user.is_superuser else qs.filter(game__tournament__directors=user)


class TournamentOfficialsForm(OfficialsFields, forms.ModelForm[TournamentOfficials]):
    """The tournament (when adding) and the officials by username, checked as the service
    checks them: a refusal shows on the form and nothing is saved."""

    class Meta:
        model = TournamentOfficials
        fields = ("tournament",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        instance = kwargs.get("instance")
        if instance is not None and instance.pk:
            kwargs["initial"] = {**officials_initial(instance), **(kwargs.get("initial") or {})}
        super().__init__(*args, **kwargs)


@admin.register(TournamentOfficials)
class TournamentOfficialsAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin[TournamentOfficials]):
    """A director names his tournaments' chief referee and committee through the service
    (never deleted: empty the fields).  A refusal that gets past the form's checks (a
    simultaneous change) is rolled back with the admin's transaction and shown."""

    form = TournamentOfficialsForm
    refusals = (ValidationError, PermissionDenied)
    list_display = ("tournament", "chief_referee", "committee")
    list_select_related = (
        "tournament",
        "chief_referee",
        "committee_1",
        "committee_2",
        "committee_3",
    )
    search_fields = ("tournament__name",)
    fields = ("tournament", "chief_referee", "committee_1", "committee_2", "committee_3")

    def get_queryset(self, request: HttpRequest) -> QuerySet[TournamentOfficials]:
        qs = super().get_queryset(request)
        user: Any = request.user
        return qs if user.is_superuser else qs.filter(tournament__directors=user)

    @admin.display(description="arbitration committee")
    def committee(self, obj: TournamentOfficials) -> str:
        return ", ".join(m.get_username() for m in obj.committee) or "–"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("tournament",) if obj is not None else ()

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament":
            qs = Tournament.objects.filter(officials__isnull=True)
            if not request.user.is_superuser:
                qs = qs.filter(directors=request.user.pk)
            kwargs["queryset"] = qs
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or is_director(request.user, obj.tournament))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: TournamentOfficials, form: Any, change: bool
    ) -> None:
        tournament = obj.tournament if change else form.cleaned_data["tournament"]
        saved = services.tournament_officials_set(
            actor=request.user, tournament=tournament, **form.service_kwargs()
        )
        obj.pk = saved.pk
        obj.refresh_from_db()
