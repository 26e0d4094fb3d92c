"""The director's pair go and rengo entries: the pairs entered with their members, and the
form that enters one (``pair_enter``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.messages import pair_entered
from games.models import Player, Tournament
from games.permissions import is_director
from games.tournament.services.pairs import RANK_RULES, pair_enter
from ops.forms import refusal_text
from ops.services import StateConflict
from ops.text import small_number


@require_http_methods(["GET", "POST"])
def pairs(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_director(request.user, tournament):
        raise Http404
    if request.method == "POST":
        ids = [
            n
            for part in request.POST.get("members", "").replace(",", " ").split()
            if (n := small_number(part.lstrip("#"))) is not None
        ]
        found = {p.pk: p for p in Player.objects.filter(pk__in=ids, is_pair=False)}
        try:
            if len(found) != len(set(ids)) or not ids:
                raise ValidationError({"members": "Type the members' player numbers."})
            entry = pair_enter(
                actor=request.user,
                tournament=tournament,
                members=[found[i] for i in ids],
                rule=request.POST.get("rule", "average"),
            )
        except (ValidationError, PermissionDenied, StateConflict) as e:
            messages.error(request, refusal_text(e))
        else:
            messages.success(request, pair_entered(pair=entry.player, rank=entry.rank))
        return HttpResponseRedirect(reverse("games:pairs", args=[pk]))
    entries = (
        tournament.entries.filter(player__is_pair=True)
        .select_related("player")
        .prefetch_related("player__pair_members__member")
        .order_by("-rank", "player__family_name")
    )
    return render(
        request,
        "games/pairs.html",
        {"tournament": tournament, "entries": entries, "rules": RANK_RULES},
    )
