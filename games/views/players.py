"""The player page and a signed-in player's own games."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games import cache as page_cache
from games import selectors
from games.models import Player
from games.permissions import player_for
from games.services import outbound
from games.views.public import lazy_context, visitor_cached
from ops import cache


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The player page: his rating, rank and their history (from ratings), and his games."""
    names = [
        page_cache.player(pk),
        page_cache.PLAYERS,
        page_cache.TOURNAMENTS,
        page_cache.RATINGS,
    ]
    return visitor_cached(
        request, f"page.player.{pk}", names, lambda: _player_page(request, pk, names)
    )


def _player_page(request: HttpRequest, pk: int, names: list[str]) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)

    def body() -> dict[str, Any]:
        return {"games": selectors.player_games(player), **outbound.player_rating_page(player)}

    ctx = {
        "player": player,
        # Everything below the name is a cached fragment (the template's {% cache %}).
        "versions": cache.versions(names),
        **lazy_context(body, ["games", "strength", "history", "chart", "ranks"]),
    }
    return render(request, "games/player_detail.html", ctx)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The signed-in player's games, those waiting for his confirmation first."""
    player = player_for(request.user)
    ctx: dict[str, Any] = {"player": player, "waiting": [], "games": []}
    if player is not None:
        ctx["waiting"] = list(selectors.games_awaiting_confirmation(player))
        ctx["games"] = selectors.player_games(player)
    return render(request, "games/my_games.html", ctx)
