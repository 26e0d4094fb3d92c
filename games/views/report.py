"""The page a result slip's code opens on a phone: no account, the code is the key.

``/r/<game>/<code>/`` shows the game to the player whose code it is; he reports the
result, or answers his opponent's report (confirm, or contest: a dispute as on the
game page), through the same services as a signed-in player, acting as a
``CodeHolder``; once a referee has ruled, he reads the ruling there and accepts or
appeals it.  A wrong code (or game) is 404 and counts against the game and the code
tried, never the address a hall shares (``ops.guesses``); a locked result's codes are
refused (README, "The tournament day").
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games import services
from games.forms import ContestForm, result_suggestions
from games.models import Game, GameState
from games.services import outbound
from games.services.claims import countered_claim
from games.services.codes import (
    CodeHolder,
    code_holder,
    code_read,
    code_shaped,
    game_codes_guessed,
)
from games.services.results import current_claim, locked_message
from ops.guesses import guess_failed
from ops.logins import client_address
from ops.services import StateConflict

FINAL_MESSAGE = "This result is final: the slip's codes no longer work."


@never_cache
@require_http_methods(["GET", "POST"])
def report_page(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    game = (
        Game.objects.select_related("tournament", "round", "black", "white")
        .filter(pk=game_id)
        .first()
    )
    holder = code_holder(game, code, address=client_address(request)) if game else None
    if game is None or holder is None:
        return _wrong_code(request, game, code)
    if game.is_locked:
        return _page(
            request, game, holder, errors=[locked_message(game), FINAL_MESSAGE], status=403
        )
    if request.method == "POST":
        return _act(request, game, holder)
    return _page(request, game, holder)


def _wrong_code(request: HttpRequest, game: Game | None, code: str) -> HttpResponse:
    """404, counted against the game and against the code tried (``ops.guesses``); 429
    once either has had its fill of wrong guesses.  A game reaching it is reported to
    its directors.  The right code was checked before and never comes here."""
    typed = code_read(code)
    # A text no code can be is no guess at one: it fills no counter of its own.
    names = [f"report-code:{typed}"] if code_shaped(typed) else []
    names += [f"game:{game.pk}"] if game else []
    counts = guess_failed(names)
    limit = settings.GOREF_CODE_GUESS_LIMIT
    if game is not None and counts.get(f"game:{game.pk}") == limit:
        game_codes_guessed(
            game=game, wrong_guesses=limit, minutes=settings.GOREF_CODE_GUESS_MINUTES
        )
    if any(count > limit for count in counts.values()):
        return render(request, "games/report_throttled.html", status=429)
    raise Http404("No game has this code.")


def _act(request: HttpRequest, game: Game, holder: CodeHolder) -> HttpResponse:
    """One of the page's forms: report, confirm, contest; accept or appeal a ruling."""
    action = request.POST.get("action", "")
    form = ContestForm(request.POST)
    form.is_valid()
    claim = form.cleaned_data.get("claim")  # None: the service says it is missing
    try:
        if action == "report":
            result = (request.POST.get("result") or request.POST.get("score") or "").strip()
            services.game_result_submit(actor=holder, game=game, result=result)
            messages.success(request, "Result reported: your opponent confirms it with his code.")
        elif action == "confirm":
            services.game_result_confirm(actor=holder, game=game, claim=claim)
            messages.success(request, "Result confirmed: it is now final.")
            return redirect("games:game", pk=game.pk)
        elif action == "contest":
            reason = form.cleaned_data.get("reason") or ""
            services.game_result_contest(actor=holder, game=game, reason=reason, claim=claim)
            messages.success(request, "Result contested: a referee will look at it.")
        elif action in ("accept", "appeal"):
            reason = (request.POST.get("reason") or "")[:2000]
            outbound.slip_ruling_answer(actor=holder, game=game, answer=action, reason=reason)
            messages.success(
                request,
                "You accept the ruling."
                if action == "accept"
                else "Your appeal is sent: the next level rules on it.",
            )
        else:
            return _page(request, game, holder, errors=["Choose an action."], status=400)
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
        # His own claim his opponent's replaced: the page says so before he answers.
        "countered": countered_claim(game, me) if by_player and not mine else None,
        "choices": result_suggestions(game),
        # The game's latest dispute: its rulings and appeals, and the answers he may give.
        "ruling": outbound.slip_ruling(game, me.pk),
    }
    return render(request, "games/report.html", ctx, status=status)
