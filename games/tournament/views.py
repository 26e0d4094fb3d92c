"""The tournament day's pages: the tournament list, a tournament and its rounds, the
standings (public, and printable), and for its directors the entry list, the check-in
grid and the close.  Each write is one POST through a service
(docs/tournaments.md, "Directors' admin")."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from games import cache as page_cache
from games.models import (
    Presence,
    Round,
    Tournament,
    TournamentEntry,
)
from games.people import selectors as people_selectors
from games.permissions import is_director, is_federation_official
from games.tournament import pages
from games.tournament import selectors as day_selectors
from games.tournament import services as tournament_services
from games.tournament.services.lifecycle import OpenDisputes, UnfinishedGames
from ops.forms import refusal_text
from ops.pages import cache
from ops.pages.compress import Page
from ops.pages.responses import (
    FRAGMENTS,
    fragment_entry,
    lazy_context,
    reader_copy,
    render_spliced,
    splice_mark,
    visitor_cached,
)
from ops.services import StateConflict
from ops.text import small_number

NEXT_PRESENCE = {Presence.PLAY: Presence.ABSENT, Presence.ABSENT: Presence.BYE}
CELL_LABELS = {Presence.PLAY: "play", Presence.ABSENT: "absent", Presence.BYE: "bye"}
NEXT_PRESENCE[Presence.BYE] = Presence.PLAY


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-start_date", "name")
    return render(request, "games/tournament_list.html", {"tournaments": tournaments})


@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # What the page shows changes with the event only: its entries, games and rounds, and
    # its players' names (a player's save bumps the events he is in, games.cache).
    names = [page_cache.tournament(pk)]
    return visitor_cached(
        request, pages.tournament_key(pk), names, lambda: _tournament_page(request, pk, names)
    )


def _tournament_page(request: HttpRequest, pk: int, names: list[str]) -> HttpResponse:
    # The versions first: the row and fragment kept under them are then never older.
    versions = cache.versions(names)
    head = day_selectors.tournament_head(pk, versions)
    if head is None:
        raise Http404
    tournament = head.tournament

    def body() -> dict[str, Any]:
        rounds = list(tournament.rounds.order_by("number"))
        data = day_selectors.event_of(tournament)  # the entries, once for both tables
        # The current round's games only: the earlier rounds are one click away on their
        # own pages (a congress's every game made this page 1.7 MB).
        current = rounds[-1] if rounds else None
        games = day_selectors.with_entry_ranks(
            tournament,
            day_selectors.tournament_games(tournament, round_id=current.pk) if current else [],
            data.entries,
        )
        # The standings replace the old points-then-wins crosstable (docs/tournaments.md).
        table = day_selectors.standings_of(tournament, data=data)
        return {
            "rounds": rounds,
            "current": (current, games) if current else None,
            "round_numbers": list(range(1, table.round + 1)),
            "table": table,
            "standings": list(zip(table.rows, table.rounds, strict=True)),
        }

    director = is_director(request.user, tournament, directors=head.directors)
    if not director:  # nothing on the page is his but the header: the visitors' copy
        copy = reader_copy(request, pages.tournament_key(pk), names)
        if copy is not None:
            return copy
    return render_spliced(
        request,
        "games/tournament_detail.html",
        {
            "tournament": tournament,
            # The crosstable and rounds are a cached fragment (the template's
            # versioned_cache) until one of these versions is bumped.
            "versions": versions,
            "body_fragment": pages.TOURNAMENT_BODY,  # the worker rebuilds it by this name
            **lazy_context(body, ["rounds", "current", "round_numbers", "table", "standings"]),
            "is_director": director,
            "review": people_selectors.duplicates_open_of(tournament).count() if director else 0,
            "result_rounds": range(1, tournament.number_of_rounds + 1),
        },
    )


@require_GET
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=number
    )
    games = day_selectors.with_entry_ranks(
        rnd.tournament, list(rnd.games.select_related("black", "white").order_by("table", "id"))
    )
    return render(
        request,
        "games/round_detail.html",
        {"round": rnd, "tournament": rnd.tournament, "games": games},
    )


@require_GET
def round_where(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Where do I play: a round's tables for the players' phones, searchable by name
    (``?q=``, no script needed).  Cached like the tournament page; a search filters the
    round's cached rows, so it reads no database whatever is typed (docs/tournaments.md,
    "Where do I play")."""
    query = " ".join(request.GET.get("q", "").split())[: day_selectors.WHERE_QUERY]
    names = [page_cache.tournament(pk)]
    key = f"where.{pk}.{number}"
    page = functools.partial(_round_where_page, request, pk, number, key, names, query)
    return page() if query else visitor_cached(request, f"page.{key}", names, page)


def _round_where_page(
    request: HttpRequest, pk: int, number: int, key: str, names: list[str], query: str
) -> HttpResponse:
    # Nothing on it is the reader's but the header: a signed-in reader gets the visitors'.
    copy = None if query else reader_copy(request, f"page.{key}", names)
    if copy is not None:
        return copy
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=number
    )
    versions = cache.versions(names)

    def body() -> str:
        # Not one entry per query: any text can be typed, and the rows are what cost.
        everyone = cache.single_flight(
            f"rows.{key}@{versions}", functools.partial(day_selectors.where_round, rnd)
        )
        return render_to_string(
            "games/_round_where_body.html",
            {
                "tournament": rnd.tournament,
                "round": rnd,
                **day_selectors.where_tables(rnd, query, everyone),
            },
        )

    fragment = body() if query else cache.single_flight(f"{fragment_entry(key)}@{versions}", body)
    return render(
        request,
        "games/round_where.html",
        {"tournament": rnd.tournament, "round": rnd, "body": mark_safe(fragment), "q": query},
    )


def directed(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, for one of its directors; 404 for everyone else."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_director(request.user, tournament):
        raise Http404
    return tournament


@require_GET
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings after a round (``?round=``), with the crosstable; ``?print=1`` is the
    printable version (no header, a page break every ``PRINT_ROWS`` lines).  Cached like
    the tournament page: whole for a visitor, the body below the header for anyone else."""
    after = request.GET.get("round")
    number = small_number(after, digits=4)
    printable = request.GET.get("print") == "1"
    names = [page_cache.tournament(pk)]
    key = pages.standings_key(pk, number, printable)
    return visitor_cached(
        request,
        f"page.{key}",
        names,
        lambda: _standings_page(request, pk, key, names, number, printable),
    )


def _standings_page(
    request: HttpRequest,
    pk: int,
    key: str,
    names: list[str],
    number: int | None,
    printable: bool,
) -> HttpResponse:
    # Nothing on it is the reader's but the header: a signed-in reader gets the visitors'.
    copy = reader_copy(request, f"page.{key}", names)
    if copy is not None:
        return copy
    # As the tournament page: its row kept under the versions the fragment is read by.
    versions = cache.versions(names)
    head = day_selectors.tournament_head(pk, versions)
    if head is None:
        raise Http404
    tournament = head.tournament

    def body() -> Page:
        try:
            table = day_selectors.standings_of(tournament, after_round=number)
        except ValueError as e:
            raise Http404(str(e)) from None
        return Page.of(
            render_to_string(
                "games/_standings_body.html",
                {
                    "tournament": tournament,
                    "table": table,
                    "rows": list(zip(table.rows, table.rounds, strict=True)),
                    "round_numbers": list(range(1, table.round + 1)),
                    "choices": list(range(1, tournament.number_of_rounds + 1)),
                    "print": printable,
                },
            )
        )

    fragment = cache.single_flight(f"{fragment_entry(key)}@{versions}", body)
    context: dict[str, Any] = {"tournament": tournament, "print": printable, FRAGMENTS: []}
    context["body"] = splice_mark(context, fragment)
    return render_spliced(request, "games/standings.html", context)


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_GET
def checkin(request: HttpRequest, pk: int) -> HttpResponse:
    """Players × rounds: one click on a cell moves it playing → absent → bye → playing."""
    tournament = directed(request, pk)
    rows = tournament.entries.select_related("player").order_by(
        "player__family_name", "player__given_name"
    )
    numbers = list(range(1, tournament.number_of_rounds + 1))
    grid = [(e, [(n, e.presence(n)) for n in numbers]) for e in rows]
    return render(
        request,
        "games/checkin.html",
        {"tournament": tournament, "grid": grid, "round_numbers": numbers},
    )


@login_required
@require_POST
def checkin_toggle(request: HttpRequest, pk: int, entry_pk: int, number: int) -> HttpResponse:
    tournament = directed(request, pk)
    entry = get_object_or_404(TournamentEntry, pk=entry_pk, tournament=tournament)
    presence = request.POST.get("presence") or NEXT_PRESENCE[Presence(entry.presence(number))]
    error, status = "", 200
    try:
        entry = tournament_services.entry_participation_set(
            actor=request.user, entry=entry, round_number=number, presence=presence
        )
    except StateConflict as e:
        error, status = refusal_text(e), 409
    except (ValidationError, PermissionDenied) as e:
        error, status = refusal_text(e), 400
    if wants_json(request):  # the grid's click: the cell changes in place, no reload
        now = Presence(entry.presence(number))
        return JsonResponse(
            {"presence": now.value, "label": CELL_LABELS[now], "error": error}, status=status
        )
    if error:
        messages.error(request, error)
    return HttpResponseRedirect(reverse("games:checkin", args=[pk]) + f"#entry-{entry.pk}")


@login_required
@require_POST
def checkin_withdraw(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    """The player withdraws from round R on, in one action (``entry_withdraw``)."""
    tournament = directed(request, pk)
    entry = get_object_or_404(TournamentEntry, pk=entry_pk, tournament=tournament)
    number = small_number(request.POST.get("from_round"), digits=4)
    try:
        if number is None:
            raise ValidationError("Say from which round he withdraws.")
        tournament_services.entry_withdraw(actor=request.user, entry=entry, from_round=number)
        messages.success(request, f"{entry.player} withdraws from round {number} on.")
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, refusal_text(e))
    return HttpResponseRedirect(reverse("games:checkin", args=[pk]) + f"#entry-{entry.pk}")


@login_required
@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = directed(request, pk)
    try:
        tournament_services.tournament_close(
            actor=request.user, tournament=tournament, reason=request.POST.get("reason", "")
        )
        messages.success(request, "The tournament is closed: its games go to the ratings.")
    except UnfinishedGames as e:  # each blocking game named, linked with its round's results
        disputed = isinstance(e, OpenDisputes)
        messages.error(
            request,
            format_html(
                "{} game{} {}:<ul>{}</ul>{}",
                e.count,
                ("" if e.count == 1 else "s")
                if disputed
                else (" has" if e.count == 1 else "s have"),
                (
                    "under an open dispute; a referee rules first (a federation official "
                    "may close with a reason, leaving them open)"
                    if disputed
                    else "no final result yet; confirm or finalise them before closing"
                ),
                format_html_join(
                    "",
                    '<li><a href="{}">round {}{}: {} v {}</a> ({}) · '
                    '<a href="{}">results of round {}</a></li>',
                    (
                        (
                            reverse("games:game", args=[g.pk]),
                            g.round.number,
                            f", table {g.table}" if g.table else "",
                            g.black,
                            g.white,
                            g.get_state_display(),
                            reverse("games:round-results", args=[pk, g.round.number])
                            + f"#game-{g.pk}",
                            g.round.number,
                        )
                        for g in e.games
                    ),
                ),
                f"and {e.count - len(e.games)} more." if e.count > len(e.games) else "",
            ),
        )
        if disputed and is_federation_official(request.user):
            # Only a federation official closes over open disputes, and only with a reason.
            messages.info(
                request,
                format_html(
                    '<form method="post" action="{}" id="close-over-disputes">'
                    '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
                    "<label>Close over the open disputes (they stay open for their rulings "
                    'and reach the ratings when locked); your reason: <input name="reason" '
                    'maxlength="500" required></label> <button type="submit">Close with this '
                    "reason</button></form>",
                    reverse("games:close", args=[pk]),
                    get_token(request),
                ),
            )
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, refusal_text(e))
    return HttpResponseRedirect(reverse("games:tournament", args=[pk]))
