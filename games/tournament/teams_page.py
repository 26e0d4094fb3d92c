"""A team event's page: the team standings after a round, each round's matches with their
board results, and the teams with their line-ups; for its directors, the forms that set
the team size, add a team, change a line-up and pair a team round."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.messages import team_round_paired, teams_saved
from games.models import Player, Team, Tournament
from games.permissions import is_director
from games.tournament import selectors as day_selectors
from games.tournament.engine.teams import COEF
from games.tournament.engine.teams import matches as team_matches
from games.tournament.services import teams as services
from ops.forms import refusal_text
from ops.services import StateConflict
from ops.text import small_number


def _ids(text: str) -> list[int]:
    return [n for part in text.replace(",", " ").split() if (n := small_number(part)) is not None]


def _members(tournament: Tournament, ids: list[int]) -> list[Player]:
    found = {p.pk: p for p in Player.objects.filter(pk__in=ids, entries__tournament=tournament)}
    if len(found) != len(set(ids)):
        raise ValidationError({"members": "Choose players entered in this tournament."})
    return [found[i] for i in ids]


def _post(request: HttpRequest, tournament: Tournament) -> str:
    action, actor = request.POST.get("action", ""), request.user
    if action == "params":
        size = small_number(request.POST.get("size")) or 0
        services.team_params_set(actor=actor, tournament=tournament, size=size)
        return teams_saved()
    if action == "team":
        ids = [int(v) for v in request.POST.getlist("members") if v.isdigit()]
        services.team_create(
            actor=actor,
            tournament=tournament,
            name=request.POST.get("name", ""),
            members=_members(tournament, ids),
        )
        return teams_saved()
    if action == "lineup":
        team = get_object_or_404(
            Team, tournament=tournament, number=small_number(request.POST.get("team")) or 0
        )
        services.team_lineup_set(
            actor=actor,
            team=team,
            round_number=small_number(request.POST.get("round")) or 0,
            members=_members(tournament, _ids(request.POST.get("members", ""))),
        )
        return teams_saved()
    if action == "pair":
        numbers = _ids(request.POST.get("team_pairs", ""))
        chosen = list(zip(numbers[::2], numbers[1::2], strict=False)) if numbers else None
        result = services.round_pair_teams(
            actor=actor,
            tournament=tournament,
            round_number=small_number(request.POST.get("round")) or 0,
            matches=chosen,
            accept_unfinished=request.POST.get("accept_unfinished") == "on",
        )
        return team_round_paired(matches=len(result.matches), games=len(result.created))
    raise ValidationError({"action": "Choose what to do."})


def _context(tournament: Tournament, after: int | None) -> dict[str, Any]:
    data = day_selectors.event_of(tournament)
    event, names = data.event, data.players
    context: dict[str, Any] = {"tournament": tournament, "standings": None, "rounds": []}
    if event.team_settings is None:
        return context
    table = day_selectors.team_standings_of(tournament, after_round=after)
    context["standings"] = table
    shown: dict[int, list[dict[str, Any]]] = {}
    for m in team_matches(event, event.teams, event.team_settings, table.round):
        shown.setdefault(m.round, []).append(
            {
                "white": m.white.name,
                "black": m.black.name,
                "score": (m.wx2(m.white) / 2, m.wx2(m.black) / 2),
                "points": (m.team_points(m.white), m.team_points(m.black)),
            }
        )
    context["rounds"] = sorted(shown.items())
    context["teams"] = [
        (
            t,
            [
                names.get(p)
                for b in range(1, event.team_settings.size + 1)
                if (p := t.member(max(table.round, 1), b)) is not None
            ],
        )
        for t in event.teams
    ]
    context["coef"] = COEF
    return context


@require_http_methods(["GET", "POST"])
def teams(request: HttpRequest, pk: int) -> HttpResponse:
    """The team event's page for everyone; its directors also run the teams here."""
    tournament = get_object_or_404(Tournament, pk=pk)
    directing = is_director(request.user, tournament)
    if request.method == "POST":
        if not directing:
            raise Http404
        try:
            messages.success(request, _post(request, tournament))
        except (ValidationError, PermissionDenied, StateConflict) as e:
            messages.error(request, refusal_text(e))
        return HttpResponseRedirect(reverse("games:teams", args=[pk]))
    if not tournament.team_params and not directing:
        raise Http404("This tournament is not a team event.")
    context = _context(tournament, small_number(request.GET.get("round"), digits=2))
    context["directing"] = directing
    if directing:
        context["entries"] = tournament.entries.select_related("player").order_by(
            "-rank", "-rating", "player__family_name"
        )
    return render(request, "games/teams.html", context)
