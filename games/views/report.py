"""The page a result slip's code opens on a phone: no account, the code is the key.

``/r/<game>/<code>/`` shows the game to the player whose code it is; he reports the
result, or answers his opponent's report (confirm, or contest: a dispute as on the
game page), through the same services as a signed-in player, acting as a
``CodeHolder``.  A wrong code (or game) is 404 and counts against the address
(``ops.guesses``); a locked result's codes are refused (README, "The tournament day").
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games import messages as words
from games import services
from games.engine.result import Result, ResultError
from games.forms import ContestForm, result_suggestions
from games.models import Game, GameState
from games.services.codes import CodeHolder, code_holder
from games.services.results import current_claim, locked_message
from ops.guesses import guess_failed, guesses_blocked
from ops.logins import client_address
from ops.services import StateConflict

SCOPE = "report-code"
FINAL_MESSAGE = "This result is final: the slip's codes no longer work."


@never_cache
@require_http_methods(["GET", "POST"])
def report_page(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    minutes = guesses_blocked(request, SCOPE)
    if minutes is not None:
        return render(request, "games/report_throttled.html", {"minutes": minutes}, status=429)
    game = (
        Game.objects.select_related("tournament", "round", "black", "white")
        .filter(pk=game_id)
        .first()
    )
    holder = code_holder(game, code, address=client_address(request)) if game else None
    if game is None or holder is None:
        guess_failed(request, SCOPE)
        raise Http404("No game has this code.")
    if game.is_locked:
        return _page(
            request, game, holder, errors=[locked_message(game), FINAL_MESSAGE], status=403
        )
    if request.method == "POST":
        return _act(request, game, holder)
    return _page(request, game, holder)


def _act(request: HttpRequest, game: Game, holder: CodeHolder) -> HttpResponse:
    """One of the page's three forms: report, confirm, contest."""
    action = request.POST.get("action", "")
    form = ContestForm(request.POST)
    form.is_valid()
    claim = form.cleaned_data.get("claim")  # None: the service says it is missing
    try:
        if action == "report":
            result = (request.POST.get("result") or request.POST.get("score") or "").strip()
            if not readable(result):  # typed on a phone: said in the player's language
                errors = [str(words.RESULT_UNREADABLE)]
                return _page(request, game, holder, errors=errors, status=400)
            services.game_result_submit(actor=holder, game=game, result=result)
            messages.success(request, words.RESULT_REPORTED)
        elif action == "confirm":
            services.game_result_confirm(actor=holder, game=game, claim=claim)
            messages.success(request, words.RESULT_CONFIRMED)
            return redirect("games:game", pk=game.pk)
        elif action == "contest":
            reason = form.cleaned_data.get("reason") or ""
            services.game_result_contest(actor=holder, game=game, reason=reason, claim=claim)
            messages.success(request, words.RESULT_CONTESTED)
        else:
            return _page(request, game, holder, errors=[str(words.CHOOSE_AN_ACTION)], status=400)
    except StateConflict as exc:  # the game moved on meanwhile (a claim changed, a dispute)
        game.refresh_from_db()  # the page shows what it is now
        return _page(request, game, holder, errors=exc.messages, status=409)
    except ValidationError as exc:
        return _page(request, game, holder, errors=exc.messages, status=400)
    except PermissionDenied as exc:
        return _page(request, game, holder, errors=[str(exc)], status=403)
    return redirect(request.path)


def _page(
    request: HttpRequest,
    game: Game,
    holder: CodeHolder,
    *,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    me = holder.player
    mine = game.result_submitted_by_id == me.pk
    submitted = game.state == GameState.SUBMITTED
    by_player = submitted and game.result_submitted_by_id is not None
    ctx: dict[str, Any] = {
        "game": game,
        "tournament": game.tournament,
        "me": me,
        "colour": "Black" if me.pk == game.black_id else "White",
        "opponent": game.white if me.pk == game.black_id else game.black,
        "errors": errors or [],
        "locked": game.is_locked,
        "can_report": not game.is_locked
        and (game.state == GameState.SCHEDULED or (by_player and mine)),
        "reported": by_player and mine,
        "can_answer": by_player and not mine,
        "by_director": submitted and game.result_submitted_by_id is None,
        "claim": current_claim(game),
        "choices": result_suggestions(game),
    }
    return render(request, "games/report.html", ctx, status=status)


def readable(text: str) -> bool:
    """Whether ``text`` reads as a result (``B+6.5``, ``W+R``, ``0``...)."""
    try:
        Result.parse(text)
    except ResultError:
        return False
    return True
