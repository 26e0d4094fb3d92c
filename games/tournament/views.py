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
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import cache as page_cache
from games import services
from games.messages import entered_from_list
from games.models import (
    Game,
    Player,
    Presence,
    Round,
    Tournament,
    TournamentEntry,
)
from games.people import selectors as people_selectors
from games.people import services as people
from games.people.services import invitations
from games.permissions import is_director
from games.services import outbound
from games.tournament import pages
from games.tournament import selectors as day_selectors
from games.tournament import services as tournament_services
from games.tournament.services import files
from games.tournament.services.lifecycle import UnfinishedGames
from ops.forms import posted_id, refusal_text
from ops.pages import cache
from ops.pages.compress import Page
from ops.pages.responses import (
    FRAGMENTS,
    fragment_entry,
    lazy_context,
    render_spliced,
    splice_mark,
    visitor_cached,
)
from ops.services import StateConflict
from ops.text import small_number
from ratings.ranks import Rank

NEXT_PRESENCE = {Presence.PLAY: Presence.ABSENT, Presence.ABSENT: Presence.BYE}
NEXT_PRESENCE[Presence.BYE] = Presence.PLAY
SEARCH_LIMIT = 15


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
    (``?q=``, no script needed).  Cached like the tournament page; a search is filtered
    from the same rows, not cached (docs/tournaments.md, "Where do I play")."""
    query = " ".join(request.GET.get("q", "").split())[: day_selectors.WHERE_QUERY]
    names = [page_cache.tournament(pk)]
    key = f"where.{pk}.{number}"
    page = functools.partial(_round_where_page, request, pk, number, key, names, query)
    return page() if query else visitor_cached(request, f"page.{key}", names, page)


def _round_where_page(
    request: HttpRequest, pk: int, number: int, key: str, names: list[str], query: str
) -> HttpResponse:
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"), tournament_id=pk, number=number
    )

    def body() -> str:
        return render_to_string(
            "games/_round_where_body.html",
            {"tournament": rnd.tournament, "round": rnd, **day_selectors.where_tables(rnd, query)},
        )

    fragment = (
        body() if query else cache.single_flight(f"fragment.{key}@{cache.versions(names)}", body)
    )
    return render(
        request,
        "games/round_where.html",
        {"tournament": rnd.tournament, "round": rnd, "body": mark_safe(fragment), "q": query},
    )


def _directed(request: HttpRequest, pk: int) -> Tournament:
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


@login_required
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry list: enter a player found by name, a new player, or a CSV of players."""
    tournament = _directed(request, pk)
    if request.method == "POST":
        try:
            _entries_post(request, tournament)
        except (ValidationError, PermissionDenied) as e:
            messages.error(request, refusal_text(e))
        return HttpResponseRedirect(reverse("games:entries", args=[pk]))
    rows = tournament.entries.select_related("player").order_by(
        "player__family_name", "player__given_name"
    )
    return render(
        request,
        "games/entries.html",
        {
            "tournament": tournament,
            "entries": rows,
            "ranks": [str(r) for r in _ranks()],
            "review": people_selectors.duplicates_open_of(tournament).count(),
        },
    )


def _ranks() -> list[Rank]:
    return [Rank(i) for i in range(8, -31, -1)]


def _entries_post(request: HttpRequest, tournament: Tournament) -> None:
    what = request.POST.get("action")
    if what == "enter":
        player = Player.objects.filter(
            pk=posted_id(request, "player", "Choose a player from the list.")
        ).first()
        if player is None:
            raise ValidationError({"player": "Choose a player from the list."})
        rank = request.POST.get("rank") or None
        tournament_services.entry_add(
            actor=request.user, tournament=tournament, player=player, rank=rank
        )
        messages.success(request, f"{player} entered.")
    elif what == "new":
        player = people.player_create(
            actor=request.user,
            family_name=request.POST.get("family_name", ""),
            given_name=request.POST.get("given_name", ""),
            rank=request.POST.get("rank", ""),
            club=request.POST.get("club") or None,
            country=request.POST.get("country", "").upper(),
        )
        tournament_services.entry_add(actor=request.user, tournament=tournament, player=player)
        messages.success(request, f"{player} added and entered.")
    elif what == "list":
        row = outbound.rating_list_row(
            posted_id(request, "list_entry", "Choose a player from the lists.")
        )
        if row is None:
            raise ValidationError({"list_entry": "Choose a player from the lists."})
        listed = tournament_services.entry_add_from_list(
            actor=request.user, tournament=tournament, row=row
        )
        messages.success(
            request,
            entered_from_list(
                player=listed.entry.player,
                source=row.source,
                linked=listed.linked,
                review=listed.review,
            ),
        )
    elif what == "update":
        entry = get_object_or_404(
            TournamentEntry,
            pk=posted_id(request, "entry", "Reload the page: that entry is not known."),
            tournament=tournament,
        )
        tournament_services.entry_update(actor=request.user, entry=entry, **_entry_fields(request))
        messages.success(request, f"{entry.player}'s entry is saved.")
    elif what == "csv":
        messages.success(request, _import_csv(request, tournament))
    elif what == "invite":
        done = invitations.entry_list_invite(
            actor=request.user,
            tournament=tournament,
            accept_url=lambda token: request.build_absolute_uri(
                reverse("invitation-accept", args=[token])
            ),
        )
        messages.success(request, str(done))
    elif what == "remove":
        entry = get_object_or_404(
            TournamentEntry,
            pk=posted_id(request, "entry", "Reload the page: that entry is not known."),
            tournament=tournament,
        )
        tournament_services.entry_remove(actor=request.user, entry=entry)
        messages.success(request, f"{entry.player} is no longer entered.")
    else:
        raise ValidationError("Unknown action.")


def _entry_fields(request: HttpRequest) -> dict[str, Any]:
    """The entry form's fields, as ``entry_update`` takes them (a bad number is a 400-like
    message on the page, never a 500)."""
    post = request.POST
    out: dict[str, Any] = {
        "rank": post.get("rank", ""),
        "club": post.get("club", ""),
        "country": post.get("country", ""),
    }
    for name in ("rating", "smms_correction"):
        text = post.get(name, "").strip()
        if not text and name == "rating":
            out[name] = None
            continue
        try:
            out[name] = int(text or "0")
        except ValueError:
            raise ValidationError({name: f"{text!r} is not a whole number."}) from None
    return out


def _import_csv(request: HttpRequest, tournament: Tournament) -> str:
    """Enter the players of a CSV (``services.files``); what it did, in words."""
    upload = request.FILES.get("file")
    if upload is None or (upload.size or 0) > files.ENTRIES_MAX_BYTES:
        raise ValidationError({"file": "Choose a CSV file (at most 1 MB)."})
    done = files.entries_import_csv(actor=request.user, tournament=tournament, data=upload.read())
    text = (
        f"{done.entered} players entered from the file: {done.linked} linked, "
        f"{done.created} created, {done.review} queued for review"
    )
    if not done.review:
        return text + "."
    url = reverse("games:duplicates") + f"?tournament={tournament.pk}"
    return format_html('{} (<a href="{}">the review list</a>).', text, url)


@login_required
@require_GET
def player_search(request: HttpRequest, pk: int) -> JsonResponse:
    """Players whose names hold every word typed (for the entry list's search box)."""
    tournament = _directed(request, pk)
    query = request.GET.get("q", "").strip()
    if len(query) < 2:
        return JsonResponse({"players": [], "listed": []})
    entered = set(tournament.entries.values_list("player_id", flat=True))
    found = people_selectors.search_players(query, limit=SEARCH_LIMIT)
    return JsonResponse(
        {
            "players": [
                {
                    "id": p.pk,
                    "name": p.full_name,
                    "rank": str(p.rank),
                    "club": p.club.name if p.club else "",
                    "entered": p.pk in entered,
                }
                for p in found
            ],
            "listed": [
                {
                    "id": e.id,
                    "name": f"{e.family_name} {e.given_name}".strip(),
                    "rank": str(Rank(e.rank)) if e.rank is not None else "",
                    "rating": e.rating,
                    "club": e.club,
                    "country": e.country,
                    "federation": e.source.upper(),
                    "federation_id": e.federation_id,
                }
                for e in outbound.rating_list_rows(query)[:SEARCH_LIMIT]
            ],
        }
    )


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _row_json(row: day_selectors.ResultRow) -> dict[str, Any]:
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
    tournament = _directed(request, pk)
    if not 1 <= number <= tournament.number_of_rounds:
        raise Http404("No such round.")
    status, error = 200, ""
    if request.method == "POST" and request.POST.get("action") == "finalise":
        return _round_results_finalise(request, tournament, number)
    if request.method == "POST":
        status, error, saved = _round_result_post(request, tournament, number)
        if _wants_json(request):
            return _round_result_answer(tournament, number, saved, status, error)
        if status == 200:
            return HttpResponseRedirect(
                reverse("games:round-results", args=[pk, number])
                + (f"?{request.GET.urlencode()}" if request.GET else "")
                + f"#game-{saved}"
            )
    rows = day_selectors.round_results(tournament, number)
    counts = day_selectors.round_result_counts(tournament, number)
    if _wants_json(request) or request.GET.get("format") == "json":
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
            **counts,
        },
        status=status,
    )


def _round_result_answer(
    tournament: Tournament, number: int, game_id: int | None, status: int, error: str
) -> JsonResponse:
    """A click's answer: the clicked game's row and the round's counters, in two queries,
    not the whole round (500 rows at a congress; the page polls for the others)."""
    row = None if game_id is None else day_selectors.round_result_row(tournament, number, game_id)
    return JsonResponse(
        {
            **day_selectors.round_result_counts(tournament, number),
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
        r.game
        for r in day_selectors.round_results(tournament, number)
        if r.result and not r.game.is_locked
    ]
    try:
        services.games_finalise(actor=request.user, games=open_games)
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, refusal_text(e))
    else:
        messages.success(request, f"{len(open_games)} result(s) of round {number} are final.")
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
    if result not in {c[2] for c in day_selectors.result_choices(game)}:
        where = f"Table {game.table}" if game.table else f"Game {game.pk}"
        return 400, f"{where}: choose one of the offered results.", game.pk
    try:
        services.game_result_enter(
            actor=request.user, game=game, result=result, seen=request.POST.get("seen", "")
        )
    except PermissionDenied as e:
        return 403, refusal_text(e), game.pk
    except StateConflict as e:
        return 409, refusal_text(e), game.pk
    except ValidationError as e:
        return 400, refusal_text(e), game.pk
    return 200, "", game.pk


@login_required
@require_GET
def checkin(request: HttpRequest, pk: int) -> HttpResponse:
    """Players × rounds: one click on a cell moves it playing → absent → bye → playing."""
    tournament = _directed(request, pk)
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
    tournament = _directed(request, pk)
    entry = get_object_or_404(TournamentEntry, pk=entry_pk, tournament=tournament)
    presence = request.POST.get("presence") or NEXT_PRESENCE[Presence(entry.presence(number))]
    try:
        tournament_services.entry_participation_set(
            actor=request.user, entry=entry, round_number=number, presence=presence
        )
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, refusal_text(e))
    return HttpResponseRedirect(reverse("games:checkin", args=[pk]) + f"#entry-{entry.pk}")


@login_required
@require_POST
def checkin_withdraw(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    """The player withdraws from round R on, in one action (``entry_withdraw``)."""
    tournament = _directed(request, pk)
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
    tournament = _directed(request, pk)
    try:
        tournament_services.tournament_close(actor=request.user, tournament=tournament)
        messages.success(request, "The tournament is closed: its games go to the ratings.")
    except UnfinishedGames as e:  # each blocking game named, linked with its round's results
        messages.error(
            request,
            format_html(
                "{} game{} no final result yet; confirm or finalise them before "
                "closing:<ul>{}</ul>{}",
                e.count,
                " has" if e.count == 1 else "s have",
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
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, refusal_text(e))
    return HttpResponseRedirect(reverse("games:tournament", args=[pk]))
