"""Public rating pages: search, a player's rating and history, head-to-head, top lists,
the rating list downloads, the handicap calculator and the what-if page.

Every page is public and read-only; views parse the query, call a selector or a
read in ``ratings.strength``, and render.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from games.models import Player, Tournament
from games.people.selectors import player_list
from games.selectors import outcome_for
from games.templatetags.go_words import rank as rank_words
from ops.fields import MAX_ID
from ops.forms import apply_service_errors
from ops.text import small_number
from ratings import selectors
from ratings.api.views import SCORES, handicap_payload
from ratings.exports import ListRow, rating_list_csv, rating_list_egd, tournament_code
from ratings.ranks import Rank
from ratings.recompute import rating_system_name
from ratings.strength import current_strength, what_if

SEARCH_LIMIT = 200


class SearchForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label=_("Name"))
    club = forms.CharField(max_length=100, required=False, label=_("Club"))
    federation_id = forms.CharField(
        max_length=20,
        required=False,
        label=_("Federation id"),
        help_text=_("EGD PIN, AGA or NZGS id"),
    )


NAME_CHOICES = 500  # names offered as the browser's suggestions (a datalist)


def _find_player(text: str) -> tuple[Player | None, str]:
    """The one player a typed name (or id) means, else why not."""
    text = text.strip()
    if text.isdigit():
        number = small_number(text)
        if number is None or number > MAX_ID:
            return None, _("A player id is a number less than or equal to {max}.").format(
                max=MAX_ID
            )
        found = selectors.rated_player(number)
        if found is None:
            return None, _("There is no player with id {id}.").format(id=text)
        return found, ""
    matches = list(player_list(search=text)[:6])
    exact = [p for p in matches if p.full_name.casefold() == text.casefold()]
    if len(exact) == 1 or len(matches) == 1:
        return selectors.rated_player((exact or matches)[0].pk), ""
    if not matches:
        return None, _("No player is called “{name}”.").format(name=text)
    names = "; ".join(f"{p.full_name} ({rank_words(p.rank)})" for p in matches[:5])
    return None, _("Several players match “{name}”: {names}. Type more of the name.").format(
        name=text, names=names
    )


class PairForm(forms.Form):
    black = forms.CharField(
        label=_("Black"),
        max_length=160,
        widget=forms.TextInput(attrs={"list": "player-names", "size": 30}),
    )
    white = forms.CharField(
        label=_("White"),
        max_length=160,
        widget=forms.TextInput(attrs={"list": "player-names", "size": 30}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("black", "white"):
            typed = data.get(name)
            if typed:
                found, why = _find_player(typed)
                if found is None:
                    self.add_error(name, why)
                else:
                    data[name] = found.pk
                    data[f"{name}_player"] = found
        if data.get("black") and data.get("black") == data.get("white"):
            self.add_error("white", _("Black and White must be two players."))
        return data

    @staticmethod
    def player_names() -> list[str]:
        """Names the browser suggests while typing (the first few hundred by name)."""
        return [
            p.full_name for p in Player.objects.only("family_name", "given_name")[:NAME_CHOICES]
        ]


class HandicapForm(PairForm):
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.order_by("-start_date", "name"),
        required=False,
        label=_("Tournament"),
        help_text=_("Its policy, rules, board; none: the default policy."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["tournament_obj"] = data.get("tournament")
        return data


WINNER_WORDS = {"black": _("Black wins"), "white": _("White wins"), "jigo": _("jigo")}


class WhatIfForm(PairForm):
    winner = forms.ChoiceField(
        label=_("Winner"), choices=[(k, WINNER_WORDS.get(k, k)) for k in SCORES]
    )
    handicap = forms.IntegerField(
        label=_("Handicap"), min_value=0, max_value=9, initial=0, required=False
    )


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "ratings/index.html",
        {"form": SearchForm(), "run": selectors.latest_run(), "system": rating_system_name()},
    )


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    players: list[Player] = []
    if form.is_valid() and any(form.cleaned_data.values()):
        players = list(selectors.player_search(**form.cleaned_data)[:SEARCH_LIMIT])
    rows = [(p, current_strength(p)) for p in players]
    return render(request, "ratings/search.html", {"form": form, "rows": rows})


@require_GET
def head_to_head(request: HttpRequest) -> HttpResponse:
    form = PairForm(request.GET or None)
    h2h = None
    if form.is_valid():
        h2h = selectors.head_to_head(
            form.cleaned_data["black_player"], form.cleaned_data["white_player"]
        )
        for g in h2h.games:
            g.outcome_a = outcome_for(g, h2h.a.pk)  # type: ignore[attr-defined]
    return render(request, "ratings/head_to_head.html", {"form": form, "h2h": h2h})


@require_GET
def top(request: HttpRequest, kind: str) -> HttpResponse:
    rows = list(selectors.top_list(kind))
    return render(
        request,
        "ratings/top.html",
        {"kind": kind, "rows": [(r, Rank(r.rank)) for r in rows]},
    )


def _list_rows() -> list[ListRow]:
    rows = []
    for r in selectors.rating_list():
        p = r.player
        club = p.club
        last = r.last_tournament
        rows.append(
            ListRow(
                player_id=p.pk,
                egd_pin=p.egd_pin or "",
                family_name=p.family_name,
                given_name=p.given_name,
                country=p.country,
                club_code=club.code if club else "",
                club_name=club.name if club else "",
                grade=str(Rank(r.rank)),
                honorary=hasattr(p, "honorary_title"),
                rating=r.rating,
                deviation=r.deviation,
                games=r.games,
                tournaments=r.tournaments,
                provisional=r.provisional,
                last_code=tournament_code(last.end_date if last else None, r.last_tournament_id),
                last_name=last.name if last else "",
                last_date=last.end_date if last else None,
                last_class=last.egf_class if last else "",
            )
        )
    return rows


@require_GET
def list_csv(request: HttpRequest) -> HttpResponse:
    resp = HttpResponse(rating_list_csv(_list_rows()), content_type="text/csv; charset=utf-8")
    resp["Content-Disposition"] = 'attachment; filename="goref-ratings.csv"'
    return resp


@require_GET
def list_egd(request: HttpRequest) -> HttpResponse:
    text = rating_list_egd(_list_rows(), on=timezone.localdate(), algorithm=rating_system_name())
    resp = HttpResponse(text, content_type="text/plain; charset=utf-8")
    resp["Content-Disposition"] = 'attachment; filename="goref-ratings.txt"'
    return resp


@require_GET
def handicap(request: HttpRequest) -> HttpResponse:
    form = HandicapForm(request.GET or None)
    advice = None
    if form.is_valid():
        d = form.cleaned_data
        advice = handicap_payload(d.get("tournament_obj"), d["black_player"], d["white_player"])
        advice["black_player"] = (
            d["black_player"] if advice["black"] == d["black"] else d["white_player"]
        )
        advice["white_player"] = (
            d["white_player"] if advice["black"] == d["black"] else d["black_player"]
        )
        advice["strength_black"] = current_strength(advice["black_player"])
        advice["strength_white"] = current_strength(advice["white_player"])
    return render(request, "ratings/handicap.html", {"form": form, "advice": advice})


@require_GET
def what_if_page(request: HttpRequest) -> HttpResponse:
    form = WhatIfForm(request.GET or None)
    result = None
    if form.is_valid():
        d = form.cleaned_data
        try:
            result = what_if(
                black=d["black_player"],
                white=d["white_player"],
                score_black=SCORES[d["winner"]],
                handicap=d.get("handicap") or 0,
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
    return render(request, "ratings/what_if.html", {"form": form, "result": result})
