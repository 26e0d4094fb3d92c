"""The "Pair round R" and pairing-parameters pages of a tournament's admin: choose who
plays, preview and edit the pairing, save it or take it back (docs/tournaments.md,
"Pairing a round").  Mixed into ``games.tournament.admin.TournamentAdmin``."""

from __future__ import annotations

import re
from dataclasses import fields as dataclass_fields
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import pluralize
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from games.models import Game, Tournament
from games.permissions import is_director
from games.tournament import selectors as day_selectors
from games.tournament.engine.formats.opengotha import rank_text
from games.tournament.engine.pairing import PairingParams
from games.tournament.engine.pairing.params import DUDD_MODES, SEED_SYSTEMS, XML_NAMES
from games.tournament.engine.timesystem import time_system_of
from games.tournament.services import rounds
from games.tournament.services.lifecycle import UnfinishedGames
from games.tournament.services.pairing_jobs import (
    JOB_KIND,
    pairing_from_answer,
    pairing_needs_job,
    round_pair_job_start,
)
from games.tournament.services.settings import handicap_komi
from games.tournament.slips import slip_codes
from ops.models import Job, JobState
from ops.services import UNSET, Unset

# --------------------------------------------------------------------------- round pairing


REF = re.compile(r"#(\d+)\s*$|^\s*(\d+)\s*$")
LINE = re.compile(r"^\s*#?(\d+)\s+#?(\d+)(?:\s+(\d+))?(?:\s+(-?\d+(?:\.\d)?))?\s*$")
MAX_LINES = 2000  # tables of a round as edited: more than any congress


def player_label(pk: int, label: str) -> str:
    """A player as the page's inputs show him and read him back: "Name (3d) #12"."""
    return f"{label} #{pk}"


def player_ref(text: str, known: set[int], field_name: str) -> int | None:
    """A player from an input: "Name (3d) #12", "#12" or "12"; blank: none."""
    if not text.strip():
        return None
    match = REF.search(text)
    pk = int(match.group(1) or match.group(2)) if match else None
    if pk is None or pk not in known:
        raise forms.ValidationError(f"{text.strip()!r} is not a player of this tournament.")
    return pk


class PairingChoiceForm(forms.Form):
    """Step 1 of "Pair round R": everyone checked in to play, less or plus a few players
    named in text fields (search as you type in one list of the players), and the bye.
    A few fields whatever the size of the field (no per-player input)."""

    leave_out = forms.CharField(
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Players checked in who are not to be paired, one per line (a name from "
        "the list, or #id).",
    )
    add = forms.CharField(
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Players marked absent who are to be paired after all, one per line.",
    )
    bye = forms.CharField(
        required=False,
        max_length=200,
        initial="auto",
        widget=forms.TextInput(attrs={"list": "bye-choices", "size": 40}),
        help_text='"auto": the rule\'s choice if the field is odd (the lowest McMahon score, '
        'Swiss: rank and wins, without a bye yet); "none"; or a player.',
    )

    def __init__(self, *args: Any, known: set[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = known

    def _players(self, name: str) -> list[int]:
        out = []
        for line in (self.cleaned_data.get(name) or "").splitlines():
            try:
                pk = player_ref(line, self.known, name)
            except forms.ValidationError as e:
                self.add_error(name, e)
                continue
            if pk is not None:
                out.append(pk)
        return out

    def chosen(self, playing: list[int]) -> tuple[list[int], int | Unset | None]:
        """The players to pair and the bye, from the check-in and the fields."""
        leave_out, add = set(self._players("leave_out")), self._players("add")
        players = [p for p in playing if p not in leave_out] + [p for p in add if p not in playing]
        text = (self.cleaned_data.get("bye") or "").strip()
        bye: int | Unset | None = UNSET
        if text.lower() == "none":
            bye = None
        elif text and text.lower() != "auto":
            try:
                bye = player_ref(text, self.known, "bye")
            except forms.ValidationError as e:
                self.add_error("bye", e)
        if isinstance(bye, int):
            players = [p for p in players if p != bye]
        return players, bye


class PairingEditForm(forms.Form):
    """Step 2: the proposed games, to swap, unpair, pair by hand or change a komi before
    confirming.  One text field holds every table ("#black #white handicap komi" per
    line): the page's rows edit it through a small script, or it is edited as text, so
    the form has three fields whatever the size of the round (Django refuses a request
    of more than 1,000 fields)."""

    games_text = forms.CharField(
        required=False,
        max_length=MAX_LINES * 40,
        widget=forms.Textarea(attrs={"rows": 8, "cols": 40}),
        label="Games",
        help_text="One table per line: #black #white handicap komi (a blank komi: the "
        "tournament's for that handicap).",
    )
    bye = forms.CharField(
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"list": "players", "size": 40}),
    )

    def __init__(self, *args: Any, known: set[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = known

    @staticmethod
    def text_of(games: list[tuple[int, int, int, Decimal | None]]) -> str:
        return "\n".join(f"#{b} #{w} {h}" + ("" if k is None else f" {k}") for b, w, h, k in games)

    def clean_games_text(self) -> list[tuple[int, int, int, Decimal | None]]:
        out = []
        lines = (self.cleaned_data.get("games_text") or "").splitlines()
        if len(lines) > MAX_LINES:
            raise forms.ValidationError(f"At most {MAX_LINES} tables.")
        for n, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            match = LINE.match(line)
            if match is None:
                raise forms.ValidationError(
                    f'Line {n}: {line.strip()!r} is not "#black #white handicap komi".'
                )
            black, white = int(match.group(1)), int(match.group(2))
            for pk in (black, white):
                if pk not in self.known:
                    raise forms.ValidationError(
                        f"Line {n}: #{pk} is not a player of this tournament."
                    )
            handicap = int(match.group(3) or 0)
            if handicap > 9:
                raise forms.ValidationError(f"Line {n}: a handicap is 0 to 9 stones.")
            komi = Decimal(match.group(4)) if match.group(4) else None
            out.append((black, white, handicap, komi))
        return out

    def clean_bye(self) -> int | None:
        return player_ref(self.cleaned_data.get("bye") or "", self.known, "bye")

    def games(self) -> list[tuple[int, int, int, Decimal | None]]:
        """(black, white, handicap, komi) of every table, in table order."""
        return list(self.cleaned_data.get("games_text") or [])

    def bye_id(self) -> int | None:
        return self.cleaned_data.get("bye")


def _tick_to_pair_over(count: int) -> str:
    return (
        f"{count} game{pluralize(count)} of earlier rounds {pluralize(count, 'has,have')} "
        f"no final result (listed above). Tick \u201cPair over the {count} "
        f"game{pluralize(count)} without a final result\u201d below and confirm again, "
        "or finalise them first."
    )


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
                "<int:pk>/rounds/<int:number>/pair/job/<int:job>/",
                view(self.pair_job_view),
                name="games_tournament_pair_job",
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

    def _pair_context(
        self, request: HttpRequest, tournament: Tournament, number: int
    ) -> tuple[dict[str, Any], day_selectors.RoundView]:
        """What every state of the page shows: the round, its players, the warnings."""
        view = day_selectors.round_view(tournament, number)
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
            "labels": [player_label(pk, label) for pk, label in view.choices],
            "playing_count": len(view.playing),
        }
        return context, view

    def _proposal(
        self, view: day_selectors.RoundView, result: rounds.RoundPairing
    ) -> dict[str, Any]:
        """The preview of a proposed pairing: its rows and the form to edit them."""
        names = dict(view.choices)
        planned: list[tuple[int, int, int, Decimal | None]] = [
            (g.black, g.white, g.handicap, g.komi) for g in result.games
        ]
        edit = PairingEditForm(
            initial={
                "games_text": PairingEditForm.text_of(planned),
                "bye": player_label(result.bye, names[result.bye]) if result.bye else "",
            },
            known=set(names),
        )
        return {"edit": edit, "proposal": result, "rows": self._rows(view, planned, result, names)}

    def pair_view(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        tournament = self._tournament(request, pk, number)
        context, view = self._pair_context(request, tournament, number)
        choices = view.choices
        step = request.POST.get("step", "") if request.method == "POST" else ""
        known = {pk for pk, _ in choices}
        choose = PairingChoiceForm(
            request.POST if step == "preview" else None,
            known=known,
            initial={
                "bye": player_label(view.bye, dict(choices)[view.bye]) if view.bye else "auto"
            },
        )
        context["choose"] = choose
        try:
            if step == "preview" and choose.is_valid():
                players, bye = choose.chosen(view.playing)
                if not choose.errors and pairing_needs_job(tournament, players):
                    # A congress: the preview is a job, its page follows it.
                    options: dict[str, Any] = {"players": players, "dry_run": True}
                    options |= {"explain": True} | ({} if bye is UNSET else {"bye": bye})
                    job = round_pair_job_start(
                        actor=request.user,
                        tournament=tournament,
                        round_number=number,
                        request=options,
                    )
                    return HttpResponseRedirect(
                        reverse("admin:games_tournament_pair_job", args=[pk, number, job.pk])
                    )
                if not choose.errors:  # a name chosen() could not read
                    result = rounds.round_pair(
                        actor=request.user,
                        tournament=tournament,
                        round_number=number,
                        players=players,
                        bye=bye,
                        dry_run=True,
                        explain=True,
                    )
                    context |= self._proposal(view, result)
            elif step in ("check", "confirm"):
                edit = PairingEditForm(request.POST, known=known)
                games = edit.games() if edit.is_valid() else []
                # The preview stays whatever the answer: a refusal never throws it away.
                context |= {"edit": edit, "rows": self._rows(view, games, None, dict(choices))}
                if edit.is_valid() and step == "confirm":
                    created = rounds.round_games_set(
                        actor=request.user,
                        tournament=tournament,
                        round_number=number,
                        games=games,
                        bye=edit.bye_id(),
                        accept_unfinished=request.POST.get("accept_unfinished") == "on",
                    )
                    self.message_user(  # type: ignore[attr-defined]
                        request, f"Round {number}: {len(created)} games paired."
                    )
                    return HttpResponseRedirect(
                        reverse("admin:games_tournament_change", args=[tournament.pk])
                    )
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
        except UnfinishedGames as exc:  # the page words the box to tick, not the API's field
            context["errors"] = [_tick_to_pair_over(exc.count)]
        except ValidationError as exc:
            context["errors"] = exc.messages
        return TemplateResponse(request, "admin/games/tournament_pair.html", context)

    def pair_job_view(self, request: HttpRequest, pk: int, number: int, job: int) -> HttpResponse:
        """A congress-size preview's page: its progress while the job runs (the page
        reloads itself), then the preview as ``pair_view`` shows it, or the refusal."""
        tournament = self._tournament(request, pk, number)
        found = get_object_or_404(Job, pk=job, kind=JOB_KIND)
        if found.params.get("tournament") != tournament.pk or found.params.get("round") != number:
            raise Http404("No such pairing job.")
        if found.state in (JobState.PENDING, JobState.RUNNING):
            context = {
                **self.admin_site.each_context(request),
                "title": f"Pairing round {number}: {tournament}",
                "tournament": tournament,
                "number": number,
                "job": found,
                "opts": Tournament._meta,
            }
            return TemplateResponse(request, "admin/games/tournament_pair_job.html", context)
        context, view = self._pair_context(request, tournament, number)
        context["choose"] = PairingChoiceForm(known={pk for pk, _ in view.choices})
        if found.state == JobState.DONE and found.result is not None:
            context |= self._proposal(view, pairing_from_answer(found.result))
        else:
            context["errors"] = [found.error or "The pairing failed."]
        return TemplateResponse(request, "admin/games/tournament_pair.html", context)

    def _rows(
        self,
        view: day_selectors.RoundView,
        games: list[tuple[int, int, int, Decimal | None]],
        proposal: rounds.RoundPairing | None,
        names: dict[int, str],
    ) -> list[dict[str, Any]]:
        """One line per table, and two blank ones to pair by hand: the players (as the
        inputs show them), their ranks and scores, handicap, komi, and the proposal's
        reasons or the warnings of the pairs as edited."""
        reasons = {}
        if proposal is not None:
            reasons = {(g.black, g.white): list(g.reasons) for g in proposal.games}
        # The proposal's reasons say why; the warnings are for a round as edited ("Check").
        warnings = view.warnings(games) if proposal is None else {}
        out = []
        blank = (None, None, 0, None)
        for i, (b, w, handicap, komi) in enumerate([*games, blank, blank]):
            out.append(
                {
                    "table": i + 1,
                    "black_text": player_label(b, names[b]) if b in names else "",
                    "white_text": player_label(w, names[w]) if w in names else "",
                    "handicap": handicap,
                    "komi": "" if komi is None else komi,
                    "black": view.describe(b),
                    "white": view.describe(w),
                    "words": reasons.get((b, w), []) if b and w else [],
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
            "slips": [
                (g, g.jigo_possible, slip_codes(request, g) if by == "slips" else []) for g in games
            ],
            "by": by if by in ("table", "name", "slips") else "table",
            "lines": lines,
            "bye": day_selectors.round_view(tournament, number).bye_player,
            # The players read the time system off the printed list.
            "time_text": (
                time_system_of(tournament.time_system).describe()
                if tournament.time_system
                else tournament.time_control
            ),
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
