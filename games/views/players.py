"""The player page and a signed-in player's own games."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games import cache as page_cache
from games import selectors
from games.models import Player
from games.permissions import player_for
from games.services import outbound
from ops.pages import cache
from ops.pages.responses import lazy_context, reader_copy, render_spliced, visitor_cached
from ops.text import small_number

# Games on one page of the player page: an active EGD player's career is 2,000 games,
# which was a 983 KB page and 593 ms to build.
PAGE_GAMES = 100
MAX_PAGE = 1000


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The player page: his rating, rank and their history (from ratings), and his games,
    the newest ``PAGE_GAMES`` first (``?page=2`` for older ones)."""
    asked = request.GET.get("page", "1")
    page = small_number(asked, digits=4) or 0
    if not 1 <= page <= MAX_PAGE:
        raise Http404("No such page.")
    names = [
        page_cache.player(pk),
        page_cache.PLAYERS,
        page_cache.TOURNAMENTS,
        page_cache.RATINGS,
    ]
    return visitor_cached(
        request,
        f"page.player.{pk}.{page}",
        names,
        lambda: _player_page(request, pk, names, page),
    )


def _player_page(request: HttpRequest, pk: int, names: list[str], page: int) -> HttpResponse:
    # Nothing on it is the reader's but the header: a signed-in reader gets the visitors'.
    copy = reader_copy(request, f"page.player.{pk}.{page}", names)
    if copy is not None:
        return copy
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)

    def body() -> dict[str, Any]:
        # One more row than shown says whether there are older games, without a count.
        games = selectors.player_games(player, offset=(page - 1) * PAGE_GAMES, limit=PAGE_GAMES + 1)
        if page > 1 and not games:
            raise Http404("No such page.")
        rating = outbound.player_rating_record(player)
        return {
            "games": games[:PAGE_GAMES],
            "newer": page - 1 if page > 1 else None,
            "older": page + 1 if len(games) > PAGE_GAMES and page < MAX_PAGE else None,
            "strength": rating.strength,
            "history": rating.history,
            "ranks": rating.ranks,
            "spellings": selectors.player_spellings(player),
        }

    ctx = {
        "player": player,
        "page": page,
        # Everything below the name is a cached fragment (the template's versioned_cache).
        "versions": cache.versions(names),
        **lazy_context(
            body, ["games", "newer", "older", "strength", "history", "ranks", "spellings"]
        ),
    }
    return render_spliced(request, "games/player_detail.html", ctx)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The signed-in player's games, those waiting for his confirmation first."""
    player = player_for(request.user)
    ctx: dict[str, Any] = {"player": player, "waiting": [], "games": []}
    if player is not None:
        ctx["waiting"] = list(selectors.games_awaiting_confirmation(player))
        # His latest games; the player page pages the whole career.
        ctx["games"] = selectors.player_games(player, limit=PAGE_GAMES)
    return render(request, "games/my_games.html", ctx)
