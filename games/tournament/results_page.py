"""The results page of a round, for its directors: one row per table, a click (or a
key) on the winner saves that game at once; the counters, the live updates
(``?format=json``) and the round's finalise (docs/tournaments.md, "Results")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games import messages as games_messages
from games import services
from games.models import LOCKED_STATES, Game, GameState, TeamBoard, Tournament
from games.selectors import games_guessed_at
from games.services.results import BOTH_WIN
from games.tournament.views import directed, wants_json
from ops.forms import refusal_text
from ops.services import StateConflict
from ops.text import small_number

# The one-click choices of the results page: (key, label, result).  The keys are the
# keyboard's letters; a jigo is offered only where the komi allows one.
RESULT_CHOICES = (
    ("b", "Black wins", "B+"),
    ("w", "White wins", "W+"),
    ("j", "jigo", "0"),
    ("1", "Black by default", "B+F"),
    ("2", "White by default", "W+F"),
    ("x", "both lose", "Void"),
    ("v", "both win", "both win"),
)


@dataclass(frozen=True)
class ResultRow:
    game: Game
    result: str  # as the page shows it and sends back as "seen"; "" for none
    choices: tuple[tuple[str, str, str], ...]


def result_choices(game: Game) -> tuple[tuple[str, str, str], ...]:
    return tuple(c for c in RESULT_CHOICES if game.jigo_possible or c[2] != "0")


def _round_games(tournament: Tournament, number: int) -> QuerySet[Game]:
    return Game.objects.filter(tournament=tournament, round__number=number)


def result_rows(tournament: Tournament, number: int) -> list[ResultRow]:
    """One row per table of round ``number``, in one query."""
    games = _round_games(tournament, number).select_related("round", "black", "white")
    return [
        ResultRow(g, g.result_display, result_choices(g)) for g in games.order_by("table", "id")
    ]


def match_labels(tournament: Tournament, number: int, rows: list[ResultRow]) -> dict[int, str]:
    """In a team event, each game's match ("Lyon 1 – Grenoble", the teams by number), for
    the page to head each match's boards (one query; none for other events)."""
    if not tournament.team_params:
        return {}
    team_of = dict(
        TeamBoard.objects.filter(tournament=tournament, round=number).values_list(
            "player_id", "team__name"
        )
    )
    labels = {}
    for row in rows:
        g = row.game
        names = [team_of.get(g.black_id), team_of.get(g.white_id)]
        if all(names):
            labels[g.pk] = " – ".join(sorted(str(n) for n in names))
    return labels


def _headed(rows: list[ResultRow], labels: dict[int, str]) -> list[tuple[ResultRow, str]]:
    """Each row with its match's name where a new match starts ("" elsewhere)."""
    out, before = [], ""
    for row in rows:
        label = labels.get(row.game.pk, "")
        out.append((row, label if label != before else ""))
        before = label
    return out


def result_row(tournament: Tournament, number: int, game_id: int) -> ResultRow | None:
    """The row of one game of round ``number`` (a click's answer), in one query."""
    game = (
        _round_games(tournament, number)
        .select_related("round", "black", "white")
        .filter(pk=game_id)
        .first()
    )
    return None if game is None else ResultRow(game, game.result_display, result_choices(game))


def result_counts(tournament: Tournament, number: int) -> dict[str, int]:
    """The results page's counters for round ``number``, in one query: results known
    (any recorded reason, "both win" included), games, known ones not yet locked nor
    disputed (the "Finalise" button's count), disputed ones (they wait for their
    rulings: the finalise leaves them, and says so) and games not locked."""
    known = ~Q(result_reason="")
    locked = Q(state__in=LOCKED_STATES)
    disputed = Q(state=GameState.DISPUTED)
    counts = _round_games(tournament, number).aggregate(
        known=Count("pk", filter=known),
        total=Count("pk"),
        to_finalise=Count("pk", filter=known & ~locked & ~disputed),
        disputed=Count("pk", filter=disputed),
        open=Count("pk", filter=~locked),
    )
    return {k: int(v) for k, v in counts.items()}


def _row_json(row: ResultRow) -> dict[str, Any]:
    return {
        "id": row.game.pk,
        "result": row.result,
        "state": row.game.state,
        "state_display": row.game.get_state_display(),
        "locked": row.game.is_locked,
    }


@login_required
@require_http_methods(["GET", "POST"])
def round_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One row per table: a click (or a letter) on the winner saves that game at once
    through ``game_result_enter``, refused (409) if its result changed since the page
    showed it.  ``?format=json`` answers the rows for the page's live updates."""
    tournament = directed(request, pk)
    if not 1 <= number <= tournament.number_of_rounds:
        raise Http404("No such round.")
    status, error = 200, ""
    if request.method == "POST" and request.POST.get("action") == "finalise":
        return _round_results_finalise(request, tournament, number)
    if request.method == "POST":
        status, error, saved = _round_result_post(request, tournament, number)
        if wants_json(request):
            return _round_result_answer(tournament, number, saved, status, error)
        if status == 200:
            return HttpResponseRedirect(
                reverse("games:round-results", args=[pk, number])
                + (f"?{request.GET.urlencode()}" if request.GET else "")
                + f"#game-{saved}"
            )
    rows = result_rows(tournament, number)
    counts = result_counts(tournament, number)
    if wants_json(request) or request.GET.get("format") == "json":
        games = [_row_json(r) for r in rows]
        return JsonResponse({**counts, "error": error, "game": None, "games": games}, status=status)
    unknown_only = request.GET.get("unknown") == "1"
    shown = [r for r in rows if not r.result] if unknown_only else rows
    return render(
        request,
        "games/round_results.html",
        {
            "tournament": tournament,
            "number": number,
            "rows": shown,
            "unknown_only": unknown_only,
            "error": error,
            "round_pk": rows[0].game.round_id if rows else None,
            "guessed": games_guessed_at([r.game.pk for r in rows]),
            "lines": _headed(shown, match_labels(tournament, number, shown)),
            **counts,
        },
        status=status,
    )


def _round_result_answer(
    tournament: Tournament, number: int, game_id: int | None, status: int, error: str
) -> JsonResponse:
    """A click's answer: the clicked game's row and the round's counters, in two queries,
    not the whole round (500 rows at a congress; the page polls for the others)."""
    row = None if game_id is None else result_row(tournament, number, game_id)
    return JsonResponse(
        {
            **result_counts(tournament, number),
            "error": error,
            "game": None if row is None else _row_json(row),
            "games": [],
        },
        status=status,
    )


def _round_results_finalise(
    request: HttpRequest, tournament: Tournament, number: int
) -> HttpResponse:
    """Every known result of the round not yet final becomes final (locked for good), in
    one transaction: all of them or none."""
    open_games = [
        r.game for r in result_rows(tournament, number) if r.result and not r.game.is_locked
    ]
    try:
        done = services.games_finalise(actor=request.user, games=open_games)
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, refusal_text(e))
    else:
        text = games_messages.finalised(
            count=len(done.games), where=f"round {number}", held=done.held
        )
        (messages.warning if done.held else messages.success)(request, text)
    return HttpResponseRedirect(reverse("games:round-results", args=[tournament.pk, number]))


def _round_result_post(
    request: HttpRequest, tournament: Tournament, number: int
) -> tuple[int, str, int | None]:
    """(status, error, game id) of one click: 200, 400 (a choice the game does not offer),
    403, 404 or 409 (changed meanwhile, or locked)."""
    game_id = small_number(request.POST.get("game"))
    game = (
        Game.objects.filter(tournament=tournament, round__number=number, pk=game_id)
        .select_related("tournament", "round", "black", "white")
        .first()
        if game_id is not None
        else None
    )
    if game is None:
        return 404, "There is no such game in this round.", None
    result = request.POST.get("result", "")
    if result not in {c[2] for c in result_choices(game)}:
        where = f"Table {game.table}" if game.table else f"Game {game.pk}"
        return 400, f"{where}: choose one of the offered results.", game.pk
    try:
        seen = request.POST.get("seen", "")
        if result == BOTH_WIN:
            services.game_both_win_enter(actor=request.user, game=game, seen=seen)
        else:
            services.game_result_enter(actor=request.user, game=game, result=result, seen=seen)
    except PermissionDenied as e:
        return 403, refusal_text(e), game.pk
    except StateConflict as e:
        return 409, refusal_text(e), game.pk
    except ValidationError as e:
        return 400, refusal_text(e), game.pk
    return 200, "", game.pk
