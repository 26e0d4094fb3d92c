"""A cup's bracket: every round's matches as far as the draw goes, who went through, the
places so far; for its directors, the cup's options and the choice of who goes through a
game without a winner.  Lists, not a drawn tree, so that it reads on a phone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.messages import cup_saved
from games.models import Game, Player, Tournament
from games.permissions import is_director
from games.tournament.engine.cup import CONSOLATION, MAIN, THIRD, Match, draw, places
from games.tournament.engine.model import System
from games.tournament.selectors import event_of
from games.tournament.services import cups
from ops.forms import refusal_text
from ops.services import StateConflict
from ops.text import small_number

BRACKETS = {MAIN: "", THIRD: "third place", CONSOLATION: "consolation"}


@dataclass(frozen=True)
class Line:
    match: Match
    a: Player | None
    b: Player | None
    winner: Player | None
    game_id: int | None
    result: str


def _lines(tournament: Tournament) -> tuple[list[tuple[int, str, list[Line]]], list[Any]]:
    data = event_of(tournament)
    cup = data.event.cup
    if cup is None:
        return [], []
    games = {
        (g.round.number, min(g.black_id, g.white_id), max(g.black_id, g.white_id)): g
        for g in Game.objects.filter(tournament=tournament).select_related("round")
    }
    players = data.players
    groups: dict[tuple[int, str], list[Line]] = {}
    for m in draw(cup, data.event.games):
        game = games.get((m.round, min(m.pair), max(m.pair))) if m.pair else None
        groups.setdefault((m.round, m.bracket), []).append(
            Line(
                m,
                players.get(m.a) if m.a else None,
                players.get(m.b) if m.b else None,
                players.get(m.winner) if m.winner else None,
                game.pk if game else None,
                game.result_display if game else "",
            )
        )
    rounds = [(r, BRACKETS[b], lines) for (r, b), lines in sorted(groups.items())]
    placed = sorted(places(cup, data.event.games).items(), key=lambda item: (item[1], item[0]))
    ranking = [(place, players[pid]) for pid, place in placed]
    return rounds, ranking


def _post(request: HttpRequest, tournament: Tournament) -> str:
    action = request.POST.get("action", "")
    if action == "through":
        game = get_object_or_404(
            Game.objects.select_related("tournament"),
            tournament=tournament,
            pk=small_number(request.POST.get("game")) or 0,
        )
        player = small_number(request.POST.get("player"))
        cups.cup_through_choose(actor=request.user, game=game, player_id=player or 0)
        return cup_saved()
    if action == "options":
        previous = small_number(request.POST.get("seeds_from"))
        cups.tournament_cup_set(
            actor=request.user,
            tournament=tournament,
            seeding=request.POST.get("seeding", "rank"),
            seeds_from=get_object_or_404(Tournament, pk=previous) if previous else None,
            third_place=request.POST.get("third_place") == "on",
            consolation=request.POST.get("consolation") == "on",
        )
        return cup_saved()
    raise ValidationError({"action": "Choose what to do."})


@require_http_methods(["GET", "POST"])
def cup(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket for everyone; its directors also change the options here."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if tournament.system != System.CUP:
        raise Http404("This tournament is not a cup.")
    directing = is_director(request.user, tournament)
    if request.method == "POST":
        if not directing:
            raise Http404
        try:
            messages.success(request, _post(request, tournament))
        except (ValidationError, PermissionDenied, StateConflict) as e:
            messages.error(request, refusal_text(e))
        return HttpResponseRedirect(reverse("games:cup", args=[pk]))
    rounds, ranking = _lines(tournament)
    return render(
        request,
        "games/cup.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "ranking": ranking,
            "directing": directing,
            "options": tournament.cup or {},
        },
    )
