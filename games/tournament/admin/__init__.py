"""The directors' admin of the tournament day: tournaments with their settings and
officials, rounds and their result sheets, and (through ``.pairing``) the pairing
pages.  Registered by ``games.admin`` importing this package.  A director sees only the
tournaments he directs; every change goes through a service.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from games import messages as games_messages
from games import messages as texts
from games import services
from games.models import Game, Round, Tournament
from games.permissions import directed_by, is_director
from games.services.scoring import tournament_rescore
from games.tournament import services as tournament_services
from games.tournament.admin import entries as entries  # registers the entries' admin
from games.tournament.admin.pairing import RoundPairingViews
from games.tournament.admin.timesystem import TimeSystemField
from games.tournament.engine.timesystem import time_system_of
from games.tournament.services.settings import SETTINGS_FIELDS
from games.tournament.services.tournaments import TOURNAMENT_FIELDS
from ops.admin_mixins import (
    ServiceRefusalAdminMixin,
    changed_values,
    saved_nothing,
)
from ops.text import small_number

# --------------------------------------------------------------------------- tournaments


class RoundColumns:
    """The columns a round shows in its own admin and inline in its tournament's
    (the queryset annotates ``n_games``)."""

    @admin.display(description="games")
    def game_count(self, obj: Round) -> int:
        return getattr(obj, "n_games", 0)

    @admin.display(description="result sheet")
    def sheet(self, obj: Round) -> str:
        url = reverse("admin:games_round_results", args=[obj.pk])
        return format_html('<a href="{}">enter results</a>', url)


class RoundInline(RoundColumns, admin.TabularInline[Round, Tournament]):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "date", "game_count", "sheet")
    readonly_fields = ("number", "date", "game_count", "sheet")
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rounds come with their games (game_create makes them)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).annotate(n_games=Count("games"))


class GameInline(admin.TabularInline[Game, Round]):
    model = Game
    extra = 0
    can_delete = False
    fields = ("round", "table", "black", "white", "handicap", "komi", "result_display", "state")
    readonly_fields = fields
    show_change_link = True
    ordering = ("round__number", "table", "id")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("round", "black", "white")


@admin.register(Tournament)
class TournamentAdmin(RoundPairingViews, ServiceRefusalAdminMixin, admin.ModelAdmin[Tournament]):
    list_display = ("name", "start_date", "end_date", "system", "rated", "closed_at")
    list_filter = ("rules", "rated", "system")
    search_fields = ("name", "venue")
    date_hierarchy = "start_date"
    fieldsets = (
        (None, {"fields": TOURNAMENT_FIELDS}),
        ("Officials", {"fields": ("directors", "referees")}),
        ("Event settings", {"fields": (*SETTINGS_FIELDS, "time_derived")}),
        ("Tournament day", {"fields": ("day_links", "started_at", "closed_at")}),
    )
    readonly_fields = ("day_links", "started_at", "closed_at", "time_derived")
    # The games are listed per round (RoundAdmin), not here: a congress's every game
    # inline made this page grow with the event (565 kB at 250 games, megabytes at
    # 5,000), and the pairing page returns here after each confirm.
    inlines = [RoundInline]
    actions = ["rescore", "close"]

    @admin.display(description="time system, as read")
    def time_derived(self, obj: Tournament) -> str:
        # What the files write from the time system (docs/tournaments.md, "Time system").
        if not obj.time_system:
            return texts.time_system_none()
        t = time_system_of(obj.time_system)
        return texts.time_system_read(
            text=t.describe(), adjusted=t.adjusted_seconds() // 60, egf_class=t.egf_class()
        )

    @admin.display(description="pages")
    def day_links(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "—"
        results = format_html_join(
            " · ",
            '<a href="{}">round {}</a>',
            (
                (reverse("games:round-results", args=[obj.pk, n]), n)
                for n in range(1, obj.number_of_rounds + 1)
            ),
        )
        return format_html(
            '<a href="{}">entries</a> · <a href="{}">check-in</a> · <a href="{}">standings</a>'
            " · results: {}",
            reverse("games:entries", args=[obj.pk]),
            reverse("games:checkin", args=[obj.pk]),
            reverse("games:standings", args=[obj.pk]),
            results,
        )

    @admin.action(description="Close (every result final): the games go to the ratings")
    def close(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                tournament_services.tournament_close(actor=request.user, tournament=tournament)
            except (PermissionDenied, ValidationError) as e:
                self.message_user(
                    request,
                    f"{tournament}: {' '.join(e.messages) if isinstance(e, ValidationError) else e}",
                    messages.ERROR,
                )
                continue
            self.message_user(request, f"{tournament} is closed.")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).filter(directed_by(request.user)).distinct()

    def get_urls(self) -> list[URLPattern]:
        return self.pairing_urls() + super().get_urls()

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        pk = small_number(object_id)
        tournament = None if pk is None else Tournament.objects.filter(pk=pk).first()
        rounds_count = tournament.number_of_rounds if tournament is not None else 0
        extra = {**(extra_context or {}), "pairing_rounds": range(1, rounds_count + 1)}
        return super().change_view(request, object_id, form_url, extra)

    @admin.action(description="Re-score every game with a record")
    def rescore(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                job = tournament_rescore(actor=request.user, tournament=tournament)
            except (PermissionDenied, ValidationError) as e:
                self.message_user(request, f"{tournament}: {e}", messages.ERROR)
                continue
            link = reverse("admin:ops_job_change", args=[job.pk])
            self.message_user(
                request,
                format_html(
                    '{}: <a href="{}">re-scoring job #{}</a> queued ({} games, {} already scored).',
                    tournament,
                    link,
                    job.pk,
                    job.total,
                    job.done + job.failed,
                ),
            )

    def has_change_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or is_director(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return bool(request.user.is_superuser) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        data = {n: form.cleaned_data[n] for n in TOURNAMENT_FIELDS if n in form.cleaned_data}
        settings = changed_values(form, SETTINGS_FIELDS)
        if data.get("komi") is None:
            data.pop("komi", None)  # the rules' own komi
        if change:
            changed = changed_values(form, TOURNAMENT_FIELDS)
            if changed.get("komi", "") is None:
                changed.pop("komi")
            if changed or settings:
                # The form has already written its values onto ``obj``: the service
                # compares against the stored row (a board size with records on it).
                stored = Tournament.objects.get(pk=obj.pk)
                tournament_services.tournament_update(
                    actor=request.user, tournament=stored, settings=settings, **changed
                )
            obj.refresh_from_db()
        else:
            created = tournament_services.tournament_create(
                actor=request.user, settings=settings, **data
            )
            obj.pk = created.pk
            obj.refresh_from_db()

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        komi = form.base_fields.get("komi")
        if komi is not None:  # empty: the rules' own komi (as the API does)
            komi.required = False
            komi.initial = None
            komi.help_text = "Leave empty for the rules' komi (6.5 Japanese, 7 New Zealand, ...)."
        if "time_system" in form.base_fields:
            form.base_fields["time_system"] = TimeSystemField(label="Time system")
        return form

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # The inlines are read-only; directors and referees are named through their
        # services (the creator stays a director of a new tournament).
        saved_nothing(formsets)
        if "directors" in form.changed_data:
            directors = list(form.cleaned_data["directors"])
            if not change:
                directors.append(request.user)
            tournament_services.tournament_officials_set(
                actor=request.user, tournament=form.instance, directors=directors
            )
        if "referees" in form.changed_data:
            tournament_services.tournament_referees_set(
                actor=request.user,
                tournament=form.instance,
                referees=list(form.cleaned_data["referees"]),
            )


# --------------------------------------------------------------------------- rounds


class ResultSheetForm(forms.Form):
    finalise = forms.BooleanField(
        required=False,
        initial=True,
        help_text="Finalise the entered results as well (they are then locked for good).",
    )

    def __init__(self, *args: Any, games: list[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = games
        for g in games:
            self.fields[f"game_{g.pk}"] = forms.CharField(
                required=False,
                max_length=20,
                label=f"{g.table or ''} {g.black} – {g.white}".strip(),
                initial=g.result_display,
                disabled=g.is_locked,
                widget=forms.TextInput(attrs={"size": 8, "list": "result-choices"}),
            )

    def rows(self) -> list[tuple[Game, forms.BoundField]]:
        return [(g, self[f"game_{g.pk}"]) for g in self.games]

    def mark(self, exc: ValidationError) -> None:
        """Mark the field of each game the service's errors name (code "game-<id>")."""
        for error in getattr(exc, "error_dict", {}).get("results", []):
            name = f"game_{str(error.code).removeprefix('game-')}"
            if name in self.fields:
                self.add_error(name, error.messages)

    def sheet(self) -> list[tuple[int, str]]:
        """(game id, RE) for every open game with a result typed in (a blank line is skipped)."""
        out = []
        for g in self.games:
            text = (self.cleaned_data.get(f"game_{g.pk}") or "").strip()
            if text and not g.is_locked and text != g.result_display:
                out.append((g.pk, text))
        return out


@admin.register(Round)
class RoundAdmin(RoundColumns, admin.ModelAdmin[Round]):
    list_display = ("tournament", "number", "date", "game_count", "sheet")
    list_filter = ("tournament",)
    list_select_related = ("tournament",)
    readonly_fields = ("tournament", "number", "date", "sheet")
    fields = ("tournament", "number", "date", "sheet")
    inlines = [GameInline]
    actions = ["enter_results"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        qs = super().get_queryset(request).annotate(n_games=Count("games"))
        return qs.filter(tournament__in=Tournament.objects.filter(directed_by(request.user)))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a round is made by game_create / round_get_or_create

    def has_delete_permission(self, request: HttpRequest, obj: Round | None = None) -> bool:
        return False

    @admin.action(description="Enter results from a result sheet")
    def enter_results(self, request: HttpRequest, queryset: QuerySet[Round]) -> Any:
        rounds = list(queryset[:2])
        if len(rounds) != 1:
            self.message_user(request, "Choose exactly one round.", messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:games_round_results", args=[rounds[0].pk]))

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path(
                "<int:pk>/results/",
                self.admin_site.admin_view(self.results_view),
                name="games_round_results",
            )
        ]
        return extra + super().get_urls()

    def results_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The result sheet: one field per game, all entered at once or none."""
        rnd = get_object_or_404(self.get_queryset(request).select_related("tournament"), pk=pk)
        if not is_director(request.user, rnd.tournament):
            raise PermissionDenied
        games = list(
            rnd.games.select_related("black", "white", "tournament").order_by("table", "id")
        )
        form = ResultSheetForm(request.POST or None, games=games)
        sheet_errors: list[str] = []
        if request.method == "POST" and form.is_valid():
            sheet = form.sheet()
            held: list[tuple[Game, str]] = []
            try:
                with transaction.atomic():
                    entered = services.round_results_enter(
                        actor=request.user, round=rnd, results=sheet
                    )
                    if form.cleaned_data.get("finalise"):
                        held = services.games_finalise(actor=request.user, games=entered).held
            except ValidationError as exc:
                sheet_errors = exc.messages
                form.mark(exc)
            else:
                self.message_user(
                    request, f"{len(sheet)} result(s) entered for round {rnd.number}."
                )
                if held:  # a disputed game keeps its dispute: the sheet never finalises it
                    self.message_user(request, games_messages.held_games(held), messages.WARNING)
                return HttpResponseRedirect(
                    reverse("admin:games_tournament_change", args=[rnd.tournament_id])
                )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Result sheet: {rnd}",
            "round": rnd,
            "form": form,
            "sheet_errors": sheet_errors,
            "opts": self.model._meta,
            "suggestions": ("B+R", "W+R", "B+T", "W+T", "B+F", "W+F", "0", "Void"),
        }
        return TemplateResponse(request, "admin/games/round_results.html", context)
