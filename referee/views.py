"""The referee desk: the queue, a dispute's page, and the forms that act on it.

Who sees what is as in the API (docs/referee.md); someone who may see a dispute but
not act on it gets a 403 with the reason.  Each view parses the request and calls one
service.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import permissions
from games.engine.coords import CoordinateError, parse_point
from games.engine.record import parse_record
from games.engine.rules import get_rules
from games.engine.sgf import SgfError
from games.models import Game, Tournament
from games.svg import board_svg
from ops.forms import apply_service_errors
from ops.text import small_number
from referee import remedies, roles, selectors, services
from referee import trail as trail_text
from referee.forms import (
    DisputeForm,
    KindForm,
    OfficialsFields,
    RulingForm,
    officials_initial,
)
from referee.models import Dispute, DisputeState, Level


def _dispute(request: HttpRequest, pk: int) -> Dispute:
    dispute = get_object_or_404(selectors.dispute_detail_queryset(), pk=pk)
    if not roles.can_see_dispute(request.user, dispute):
        raise Http404("No such dispute.")
    return dispute


def _refused(request: HttpRequest, dispute: Dispute, reasons: list[str]) -> HttpResponse:
    game = dispute.game
    return render(
        request,
        "games/refused.html",
        {"game": game, "tournament": game.tournament, "reasons": reasons},
        status=403,
    )


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    disputes = list(selectors.dispute_queue(user=request.user))
    directed = list(Tournament.objects.filter(directors=request.user.pk).order_by("-start_date"))
    return render(request, "referee/queue.html", {"disputes": disputes, "directed": directed})


NO_COUNT_REASONS = ("+R", "+T", "+F")  # results no count decides


def _board(dispute: Dispute, at: int | None = None) -> dict[str, Any]:
    """The board at the disputed move (or move ``at``, stepping through), the stones in
    dispute marked, the move list, the engine's report and its count where a count
    decides the game."""
    text = dispute.evidence.get("record") or dispute.game.sgf
    out: dict[str, Any] = {"svg": None, "moves": [], "at": dispute.move_number, "error": ""}
    if not text:  # no record, no board: an empty grid reads as "nothing was played"
        return out
    try:
        record = parse_record(text)
    except (SgfError, ValueError) as e:
        out["error"] = f"The record cannot be read: {e}"
        return out
    rules = get_rules(dispute.game.rules)
    total = remedies.move_count(record)
    shown = at if at is not None and 0 <= at <= total else (dispute.move_number or total)
    position = remedies.position_at(record, rules, shown)
    stones = position.board.stones()
    marked: list[Any] = []
    for label in dispute.evidence.get("stones") or []:  # dead stones in dispute
        try:
            marked.append(parse_point(label, record.size))
        except CoordinateError:
            continue
    last = position.last_move.point if position.last_move is not None else None
    out["svg"] = mark_safe(  # board_svg: numbers and fixed labels only
        board_svg(record.size, stones, last_move=last, dead=marked)
    )
    out["at"] = shown
    out["total"] = total
    out["steps"] = {
        "first": 0,
        "previous": max(0, shown - 1),
        "next": min(total, shown + 1),
        "last": total,
        "disputed": dispute.move_number,
    }
    out["moves"] = remedies.move_list(record)
    out["legality"] = remedies.legality_report(record, rules)
    result = str((dispute.evidence.get("game") or {}).get("result") or "")
    if not result.endswith(NO_COUNT_REASONS) and position_ended(record, rules):
        out["count"] = dispute.evidence.get("count") or remedies.count(
            record, rules, komi=Decimal(dispute.game.komi)
        )
    else:
        out["no_count"] = (
            f"No count: the game ended {('by ' + _reason(result)) if result else 'without two passes'}."
        )
    return out


def _reason(result: str) -> str:
    return {"+R": "resignation", "+T": "time", "+F": "forfeit"}.get(result[1:], "other means")


def position_ended(record: Any, rules: Any) -> bool:
    """The record ends with both players passing: a count decides it."""
    return bool(remedies.position_at(record, rules, None).ended_by_passes)


def _ruling_form(dispute: Dispute) -> RulingForm:
    """An appeal's form starts from the result the ruling under appeal set: left as it
    is, that result stands."""
    standing = services.standing_result(dispute)
    agreed = selectors.agreed_marking(dispute)  # a replay and a count: once per page
    return RulingForm(
        kind=dispute.kind,
        outcomes=selectors.ruling_choices(dispute, agreed),
        agreed=agreed,
        initial={"result": standing} if standing else None,
    )


def _page(
    request: HttpRequest, dispute: Dispute, *, form: RulingForm | None = None, status: int = 200
) -> HttpResponse:
    user = request.user
    game = dispute.game
    can_rule = dispute.state != DisputeState.CLOSED and roles.can_rule(user, dispute)
    standing = next((r for r in dispute.rulings.all() if r.level == dispute.level), None)
    ruled = dispute.state == DisputeState.RULED
    until = selectors.appeal_deadline(standing) if standing is not None and ruled else None
    player = permissions.player_for(user)
    accepted = {a.player_id for a in standing.acceptances.all()} if standing else set()
    official = roles.is_official(user, game.tournament)
    trail = list(selectors.audit_for_dispute(dispute)) if official else []
    ctx = {
        "dispute": dispute,
        "game": game,
        "tournament": game.tournament,
        "board": _board(dispute, _at(request)),
        "appeals": trail_text.appeal_reasons(trail) if official else [],
        "kind_form": KindForm(initial={"kind": dispute.kind})
        if can_rule and dispute.state in (DisputeState.OPEN, DisputeState.ASSIGNED)
        else None,
        "rulings": list(dispute.rulings.all()),
        "votes": list(dispute.votes.all()),
        # Only while this level has not ruled: a ruled dispute's page says what stands
        # now (the form's sentences compare with the result before the dispute).
        "form": form or (_ruling_form(dispute) if can_rule and not ruled else None),
        "ruled_now": ruled,
        "can_rule": can_rule,
        "can_appeal": roles.is_party(user, game)
        and dispute.state == DisputeState.RULED
        and dispute.level < Level.COMMITTEE
        and (until is None or timezone.now() <= until),
        "appeal_until": until,
        "can_accept": dispute.state == DisputeState.RULED
        and roles.is_party(user, game)
        and player is not None
        and player.pk not in accepted,
        "accepted_by": [p for p in (game.black, game.white) if p.pk in accepted],
        "can_close": dispute.state == DisputeState.RULED and roles.can_close(user, dispute),
        "can_take": dispute.state in (DisputeState.OPEN, DisputeState.ASSIGNED)
        and permissions.is_referee(user, game.tournament)
        and dispute.assigned_referee_id != getattr(user, "pk", None),
        "audit": [(e, trail_text.sentence(e)) for e in trail] if official else None,
    }
    return render(request, "referee/dispute_detail.html", ctx, status=status)


def _at(request: HttpRequest) -> int | None:
    """The move to show (``?at=12``), stepping through the record."""
    text = request.GET.get("at", "")
    return small_number(text, digits=4)


@require_GET
def dispute_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, _dispute(request, pk))


@login_required
@require_POST
def dispute_rule(request: HttpRequest, pk: int) -> HttpResponse:
    dispute = _dispute(request, pk)
    if not roles.can_rule(request.user, dispute):
        reason = roles.conflict_of_interest(request.user, dispute) or roles.who_rules(dispute)
        return _refused(request, dispute, [reason])
    agreed = selectors.agreed_marking(dispute)  # a replay and a count: once per request
    form = RulingForm(
        request.POST,
        kind=dispute.kind,
        outcomes=selectors.ruling_choices(dispute, agreed),
        agreed=agreed,
    )
    if form.is_valid():
        try:
            services.dispute_rule(actor=request.user, dispute=dispute, **form.service_kwargs())
        except PermissionDenied as exc:
            return _refused(request, dispute, [str(exc)])
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, "Recorded.")
            return redirect("referee:dispute", pk=dispute.pk)
    return _page(request, _dispute(request, pk), form=form, status=400)


def _action(
    call: Callable[[HttpRequest, Dispute], object], done: str
) -> Callable[[HttpRequest, int], HttpResponse]:
    """A POST that calls one service on the dispute and returns to its page saying ``done``;
    the service's refusal is a 403 page with its reasons."""

    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        dispute = _dispute(request, pk)
        try:
            call(request, dispute)
        except (PermissionDenied, ValidationError) as exc:
            reasons = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            return _refused(request, dispute, reasons)
        messages.success(request, done)
        return redirect("referee:dispute", pk=dispute.pk)

    return view


dispute_appeal = _action(
    lambda request, dispute: services.dispute_appeal(
        actor=request.user, dispute=dispute, reason=request.POST.get("reason", "")[:4000]
    ),
    "Appeal lodged.",
)
dispute_accept = _action(
    lambda request, dispute: services.dispute_accept(actor=request.user, dispute=dispute),
    "You accept the ruling.",
)
dispute_close = _action(
    lambda request, dispute: services.dispute_close(actor=request.user, dispute=dispute),
    "Dispute closed.",
)
dispute_kind = _action(
    lambda request, dispute: services.dispute_kind_set(
        actor=request.user, dispute=dispute, kind=request.POST.get("kind", "")
    ),
    "The dispute's kind is changed.",
)
dispute_take = _action(
    lambda request, dispute: services.dispute_assign(
        actor=request.user, dispute=dispute, referee=request.user
    ),
    "The dispute is yours.",
)


@login_required
@require_http_methods(["GET", "POST"])
def dispute_open(request: HttpRequest, game_pk: int) -> HttpResponse:
    """A player (or an official) raises a dispute from the game page."""
    game = get_object_or_404(
        Game.objects.select_related("tournament", "round", "black", "white"), pk=game_pk
    )
    if not roles.can_raise_dispute(request.user, game):
        raise Http404("No such game to raise a dispute on.")
    form = DisputeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                dispute = services.dispute_open(
                    actor=request.user, game=game, **form.service_kwargs()
                )
            except ValidationError as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(request, "Dispute raised: a referee will look at it.")
                return redirect("referee:dispute", pk=dispute.pk)
        status = 400
    ctx = {"game": game, "tournament": game.tournament, "form": form}
    return render(request, "referee/dispute_form.html", ctx, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_officials(request: HttpRequest, pk: int) -> HttpResponse:
    """A director names the tournament's chief referee and arbitration committee.

    Its officials and players see the page but get 403; anyone else 404.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    user = request.user
    if not roles.can_see_officials_page(user, tournament):
        raise Http404("No such tournament at your desk.")
    if not roles.can_name_officials(user, tournament):
        reasons = ["Only the tournament's directors name its officials."]
        ctx = {"tournament": tournament, "reasons": reasons}
        return render(request, "games/refused.html", ctx, status=403)
    officials = roles.officials_of(tournament)
    form = OfficialsFields(request.POST or None, initial=officials_initial(officials))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.tournament_officials_set(
                    actor=user, tournament=tournament, **form.service_kwargs()
                )
            except ValidationError as exc:
                apply_service_errors(form, exc, fields=form.error_fields())
            else:
                messages.success(request, "Officials saved.")
                return redirect("referee:tournament-officials", pk=tournament.pk)
        status = 400
    ctx = {
        "tournament": tournament,
        "form": form,
        "referees": sorted(u.get_username() for u in tournament.referees.all()),
    }
    return render(request, "referee/officials.html", ctx, status=status)
