"""The stone-removal page: both players mark the dead stones, one chain per click, and agree.

Its own page (the game page only links to it).  The players of the game act; the
tournament's directors see it; anyone else gets 404 (docs/rules.md, "How dead stones
are found").  A click on a stone of the board posts the same form as the chain's
button in the table (static/games/dead_stones.js), so both go through one path.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods

from games.models import Game, ReviewState
from games.permissions import is_director, is_participant
from games.services import deadstones
from games.svg import board_svg


@login_required
@require_http_methods(["GET", "POST"])
def dead_stones(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related("tournament", "round", "black", "white"), pk=pk
    )
    player = is_participant(request.user, game)
    if not player and not is_director(request.user, game.tournament):
        raise Http404("No such game.")
    review = deadstones.open_review(game)
    if review is None:
        raise Http404("There is no stone removal open for this game.")
    color = deadstones.player_color(request.user, game) if player else None
    status = 200
    if request.method == "POST":
        if color is None:
            raise Http404("No such game.")
        try:
            if "agree" in request.POST:
                done = deadstones.dead_stones_agree(actor=request.user, game=game)
                if done.state == ReviewState.AGREED:
                    messages.success(request, f"Both players agree: the game counts {done.result}.")
                    return redirect("games:game", pk=game.pk)
                if done.state == ReviewState.DISPUTED:
                    messages.info(request, _disputed(done, game))
                    return redirect("games:game", pk=game.pk)
                messages.success(request, "You agree to this marking; waiting for your opponent.")
            else:
                deadstones.dead_stones_toggle(
                    actor=request.user, game=game, point=request.POST.get("point", "")
                )
            return redirect("games:dead-stones", pk=game.pk)
        except (ValidationError, PermissionDenied) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
            status = 400 if isinstance(exc, ValidationError) else 403
        review = deadstones.open_review(game)
        if review is None:
            return redirect("games:game", pk=game.pk)
    page = deadstones.review_page(game, review, color)
    svg = board_svg(
        page["size"],
        page["stones"],
        dead=page["dead"],
        unsure=page["unsure"],
        clickable=color is not None,
    )
    mine = review.black_agreed_at if color == "B" else review.white_agreed_at
    theirs = review.white_agreed_at if color == "B" else review.black_agreed_at
    return render(
        request,
        "games/dead_stones.html",
        {
            "game": game,
            "tournament": game.tournament,
            "review": review,
            # board_svg builds its markup from numbers and fixed labels only.
            "svg": mark_safe(svg),
            "chains": page["chains"],
            "count": page["count"],
            "has_unsure": bool(page["unsure"]),
            "can_mark": color is not None,
            "i_agreed": mine is not None,
            "they_agreed": theirs is not None,
            "opponent_differs": page["opponent_differs"],
        },
        status=status,
    )


def _disputed(done: deadstones.Resolution, game: Game) -> str:
    """Why a referee decides: two markings, or one marking that does not give the claim."""
    if done.same_marking:
        return (
            f"You both marked the same stones dead, but with them the game counts "
            f"{done.result}, not the submitted {game.result_display}: a referee will decide."
        )
    return "The markings differ: a referee will decide."
