"""Promotions in the admin: policies (as JSON), candidates (one at a time or in bulk), rank history.

Every change goes through ``ratings.promotion.services``.  A federation
director sees and decides all; another staff user sees the default policy and
what belongs to the tournaments he directs (docs/promotions.md).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.models import Tournament
from ops.admin_mixins import ReadOnlyAdminMixin, ServiceRefusalAdminMixin
from ratings.models import CandidateState, PromotionCandidate, PromotionPolicy, RankChange
from ratings.promotion import services


def _directed(request: HttpRequest) -> QuerySet[Tournament]:
    return Tournament.objects.filter(directors=request.user.pk)


def _errors(request: HttpRequest, exc: Exception, admin_obj: admin.ModelAdmin[Any]) -> None:
    texts = exc.messages if isinstance(exc, ValidationError) else [str(exc) or "Not allowed."]
    for text in texts:
        admin_obj.message_user(request, text, messages.ERROR)


# --------------------------------------------------------------------------- policies


class PrettyJSONField(forms.JSONField):
    """The policy as indented JSON in a roomy monospace textarea."""

    def prepare_value(self, value: Any) -> str:
        if isinstance(value, str):  # the text a director typed, shown back with its error
            return value
        return json.dumps(value, indent=2, ensure_ascii=False)


class PolicyForm(forms.ModelForm[PromotionPolicy]):
    params = PrettyJSONField(
        required=False,  # "{}" is a whole policy (every parameter at its default)
        widget=forms.Textarea(attrs={"rows": 28, "cols": 90, "style": "font-family: monospace"}),
        help_text="bands.kyu / low_dan / high_dan: {combine: any|all, criteria: [...]}; "
        "criteria: rating_threshold, wins_at_rank, net_win_ladder, result_table; "
        "high_dan_from, max_grades_per_event, revoke_dan, kyu_demotion {margin, events}. "
        "See docs/promotions.md.",
    )
    make_active = forms.BooleanField(
        required=False,
        label="Put this policy in force",
        help_text="Replaces the active policy of the same scope (the default, or the tournament's).",
    )

    class Meta:
        model = PromotionPolicy
        fields = ["name", "tournament", "params"]

    def __init__(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        if request is not None and not services.is_federation_director(request.user):
            self.fields["tournament"].queryset = _directed(request)  # type: ignore[attr-defined]
            self.fields["tournament"].required = True

    def clean(self) -> dict[str, Any]:
        # ``PromotionPolicy.clean`` runs ``from_dict`` on the parameters and puts the
        # engine's message ("bands.kyu.criteria[0].wins_at_rank.window: must be ...")
        # on the params field.
        data = super().clean() or {}
        user = self.request.user if self.request is not None else None
        if "tournament" in data and not services.can_manage_policy(user, data["tournament"]):
            self.add_error("tournament", "Only federation directors set the default policy.")
        return data


@admin.register(PromotionPolicy)
class PromotionPolicyAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin[PromotionPolicy]):
    form = PolicyForm
    list_display = ("name", "scope", "active", "updated_at")
    list_filter = ("active",)
    list_select_related = ("tournament",)
    search_fields = ("name", "tournament__name")
    readonly_fields = ("active", "created_by", "created_at", "updated_at")
    actions = ["activate", "deactivate"]
    refusals = (ValidationError, PermissionDenied)

    @admin.display(description="scope")
    def scope(self, obj: PromotionPolicy) -> str:
        return "federation default" if obj.tournament_id is None else str(obj.tournament)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kw: Any
    ) -> Any:
        base = super().get_form(request, obj, change, **kw)

        class Bound(base):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, request=request, **kwargs)

        return Bound

    def get_queryset(self, request: HttpRequest) -> QuerySet[PromotionPolicy]:
        qs = super().get_queryset(request)
        if services.is_federation_director(request.user):
            return qs
        return qs.filter(Q(tournament__isnull=True) | Q(tournament__in=_directed(request)))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        if obj is None:
            return allowed
        return allowed and services.can_manage_policy(request.user, obj.tournament)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # candidates name their policy; switch a policy off instead

    def save_model(
        self, request: HttpRequest, obj: PromotionPolicy, form: Any, change: bool
    ) -> None:
        data = form.cleaned_data
        if change:
            changed = {n: data[n] for n in ("name", "params") if n in form.changed_data}
            policy = services.promotion_policy_update(actor=request.user, policy=obj, **changed)
            if data.get("make_active"):
                services.promotion_policy_activate(actor=request.user, policy=policy)
        else:
            policy = services.promotion_policy_create(
                actor=request.user,
                name=data["name"],
                params=data["params"],
                tournament=data.get("tournament"),
                active=bool(data.get("make_active")),
            )
            obj.pk = policy.pk
        obj.refresh_from_db()

    @admin.action(description="Put the selected policy in force", permissions=["change"])
    def activate(self, request: HttpRequest, queryset: QuerySet[PromotionPolicy]) -> None:
        for policy in queryset:
            try:
                services.promotion_policy_activate(actor=request.user, policy=policy)
            except (ValidationError, PermissionDenied) as exc:
                _errors(request, exc, self)
            else:
                self.message_user(request, f"{policy.name} is in force.")

    @admin.action(description="Switch the selected tournament policies off", permissions=["change"])
    def deactivate(self, request: HttpRequest, queryset: QuerySet[PromotionPolicy]) -> None:
        for policy in queryset:
            try:
                services.promotion_policy_deactivate(actor=request.user, policy=policy)
            except (ValidationError, PermissionDenied) as exc:
                _errors(request, exc, self)


# --------------------------------------------------------------------------- candidates


class RejectForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=2000)


@admin.register(PromotionCandidate)
class PromotionCandidateAdmin(admin.ModelAdmin[PromotionCandidate]):
    list_display = (
        "player",
        "change",
        "criterion",
        "trigger_tournament",
        "state",
        "created_at",
        "decide_link",
    )
    list_filter = ("state", "direction")
    list_select_related = ("player", "trigger_tournament")
    search_fields = ("player__family_name", "player__given_name", "trigger_tournament__name")
    actions = ["approve_selected", "reject_selected"]
    readonly_fields = (
        "player",
        "old_rank",
        "new_rank",
        "direction",
        "criterion",
        "evidence",
        "trigger_tournament",
        "policy",
        "state",
        "idempotency_key",
        "created_at",
        "decided_by",
        "decided_at",
        "reason",
    )

    @admin.display(description="rank")
    def change(self, obj: PromotionCandidate) -> str:
        return f"{obj.old_rank_value} → {obj.new_rank_value}"

    @admin.display(description="")
    def decide_link(self, obj: PromotionCandidate) -> str:
        if obj.state != CandidateState.PENDING:
            return ""
        url = reverse("admin:ratings_promotioncandidate_decide", args=[obj.pk])
        return format_html('<a href="{}">decide</a>', url)

    def get_queryset(self, request: HttpRequest) -> QuerySet[PromotionCandidate]:
        qs = super().get_queryset(request)
        if services.is_federation_director(request.user):
            return qs
        return qs.filter(trigger_tournament__in=_directed(request))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:pk>/decide/",
                self.admin_site.admin_view(self.decide_view),
                name="ratings_promotioncandidate_decide",
            ),
        ]
        return own + super().get_urls()

    def _report(self, request: HttpRequest, outcome: services.BulkOutcome, verb: str) -> None:
        if outcome.done:
            self.message_user(request, f"{len(outcome.done)} candidate(s) {verb}.")
        for c, why in outcome.refused:
            self.message_user(request, f"{c.player}: {why}", messages.ERROR)

    def decide_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """One candidate: its evidence, and Approve / Reject (with a reason)."""
        candidate = get_object_or_404(self.get_queryset(request), pk=pk)
        if not services.can_decide(request.user, candidate):
            raise PermissionDenied
        form = RejectForm(request.POST if "reject" in request.POST else None)
        if request.method == "POST" and ("approve" in request.POST or form.is_valid()):
            approve = "approve" in request.POST
            reason = "" if approve else form.cleaned_data["reason"]
            outcome = services.promotion_candidates_decide(
                actor=request.user, candidates=[candidate], approve=approve, reason=reason
            )
            self._report(request, outcome, "approved" if approve else "rejected")
            return HttpResponseRedirect(reverse("admin:ratings_promotioncandidate_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Promotion candidate: {candidate.player}",
            "opts": self.model._meta,
            "candidate": candidate,
            "form": form,
        }
        return TemplateResponse(request, "admin/ratings/promotioncandidate/decide.html", context)

    @admin.action(description="Approve the selected candidates", permissions=["change"])
    def approve_selected(
        self, request: HttpRequest, queryset: QuerySet[PromotionCandidate]
    ) -> None:
        outcome = services.promotion_candidates_decide(
            actor=request.user,
            candidates=list(queryset.order_by("created_at", "id")),
            approve=True,
        )
        self._report(request, outcome, "approved")

    @admin.action(description="Reject the selected candidates…", permissions=["change"])
    def reject_selected(
        self, request: HttpRequest, queryset: QuerySet[PromotionCandidate]
    ) -> HttpResponse | None:
        form = RejectForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            outcome = services.promotion_candidates_decide(
                actor=request.user,
                candidates=list(queryset),
                approve=False,
                reason=form.cleaned_data["reason"],
            )
            self._report(request, outcome, "rejected")
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Reject promotion candidates",
            "opts": self.model._meta,
            "candidates": queryset,
            "form": form,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/ratings/promotioncandidate/reject.html", context)


# --------------------------------------------------------------------------- rank history


@admin.register(RankChange)
class RankChangeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[RankChange]):
    """The history is written by the services only."""

    list_display = (
        "player",
        "old_rank",
        "new_rank",
        "kind",
        "since",
        "changed_at",
        "changed_by",
        "tournament",
    )
    list_filter = ("kind",)
    list_select_related = ("player", "changed_by", "tournament")
    search_fields = ("player__family_name", "player__given_name")
