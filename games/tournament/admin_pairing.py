"""The "Pair round R" and pairing-parameters pages of a tournament's admin: choose who
plays, preview and edit the pairing, save it or take it back (docs/tournaments.md,
"Pairing a round").  Mixed into ``games.tournament.admin.TournamentAdmin``."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from games.engine.rules import jigo_possible
from games.models import Game, Tournament
from games.permissions import is_director
from games.tournament import selectors as day_selectors
from games.tournament.engine.formats.opengotha import rank_text
from games.tournament.engine.pairing import PairingParams
from games.tournament.engine.pairing.params import DUDD_MODES, SEED_SYSTEMS, XML_NAMES
from games.tournament.services import rounds
from games.tournament.services.settings import handicap_komi
from ops.services import UNSET, Unset

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
            # Blank: the tournament's komi for the row's handicap.
            self.fields[f"komi_{i}"] = forms.DecimalField(
                max_digits=4, decimal_places=1, required=False
            )
            self.fields[f"swap_{i}"] = forms.BooleanField(required=False, label="swap")
        self.fields["bye"] = forms.ChoiceField(choices=options, required=False)

    def games(self) -> list[tuple[int, int, int, Decimal | None]]:
        """(black, white, handicap, komi) of every complete row, swaps applied."""
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
            out.append(
                (
                    *pair,
                    self.cleaned_data.get(f"handicap_{i}") or 0,
                    self.cleaned_data.get(f"komi_{i}"),
                )
            )
        return out

    def bye(self) -> int | None:
        value = self.cleaned_data.get("bye")
        return int(value) if value else None

    def row_fields(self) -> list[tuple[forms.BoundField, ...]]:
        return [
            (
                self[f"black_{i}"],
                self[f"white_{i}"],
                self[f"handicap_{i}"],
                self[f"swap_{i}"],
                self[f"komi_{i}"],
            )
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
        view = day_selectors.round_view(tournament, number)
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
            "unfinished": [
                (g, reverse("admin:games_game_change", args=[g.pk])) for g in view.unfinished
            ],
            "absent": view.absent,
            "errors": [],
            "handicap_komi": handicap_komi(tournament),
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
                        f"komi_{i}": g.komi,
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
                            accept_unfinished=request.POST.get("accept_unfinished") == "on",
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
        self,
        view: day_selectors.RoundView,
        edit: PairingEditForm,
        proposal: rounds.RoundPairing | None,
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
            _game, words = reasons.get((b, w), (None, []))  # type: ignore[arg-type]
            out.append(
                {
                    "table": i + 1,
                    "fields": fields,
                    "black": view.describe(b),
                    "white": view.describe(w),
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
            # A jigo box only where the komi allows a level count.
            "slips": [(g, jigo_possible(Decimal(g.komi))) for g in games],
            "by": by if by in ("table", "name", "slips") else "table",
            "lines": lines,
            "bye": day_selectors.round_view(tournament, number).bye_player,
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
