"""The directors' admin: tournaments, rounds, games and players, scoped to the director.

A director sees only the tournaments he directs; every change goes through
``games.services``; results are entered on the game's form or a round's result sheet,
never edited here; a locked game is read-only (docs/games.md, "The admin").
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games import services
from games.imports import COLUMNS, players_import_csv
from games.models import Club, Game, Player, ResultSubmission, Round, Tournament
from games.permissions import is_director
from games.services.event_settings import SETTINGS_FIELDS
from games.services.scoring import tournament_rescore
from games.services.tournaments import TOURNAMENT_FIELDS
from ops.admin_mixins import ReadOnlyAdminMixin, ServiceRefusalAdminMixin


def _directed(request: HttpRequest) -> Q:
    """Tournaments the user directs (everything for a superuser)."""
    if request.user.is_superuser:
        return Q()
    return Q(directors=request.user)


def _changed(form: forms.ModelForm[Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {n: form.cleaned_data[n] for n in names if n in form.changed_data}


def _nothing_saved(formsets: Any) -> None:
    """Read-only inlines: tell the admin's change message that nothing changed."""
    for formset in formsets:
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


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


class RoundInline(RoundColumns, admin.TabularInline):
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


class GameInline(admin.TabularInline):
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
class TournamentAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin):
    list_display = ("name", "start_date", "end_date", "system", "rated", "closed_at")
    list_filter = ("rules", "rated", "system")
    search_fields = ("name", "venue")
    date_hierarchy = "start_date"
    fieldsets = (
        (None, {"fields": TOURNAMENT_FIELDS}),
        ("Officials", {"fields": ("directors", "referees")}),
        ("Event settings", {"fields": SETTINGS_FIELDS}),
        ("Tournament day", {"fields": ("day_links", "started_at", "closed_at")}),
    )
    readonly_fields = ("day_links", "started_at", "closed_at")
    inlines = [RoundInline, GameInline]
    actions = ["rescore", "close"]

    @admin.display(description="pages")
    def day_links(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "—"
        return format_html(
            '<a href="{}">entries</a> · <a href="{}">check-in</a> · <a href="{}">standings</a>',
            reverse("games:entries", args=[obj.pk]),
            reverse("games:checkin", args=[obj.pk]),
            reverse("games:standings", args=[obj.pk]),
        )

    @admin.action(description="Close (every result final): the games go to the ratings")
    def close(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            try:
                services.tournament_close(actor=request.user, tournament=tournament)
            except (PermissionDenied, ValidationError) as e:
                self.message_user(
                    request,
                    f"{tournament}: {' '.join(e.messages) if isinstance(e, ValidationError) else e}",
                    messages.ERROR,
                )
                continue
            self.message_user(request, f"{tournament} is closed.")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).filter(_directed(request)).distinct()

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
        settings = _changed(form, SETTINGS_FIELDS)
        if data.get("komi") is None:
            data.pop("komi", None)  # the rules' own komi
        if change:
            changed = _changed(form, TOURNAMENT_FIELDS)
            if changed.get("komi", "") is None:
                changed.pop("komi")
            if changed or settings:
                # The form has already written its values onto ``obj``: the service
                # compares against the stored row (a board size with records on it).
                stored = Tournament.objects.get(pk=obj.pk)
                services.tournament_update(
                    actor=request.user, tournament=stored, settings=settings, **changed
                )
            obj.refresh_from_db()
        else:
            created = services.tournament_create(actor=request.user, settings=settings, **data)
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
        return form

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # The inlines are read-only; directors and referees are named through their
        # services (the creator stays a director of a new tournament).
        _nothing_saved(formsets)
        if "directors" in form.changed_data:
            directors = list(form.cleaned_data["directors"])
            if not change:
                directors.append(request.user)
            services.tournament_officials_set(
                actor=request.user, tournament=form.instance, directors=directors
            )
        if "referees" in form.changed_data:
            services.tournament_referees_set(
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

    def sheet(self) -> list[tuple[int, str]]:
        """(game id, RE) for every open game with a result typed in (a blank line is skipped)."""
        out = []
        for g in self.games:
            text = (self.cleaned_data.get(f"game_{g.pk}") or "").strip()
            if text and not g.is_locked and text != g.result_display:
                out.append((g.pk, text))
        return out


@admin.register(Round)
class RoundAdmin(RoundColumns, admin.ModelAdmin):
    list_display = ("tournament", "number", "date", "game_count", "sheet")
    list_filter = ("tournament",)
    list_select_related = ("tournament",)
    readonly_fields = ("tournament", "number", "date", "sheet")
    fields = ("tournament", "number", "date", "sheet")
    actions = ["enter_results"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        qs = super().get_queryset(request).annotate(n_games=Count("games"))
        if request.user.is_superuser:
            return qs
        return qs.filter(tournament__directors=request.user)

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
            try:
                with transaction.atomic():
                    entered = services.round_results_enter(
                        actor=request.user, round=rnd, results=sheet
                    )
                    if form.cleaned_data.get("finalise"):
                        for game in entered:
                            services.game_finalise(actor=request.user, game=game)
            except ValidationError as exc:
                sheet_errors = exc.messages
            else:
                self.message_user(
                    request, f"{len(sheet)} result(s) entered for round {rnd.number}."
                )
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


# --------------------------------------------------------------------------- games


GAME_PAIRING_FIELDS = ("black", "white", "handicap", "komi", "table", "rules")
GAME_RESULT_FIELDS = (
    "result_display",
    "state",
    "result_submitted_by",
    "locked_at",
    "sgf_warnings",
    "dead_stones",
    "correct_link",
)


class GameAddForm(forms.ModelForm):
    round_number = forms.IntegerField(min_value=1, max_value=32767, label="Round")

    class Meta:
        model = Game
        fields = ("tournament", "black", "white", "handicap", "komi", "table", "rules")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["komi"].required = False
        self.fields["rules"].required = False
        self.fields["handicap"].required = False
        self.fields["handicap"].initial = None
        self.fields[
            "handicap"
        ].help_text = (
            "Leave empty for the tournament's handicap policy (the weaker player takes Black)."
        )
        self.fields["komi"].help_text = "Leave empty for the tournament's komi."
        self.fields["rules"].help_text = "Leave empty for the tournament's rules."


class SubmissionInline(admin.TabularInline):
    model = ResultSubmission
    extra = 0
    can_delete = False
    fields = ("created_at", "kind", "player", "submitted_by", "result", "comment")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "tournament",
        "round_number",
        "table",
        "black",
        "white",
        "handicap",
        "result_display",
        "state",
    )
    list_display_links = ("id",)
    list_filter = ("state", "tournament", "round__number")
    list_select_related = ("tournament", "round", "black", "white")
    search_fields = (
        "black__family_name",
        "black__given_name",
        "white__family_name",
        "white__given_name",
    )
    inlines = [SubmissionInline]
    ordering = ("-tournament__start_date", "round__number", "table", "id")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        qs = super().get_queryset(request).select_related("tournament", "round", "black", "white")
        if request.user.is_superuser:
            return qs
        return qs.filter(tournament__directors=request.user)

    @admin.display(description="round", ordering="round__number")
    def round_number(self, obj: Game) -> int:
        return obj.round.number

    @admin.display(description="result")
    def result_display(self, obj: Game) -> str:
        return obj.result_display or "–"

    @admin.display(description="result")
    def correct_link(self, obj: Game) -> str:
        if obj.is_locked:
            return "locked: this result is final"
        url = reverse("games:game-enter", args=[obj.pk])
        label = "correct the result" if obj.result_reason else "enter the result"
        return format_html('<a href="{}">{}</a>', url, label)

    def get_form(
        self, request: HttpRequest, obj: Game | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = GameAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            return ("tournament", "round_number", *GAME_PAIRING_FIELDS)
        return ("tournament", "round", *GAME_PAIRING_FIELDS, *GAME_RESULT_FIELDS)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            return ()
        if obj.is_locked:
            return ("tournament", "round", *GAME_PAIRING_FIELDS, *GAME_RESULT_FIELDS)
        return ("tournament", "round", *GAME_RESULT_FIELDS)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament" and not request.user.is_superuser:
            kwargs["queryset"] = Tournament.objects.filter(directors=request.user.pk)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if not super().has_change_permission(request, obj):
            return False
        if obj is None:
            return True
        # A locked result is history: the admin shows it, read-only.
        return not obj.is_locked and is_director(request.user, obj.tournament)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if obj is not None and (obj.is_locked or obj.result_reason):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would skip the per-game lock check
        return actions

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            changed = _changed(form, GAME_PAIRING_FIELDS)
            if changed:
                services.game_update(actor=request.user, game=obj, **changed)
            obj.refresh_from_db()
            return
        created = services.game_create(
            actor=request.user,
            tournament=data["tournament"],
            round_number=data["round_number"],
            black=data["black"],
            white=data["white"],
            # Blank: the tournament's handicap policy decides (ratings.strength).
            handicap=data.get("handicap"),
            komi=data.get("komi"),
            table=data.get("table"),
            rules=data.get("rules") or None,
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        _nothing_saved(formsets)  # submissions are read-only history


# --------------------------------------------------------------------------- players


PLAYER_FIELDS = (
    "family_name",
    "given_name",
    "club",
    "country",
    "egd_pin",
    "aga_id",
    "nzgs_id",
    "user",
)


class PlayerForm(forms.ModelForm):
    rank = forms.CharField(max_length=10, help_text="Such as 3k, 2d or 9p+.")

    class Meta:
        model = Player
        fields = PLAYER_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["rank"].initial = str(self.instance.rank)


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A CSV file, UTF-8, with a header row.")


@admin.register(Player)
class PlayerAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin):
    form = PlayerForm
    list_display = ("full_name", "rank_display", "club", "country", "egd_pin", "user")
    list_select_related = ("club", "user")
    search_fields = ("family_name", "given_name", "egd_pin", "aga_id", "nzgs_id")
    list_filter = ("country",)
    fields = ("family_name", "given_name", "rank", *PLAYER_FIELDS[2:])
    autocomplete_fields = ("club",)
    raw_id_fields = ("user",)

    @admin.display(description="rank", ordering="declared_rank")
    def rank_display(self, obj: Player) -> str:
        return str(obj.rank)

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return bool(request.user.is_superuser) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            changed = _changed(form, (*PLAYER_FIELDS, "rank"))
            if changed:
                services.player_update(actor=request.user, player=obj, **changed)
            obj.refresh_from_db()
            return
        created = services.player_create(
            actor=request.user,
            family_name=data["family_name"],
            given_name=data.get("given_name") or "",
            rank=data["rank"],
            club=data.get("club"),
            country=data.get("country") or "",
            egd_pin=data.get("egd_pin"),
            aga_id=data.get("aga_id"),
            nzgs_id=data.get("nzgs_id"),
            user=data.get("user"),
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path(
                "import-csv/",
                self.admin_site.admin_view(self.import_view),
                name="games_player_import",
            )
        ]
        return extra + super().get_urls()

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a CSV of players: all rows created, or none and a report per row."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        report = None
        if request.method == "POST" and form.is_valid():
            report = players_import_csv(actor=request.user, data=form.cleaned_data["file"].read())
            if report.ok:
                self.message_user(request, f"{len(report.created)} player(s) imported.")
                return HttpResponseRedirect(reverse("admin:games_player_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "title": "Import players from CSV",
            "form": form,
            "report": report,
            "columns": COLUMNS,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/player_import.html", context, status=200)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "country")
    search_fields = ("name", "code")


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "game", "kind", "player", "submitted_by", "result")
    list_filter = ("kind",)
    list_select_related = ("game__round", "game__black", "game__white", "player", "submitted_by")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ResultSubmission]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(game__tournament__directors=request.user)
