"""The directors' admin: tournaments, rounds, games and players, scoped to the director.

A director sees only the tournaments he directs; every change goes through
``games.services``; results are entered on the game's form or a round's result sheet,
never edited here; a locked game is read-only (docs/games.md, "The admin").
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games import selectors, services
from games.imports import COLUMNS, players_import_upload
from games.models import Club, Game, Player, ResultSubmission, Round, Tournament
from games.permissions import can_edit_player, can_link_account, is_director
from games.services import rounds
from games.services.event_settings import SETTINGS_FIELDS
from games.services.invitations import player_invite
from games.services.scoring import tournament_rescore
from games.services.tournaments import TOURNAMENT_FIELDS
from games.tournament.opengotha import rank_text
from games.tournament.pairing import PairingParams
from games.tournament.pairing.params import DUDD_MODES, SEED_SYSTEMS, XML_NAMES
from ops.admin_mixins import ReadOnlyAdminMixin, ServiceRefusalAdminMixin
from ops.services import UNSET, StateConflict, Unset


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


# --------------------------------------------------------------------------- round pairing


class PairingChoiceForm(forms.Form):
    """Step 1 of "Pair round R": who plays, and who sits out."""

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"] = forms.TypedMultipleChoiceField(
            choices=choices,
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text="Players to pair (those checked in to play are ticked).",
        )
        self.fields["bye"] = forms.ChoiceField(
            choices=[("auto", "chosen by the rule if the field is odd"), ("none", "nobody")]
            + [(str(pk), label) for pk, label in choices],
            initial="auto",
            help_text="The bye: the lowest McMahon score (Swiss: rank and wins) without one yet.",
        )


class PairingEditForm(forms.Form):
    """Step 2: the proposed games, to swap, unpair or pair by hand before confirming."""

    def __init__(
        self, *args: Any, choices: list[tuple[int, str]], rows: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        options = [("", "—"), *((str(pk), label) for pk, label in choices)]
        self.rows = rows
        self.fields["rows"] = forms.IntegerField(widget=forms.HiddenInput, initial=rows)
        for i in range(rows):
            self.fields[f"black_{i}"] = forms.ChoiceField(choices=options, required=False)
            self.fields[f"white_{i}"] = forms.ChoiceField(choices=options, required=False)
            self.fields[f"handicap_{i}"] = forms.IntegerField(
                min_value=0, max_value=9, initial=0, required=False
            )
            self.fields[f"swap_{i}"] = forms.BooleanField(required=False, label="swap")
        self.fields["bye"] = forms.ChoiceField(choices=options, required=False)

    def games(self) -> list[tuple[int, int, int]]:
        """(black, white, handicap) of every complete row, swaps applied."""
        out = []
        for i in range(self.rows):
            black = self.cleaned_data.get(f"black_{i}")
            white = self.cleaned_data.get(f"white_{i}")
            if not black or not white:
                continue  # unpaired
            pair = (
                (int(white), int(black))
                if self.cleaned_data.get(f"swap_{i}")
                else (
                    int(black),
                    int(white),
                )
            )
            out.append((*pair, self.cleaned_data.get(f"handicap_{i}") or 0))
        return out

    def bye(self) -> int | None:
        value = self.cleaned_data.get("bye")
        return int(value) if value else None

    def row_fields(self) -> list[tuple[forms.BoundField, ...]]:
        return [
            (self[f"black_{i}"], self[f"white_{i}"], self[f"handicap_{i}"], self[f"swap_{i}"])
            for i in range(self.rows)
        ]


class RoundPairingViews:
    """ "Pair round R" from the tournament page (docs/tournaments.md, "Pairing"): choose
    who plays, preview the games with each pair's cost in words, swap, unpair or pair by
    hand with warnings, confirm; undo a round without results; print the pairing list by
    table or by name, and result slips."""

    admin_site: admin.AdminSite

    def pairing_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/rounds/<int:number>/pair/",
                view(self.pair_view),
                name="games_tournament_pair",
            ),
            path(
                "<int:pk>/pairing-settings/",
                view(self.pairing_settings_view),
                name="games_tournament_pairing_settings",
            ),
            path(
                "<int:pk>/rounds/<int:number>/print/",
                view(self.print_view),
                name="games_tournament_pairing_print",
            ),
        ]

    def _tournament(self, request: HttpRequest, pk: int, number: int) -> Tournament:
        tournament = get_object_or_404(Tournament, pk=pk)
        if not is_director(request.user, tournament):
            raise PermissionDenied
        if not 1 <= number <= tournament.number_of_rounds:
            raise Http404("No such round.")
        return tournament

    def pair_view(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        tournament = self._tournament(request, pk, number)
        view = selectors.round_view(tournament, number)
        choices = view.choices
        step = request.POST.get("step", "") if request.method == "POST" else ""
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": f"Pair round {number}: {tournament}",
            "tournament": tournament,
            "number": number,
            "opts": Tournament._meta,
            "has_games": view.has_games,
            "has_results": view.has_results,
            "errors": [],
        }
        choose = PairingChoiceForm(
            request.POST if step == "preview" else None,
            choices=choices,
            initial={"players": view.playing, "bye": str(view.bye) if view.bye else "auto"},
        )
        context["choose"] = choose
        try:
            if step == "preview" and choose.is_valid():
                bye_choice = choose.cleaned_data["bye"]
                bye: int | Unset | None = (
                    UNSET
                    if bye_choice == "auto"
                    else None
                    if bye_choice == "none"
                    else int(bye_choice)
                )
                result = rounds.round_pair(
                    actor=request.user,
                    tournament=tournament,
                    round_number=number,
                    players=choose.cleaned_data["players"],
                    bye=bye,
                    dry_run=True,
                    explain=True,
                )
                initial: dict[str, Any] = {"bye": str(result.bye or "")}
                for i, g in enumerate(result.games):
                    initial |= {
                        f"black_{i}": str(g.black),
                        f"white_{i}": str(g.white),
                        f"handicap_{i}": g.handicap,
                    }
                edit = PairingEditForm(initial=initial, choices=choices, rows=len(result.games) + 2)
                context |= {
                    "edit": edit,
                    "proposal": result,
                    "rows": self._rows(view, edit, result),
                }
            elif step in ("check", "confirm"):
                rows = int(request.POST.get("rows", "0") or 0)
                edit = PairingEditForm(request.POST, choices=choices, rows=min(max(rows, 0), 2000))
                if edit.is_valid():
                    games = edit.games()
                    if step == "confirm":
                        created = rounds.round_games_set(
                            actor=request.user,
                            tournament=tournament,
                            round_number=number,
                            games=games,
                            bye=edit.bye(),
                        )
                        self.message_user(  # type: ignore[attr-defined]
                            request, f"Round {number}: {len(created)} games paired."
                        )
                        return HttpResponseRedirect(
                            reverse("admin:games_tournament_change", args=[tournament.pk])
                        )
                    context |= {"edit": edit, "rows": self._rows(view, edit, None)}
                else:
                    context |= {"edit": edit, "rows": self._rows(view, edit, None)}
            elif step == "undo":
                removed = rounds.round_unpair(
                    actor=request.user, tournament=tournament, round_number=number
                )
                self.message_user(  # type: ignore[attr-defined]
                    request, f"Round {number}: {removed} games removed."
                )
                return HttpResponseRedirect(
                    reverse("admin:games_tournament_pair", args=[tournament.pk, number])
                )
        except ValidationError as exc:
            context["errors"] = exc.messages
        return TemplateResponse(request, "admin/games/tournament_pair.html", context)

    def _rows(
        self, view: selectors.RoundView, edit: PairingEditForm, proposal: rounds.RoundPairing | None
    ) -> list[dict[str, Any]]:
        """One line per row of the edit form: the players, their ranks and scores, and the
        proposal's reasons or the warnings of the pairs as edited."""
        reasons = {}
        if proposal is not None:
            reasons = {(g.black, g.white): (g, list(g.reasons)) for g in proposal.games}
        warnings = view.warnings(edit.games()) if edit.is_bound and edit.is_valid() else {}
        out = []
        for i, fields in enumerate(edit.row_fields()):
            black = edit[f"black_{i}"].value()
            white = edit[f"white_{i}"].value()
            b, w = (int(black) if black else None), (int(white) if white else None)
            game, words = reasons.get((b, w), (None, []))  # type: ignore[arg-type]
            out.append(
                {
                    "table": i + 1,
                    "fields": fields,
                    "black": view.describe(b),
                    "white": view.describe(w),
                    "komi": game.komi if game else "",
                    "words": words,
                    "warnings": warnings.get((b, w), []) if b and w else [],
                }
            )
        return out

    def pairing_settings_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Every OpenGotha pairing parameter, with OpenGotha's defaults for the system."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if not is_director(request.user, tournament):
            raise PermissionDenied
        current = PairingParams.from_opengotha(tournament.pairing_params or {}, tournament.system)
        form = PairingParamsForm(
            request.POST if request.method == "POST" else None,
            initial=PairingParamsForm.initial_for(current),
        )
        errors: list[str] = []
        if request.method == "POST" and ("defaults" in request.POST or form.is_valid()):
            params = None if "defaults" in request.POST else form.attributes()
            try:
                rounds.tournament_pairing_params_set(
                    actor=request.user, tournament=tournament, params=params
                )
            except ValidationError as exc:
                errors = exc.messages
            else:
                self.message_user(request, "Pairing settings saved.")  # type: ignore[attr-defined]
                return HttpResponseRedirect(
                    reverse("admin:games_tournament_pairing_settings", args=[tournament.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Pairing settings: {tournament}",
            "tournament": tournament,
            "form": form,
            "errors": errors,
            "opts": Tournament._meta,
        }
        return TemplateResponse(request, "admin/games/tournament_pairing_settings.html", context)

    def print_view(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        tournament = self._tournament(request, pk, number)
        games = list(
            Game.objects.filter(tournament=tournament, round__number=number)
            .select_related("black", "white")
            .order_by("table", "id")
        )
        by = request.GET.get("by", "table")
        lines = []
        if by == "name":
            for g in games:
                lines.append((g.black, g, "Black", g.white))
                lines.append((g.white, g, "White", g.black))
            lines.sort(key=lambda line: (line[0].family_name, line[0].given_name, line[0].pk))
        context = {
            "tournament": tournament,
            "number": number,
            "games": games,
            "by": by if by in ("table", "name", "slips") else "table",
            "lines": lines,
            "bye": selectors.round_view(tournament, number).bye_player,
        }
        return TemplateResponse(request, "admin/games/tournament_pairing_print.html", context)


PARAM_HELP = {
    "avoid_dupl_game": "Bonus for a pair that never met (paiBaAvoidDuplGame).",
    "balance_wb": "Colour balance (paiBaBalanceWB).",
    "minimize_score_difference": "Score groups (paiMaMinimizeScoreDifference).",
    "dudd_weight": "Draw-ups and draw-downs (paiMaDUDDWeight).",
    "maximize_seeding": "Seeding inside a group (paiMaMaximizeSeeding).",
    "avoid_same_geo": "Geography: clubs and countries (paiSeAvoidSameGeo).",
}


class PairingParamsForm(forms.Form):
    """Every OpenGotha pairing parameter, under goref's names (the XML name as help)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for f in dataclass_fields(PairingParams):
            xml = XML_NAMES[f.name]
            label = f.name.replace("_", " ")
            help_text = PARAM_HELP.get(f.name, xml)
            if f.type == "bool":
                field: forms.Field = forms.BooleanField(
                    required=False, label=label, help_text=help_text
                )
            elif f.name in ("seed_system1", "seed_system2"):
                field = forms.ChoiceField(
                    choices=[(s, s) for s in SEED_SYSTEMS], label=label, help_text=help_text
                )
            elif f.name in ("dudd_upper_mode", "dudd_lower_mode"):
                field = forms.ChoiceField(
                    choices=[(s, s) for s in DUDD_MODES], label=label, help_text=help_text
                )
            elif f.name.startswith("additional_placement_crit"):
                field = forms.ChoiceField(
                    choices=[("Rating", "Rating"), ("NULL", "none")],
                    label=label,
                    help_text=help_text,
                )
            elif f.name == "rank_threshold":
                field = forms.CharField(label=label, help_text=f"{xml}, e.g. 1D or 30K")
            elif f.type == "float":
                field = forms.FloatField(min_value=0, max_value=1, label=label, help_text=help_text)
            else:
                field = forms.IntegerField(min_value=0, label=label, help_text=help_text)
            self.fields[f.name] = field

    @staticmethod
    def initial_for(params: PairingParams) -> dict[str, Any]:
        data = {f.name: getattr(params, f.name) for f in dataclass_fields(PairingParams)}
        data["rank_threshold"] = rank_text(params.rank_threshold)
        return data

    def attributes(self) -> dict[str, str]:
        """The XML attributes of the cleaned values."""
        out = {}
        for f in dataclass_fields(PairingParams):
            value = self.cleaned_data[f.name]
            if isinstance(value, bool):
                value = "true" if value else "false"
            out[XML_NAMES[f.name]] = str(value)
        return out


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
class TournamentAdmin(RoundPairingViews, ServiceRefusalAdminMixin, admin.ModelAdmin):
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
    filter_horizontal = ("directors", "referees")
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

    def get_urls(self) -> list[URLPattern]:
        return self.pairing_urls() + super().get_urls()

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        tournament = (
            Tournament.objects.filter(pk=object_id).first() if object_id.isdigit() else None
        )
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


class InviteForm(forms.Form):
    email = forms.EmailField(help_text="The player gets a link to choose a password.")


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

    def get_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        # Only a superuser links an account directly; a director invites the player.
        if can_link_account(request.user):
            return self.fields
        fields = tuple(f for f in self.fields if f != "user")
        return (*fields, "account") if obj is not None else fields

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        if obj is not None and not can_link_account(request.user):
            return ("account",)
        return ()

    @admin.display(description="account")
    def account(self, obj: Player) -> str:
        if obj.user_id is not None:
            return "linked to an account"
        url = reverse("admin:games_player_invite", args=[obj.pk])
        return format_html('none yet: <a href="{}">invite the player by e-mail</a>', url)

    def get_form(
        self, request: HttpRequest, obj: Player | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kwargs["fields"] = [f for f in self.get_fields(request, obj) if f != "account"]
        return super().get_form(request, obj, change=change, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or can_edit_player(request.user, obj))

    @admin.display(description="rank", ordering="declared_rank")
    def rank_display(self, obj: Player) -> str:
        return str(obj.rank)

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return bool(request.user.is_superuser) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            changed = _changed(form, (*PLAYER_FIELDS, "rank"))
            # The form has written its values onto ``obj``: the service reads the stored row.
            obj = Player.objects.get(pk=obj.pk)
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
            ),
            path(
                "<int:pk>/invite/",
                self.admin_site.admin_view(self.invite_view),
                name="games_player_invite",
            ),
        ]
        return extra + super().get_urls()

    def invite_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Invite a player by e-mail to create (or link) his account."""
        player = get_object_or_404(Player, pk=pk)
        if not can_edit_player(request.user, player):
            raise PermissionDenied
        form = InviteForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                player_invite(
                    actor=request.user,
                    player=player,
                    email=form.cleaned_data["email"],
                    accept_url=lambda token: request.build_absolute_uri(
                        reverse("invitation-accept", args=[token])
                    ),
                )
            except (ValidationError, StateConflict) as exc:
                form.add_error(None, "; ".join(getattr(exc, "messages", [str(exc)])))
            else:
                self.message_user(request, f"Invitation sent to {form.cleaned_data['email']}.")
                return HttpResponseRedirect(reverse("admin:games_player_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Invite {player} to an account",
            "form": form,
            "player": player,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/player_invite.html", context)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a CSV of players: all rows created, or none and a report per row."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        report = None
        if request.method == "POST" and form.is_valid():
            report = players_import_upload(actor=request.user, upload=form.cleaned_data["file"])
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
