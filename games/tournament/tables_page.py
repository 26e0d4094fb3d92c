"""The director's tables page of a round: move one game, swap two tables, shift every
table (a second room), renumber by score or rating, pin a player to a table.  Each form
posts to one service of ``games.tournament.services.tables``; docs/tournaments.md,
"Tables"."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.messages import table_pinned, tables_moved
from games.models import Game, Tournament, TournamentEntry
from games.permissions import is_director
from games.tournament.services import tables
from ops.forms import refusal_text
from ops.services import StateConflict
from ops.text import small_number


def _number(request: HttpRequest, name: str) -> int | None:
    value = request.POST.get(name, "").strip()
    if value.startswith("-") and value[1:].isdigit():
        return -int(value[1:])
    return small_number(value)


def _post(request: HttpRequest, tournament: Tournament, number: int) -> str:
    """The confirmation of one posted move, or raise the service's refusal."""
    action, actor = request.POST.get("action", ""), request.user
    if action == "move":
        game, table = _number(request, "game"), _number(request, "table")
        if game is None or table is None:
            raise ValidationError({"table": "Choose a game and type its new table."})
        return tables_moved(
            tables.round_table_set(
                actor=actor, tournament=tournament, round_number=number, game_id=game, table=table
            )
        )
    if action == "swap":
        a, b = _number(request, "a"), _number(request, "b")
        if a is None or b is None:
            raise ValidationError({"swap": "Type the two tables to swap."})
        return tables_moved(
            tables.round_tables_swap(
                actor=actor, tournament=tournament, round_number=number, a=a, b=b
            )
        )
    if action == "shift":
        by = _number(request, "by")
        if by is None:
            raise ValidationError({"by": "Type by how many tables to shift."})
        return tables_moved(
            tables.round_tables_shift(
                actor=actor, tournament=tournament, round_number=number, by=by
            )
        )
    if action == "renumber":
        order: tables.Order = "rating" if request.POST.get("by") == "rating" else "score"
        return tables_moved(
            tables.round_tables_renumber(
                actor=actor, tournament=tournament, round_number=number, by=order
            )
        )
    if action == "pin":
        entry = get_object_or_404(
            TournamentEntry.objects.select_related("tournament", "player"),
            tournament=tournament,
            pk=_number(request, "entry") or 0,
        )
        entry = tables.entry_table_pin(actor=actor, entry=entry, table=_number(request, "table"))
        return table_pinned(player=entry.player, table=entry.table_pin)
    raise ValidationError({"action": "Choose what to do."})


@login_required
@require_http_methods(["GET", "POST"])
def round_tables(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's tables for its directors, and the forms that move them."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_director(request.user, tournament):
        raise Http404
    if not 1 <= number <= tournament.number_of_rounds:
        raise Http404("No such round.")
    if request.method == "POST":
        try:
            messages.success(request, _post(request, tournament, number))
        except (ValidationError, PermissionDenied, StateConflict) as e:
            messages.error(request, refusal_text(e))
        return HttpResponseRedirect(reverse("games:round-tables", args=[pk, number]))
    games = (
        Game.objects.filter(tournament=tournament, round__number=number)
        .select_related("black", "white")
        .order_by("table", "id")
    )
    entries = (
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__family_name", "player__given_name")
    )
    return render(
        request,
        "games/round_tables.html",
        {"tournament": tournament, "number": number, "games": games, "entries": entries},
    )
