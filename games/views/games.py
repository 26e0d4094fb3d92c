"""The game page, its record, and the players' and directors' result forms.

Views parse the request, call one service, and render.  The pages are public, the
claims about a result are not, and the result forms answer 404 to whoever may not act
on the game (docs/games.md, "Pages").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import selectors, services
from games.diagram import game_diagram
from games.engine.coords import parse_point
from games.forms import ContestForm, ResultForm, result_suggestions
from games.models import LOCKED_STATES, Game, GameState
from games.permissions import can_see_submissions, is_director, is_participant, player_for
from games.services import LOCKED_MESSAGE, deadstones, outbound, scoring
from games.services.claims import countered_claim
from games.services.results import (
    CLAIM_CHANGED,
    CONFLICT_OF_INTEREST,
    current_claim,
    replaced_claims,
)
from games.svg import board_svg
from games.verification import verification
from ops.forms import apply_service_errors


def _game(pk: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("tournament", "round", "black", "white"), pk=pk
    )


@require_GET
def game_sgf(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's record as stored, to download (public, like the board it draws)."""
    game = _game(pk)
    if not game.sgf:
        raise Http404("This game has no record.")
    response = HttpResponse(game.sgf, content_type="application/x-go-sgf; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="goref-game-{game.pk}.sgf"'
    return response


def _game_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    user = request.user
    me = player_for(user)
    participant = is_participant(user, game)
    director = is_director(user, game.tournament)
    locked = game.state in LOCKED_STATES
    pending = game.state == GameState.SUBMITTED
    submitter_id = game.result_submitted_by_id
    ctx: dict[str, Any] = {
        "game": game,
        "tournament": game.tournament,
        "diagram": game_diagram(game),
        "is_participant": participant,
        "is_director": director,
        "locked": locked,
        # A disputed game waits for the ruling: neither a new claim nor a second dispute.
        "can_submit": participant and not locked and game.state != GameState.DISPUTED,
        # The opponent of the player who submitted answers the claim.
        "can_answer": bool(
            participant and pending and me is not None and submitter_id not in (None, me.pk)
        ),
        "awaiting_opponent": bool(participant and pending and me and submitter_id == me.pk),
        "can_finalise": director and not locked and bool(game.result_reason),
        "submissions": None,
        "contest_form": ContestForm(),
        "claim": current_claim(game),
        "replaced_claims": replaced_claims(game) if participant and pending else [],
        # His own claim his opponent's replaced: "your opponent reports ... instead".
        "countered": countered_claim(game, me) if participant and pending and me else None,
    }
    if can_see_submissions(user, game):
        ctx["submissions"] = list(selectors.submissions_of(game))
    ctx["verification"] = verification(game)
    ctx["disputes"] = outbound.disputes_for_page(game=game, user=user)
    ctx["dead_stones_step"] = _dead_stones_step(game)
    return ctx


def _dead_stones_step(game: Game) -> dict[str, Any] | None:
    """The players' part in finding the dead stones, if one is waiting: a flipped estimate
    to confirm (shown on a board), or the stone-removal page."""
    if game.state != GameState.SUBMITTED:
        return None
    if deadstones.open_review(game) is not None:
        return {"removal": True}
    run = scoring.latest_run(game)
    if run is None or run.step != "confirm" or not run.dead_stones:
        return None
    try:
        size, stones = deadstones.final_stones(game)
        dead = [parse_point(label, size) for label in run.dead_stones]
        # board_svg builds its markup from numbers and fixed labels only.
        svg = mark_safe(board_svg(size, stones, dead=[p for p in dead if p in stones]))
    except ValueError:  # a record that no longer reads: the page shows its warnings
        return None
    return {
        "confirm": True,
        "svg": svg,
        "computed": run.computed_result,
        "dead": run.dead_stones,
        "flipped": [" ".join(g) for g in run.flipped or []],
    }


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    return render(request, "games/game_detail.html", _game_context(request, game))


def _result_form_page(
    request: HttpRequest, game: Game, *, director: bool, status: int = 200, form: ResultForm
) -> HttpResponse:
    return render(
        request,
        "games/result_form.html",
        {
            "game": game,
            "tournament": game.tournament,
            "form": form,
            "director": director,
            # A jigo is offered only where the komi allows a level count.
            "suggestions": result_suggestions(game),
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_submit(request: HttpRequest, pk: int) -> HttpResponse:
    """A player submits the result of his own game."""
    game = _game(pk)
    if not is_participant(request.user, game):
        if is_director(request.user, game.tournament):
            return redirect("games:game-enter", pk=game.pk)
        raise Http404("No such game to submit a result for.")
    if game.state in LOCKED_STATES and request.method == "GET":
        return render(
            request,
            "games/refused.html",
            {"game": game, "tournament": game.tournament, "reasons": [LOCKED_MESSAGE]},
            status=403,
        )
    if request.method == "GET":
        return _result_form_page(request, game, director=False, form=ResultForm())
    return _result_form_post(
        request,
        game,
        director=False,
        service=services.game_result_submit,
        done="Result submitted; your opponent is asked to confirm it.",
    )


def _result_form_post(
    request: HttpRequest,
    game: Game,
    *,
    director: bool,
    service: Callable[..., Game],
    done: str,
) -> HttpResponse:
    """A posted result form: the service stores it (back to the game) or says why not
    (the form again, with the service's errors on their fields)."""
    form = ResultForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            stored = service(actor=request.user, game=game, **form.service_kwargs())
        except ValidationError as exc:
            apply_service_errors(form, exc, fields=form.error_fields())
        else:
            messages.success(request, done)
            for warning in stored.sgf_warnings or []:  # kept, but worth a second look
                messages.warning(request, f"About the record: {warning}.")
            _tell_if_check_waits(request, game)
            return redirect("games:game", pk=game.pk)
    return _result_form_page(request, game, director=director, form=form)


def _tell_if_check_waits(request: HttpRequest, game: Game) -> None:
    """The record was stored but the job queue was down: say it will be checked later."""
    run = scoring.latest_run(game)
    if run is not None and run.waiting_for_queue:
        messages.info(request, scoring.WAITING_MESSAGE)


@login_required
@require_http_methods(["GET", "POST"])
def game_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """A director enters or corrects a result (audited by the service)."""
    game = _game(pk)
    if not is_director(request.user, game.tournament):
        raise Http404("No such game to enter a result for.")
    if is_participant(request.user, game):
        return _refused(request, game, [CONFLICT_OF_INTEREST])
    if request.method == "GET":
        initial = {"result": game.result_display, "dead_stones": " ".join(game.dead_stones or [])}
        return _result_form_page(request, game, director=True, form=ResultForm(initial=initial))
    return _result_form_post(
        request, game, director=True, service=services.game_result_enter, done="Result entered."
    )


def _answer(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Confirm or contest (a player of the game, or a director), finalise (a director).

    Anyone else is not told the game has these forms: 404.
    """
    game = _game(pk)
    user = request.user
    allowed = (action != "finalise" and is_participant(user, game)) or is_director(
        user, game.tournament
    )
    if not allowed:
        raise Http404("No such game.")
    try:
        if action in ("confirm", "contest"):
            # The answer names the claim shown on the page; a changed one is refused.
            form = ContestForm(request.POST)
            form.is_valid()
            claim = form.cleaned_data.get("claim")  # None: the service says it is missing
        if action == "confirm":
            services.game_result_confirm(actor=user, game=game, claim=claim)
            messages.success(request, "Result confirmed: it is now final.")
        elif action == "contest":
            reason = form.cleaned_data.get("reason") or ""
            services.game_result_contest(actor=user, game=game, reason=reason, claim=claim)
            messages.success(
                request, "Result contested: a referee will look at it on the referee desk."
            )
        else:
            services.game_finalise(actor=user, game=game)
            messages.success(request, "Result finalised.")
    except ValidationError as exc:
        # The user may see the game but the service refuses him this step
        # (his own claim, nothing to confirm, a locked result): 403, with why;
        # a claim changed since the page was loaded: 409.
        changed = CLAIM_CHANGED in exc.messages
        return _refused(request, game, exc.messages, status=409 if changed else 403)
    except PermissionDenied as exc:  # a director finalising his own game
        return _refused(request, game, [str(exc)])
    return HttpResponseRedirect(game_url(game))


def _refused(
    request: HttpRequest, game: Game, reasons: list[str], *, status: int = 403
) -> HttpResponse:
    return render(
        request,
        "games/refused.html",
        {"game": game, "tournament": game.tournament, "reasons": reasons},
        status=status,
    )


def game_url(game: Game) -> str:
    return reverse("games:game", kwargs={"pk": game.pk})


@login_required
@require_POST
def game_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, "confirm")


@login_required
@require_POST
def game_contest(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, "contest")


@login_required
@require_POST
def game_finalise(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, "finalise")
