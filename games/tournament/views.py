"""The tournament day's pages: the tournament list, a tournament and its rounds, the
standings (public, and printable), and for its directors the entry list, the check-in
grid and the close.  Each write is one POST through a service
(docs/tournaments.md, "Directors' admin")."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import cache as page_cache
from games import selectors, services
from games.models import Game, Player, Presence, Round, Tournament, TournamentEntry
from games.permissions import is_director
from games.tournament import selectors as day_selectors
from games.tournament import services as tournament_services
from games.views.public import lazy_context, visitor_cached
from ops import cache
from ratings.ranks import Rank

NEXT_PRESENCE = {Presence.PLAY: Presence.ABSENT, Presence.ABSENT: Presence.BYE}
NEXT_PRESENCE[Presence.BYE] = Presence.PLAY
SEARCH_LIMIT = 15
RECENT_TOURNAMENTS = 10
CSV_MAX_BYTES = 1_000_000


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-start_date", "name")[:RECENT_TOURNAMENTS]
    return render(request, "games/home.html", {"tournaments": tournaments})


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
        request, f"page.tournament.{pk}", names, lambda: _tournament_page(request, pk, names)
    )


def _tournament_page(request: HttpRequest, pk: int, names: list[str]) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)

    def body() -> dict[str, Any]:
        rounds = list(tournament.rounds.order_by("number"))
        games = day_selectors.with_entry_ranks(
            tournament, list(day_selectors.tournament_games(tournament))
        )
        by_round: dict[int, list[Game]] = {r.pk: [] for r in rounds}
        for g in games:
            by_round.setdefault(g.round_id, []).append(g)
        # The standings replace the old points-then-wins crosstable (docs/tournaments.md).
        table = day_selectors.standings_of(tournament)
        return {
            "rounds": [(r, by_round.get(r.pk, [])) for r in rounds],
            "round_numbers": list(range(1, table.round + 1)),
            "table": table,
            "standings": list(zip(table.rows, table.rounds, strict=True)),
        }

    return render(
        request,
        "games/tournament_detail.html",
        {
            "tournament": tournament,
            # The crosstable and rounds are a cached fragment (the template's
            # {% cache %}) until one of these versions is bumped.
            "versions": cache.versions(names),
            **lazy_context(body, ["rounds", "round_numbers", "table", "standings"]),
            "is_director": is_director(request.user, tournament),
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


def _errors(e: ValidationError | PermissionDenied) -> str:
    if isinstance(e, PermissionDenied):
        return str(e) or "Not allowed."
    if hasattr(e, "error_dict"):
        return " ".join(f"{k}: {' '.join(v)}" for k, v in e.message_dict.items())
    return " ".join(e.messages)


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
    number = int(after) if after and after.isdigit() and len(after) <= 4 else None
    printable = request.GET.get("print") == "1"
    names = [page_cache.tournament(pk)]
    key = f"standings.{pk}.{'last' if number is None else number}.{int(printable)}"
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
    tournament = get_object_or_404(Tournament, pk=pk)

    def body() -> str:
        try:
            table = day_selectors.standings_of(tournament, after_round=number)
        except ValueError as e:
            raise Http404(str(e)) from None
        return render_to_string(
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

    fragment = cache.single_flight(f"fragment.{key}@{cache.versions(names)}", body)
    return render(
        request,
        "games/standings.html",
        {"tournament": tournament, "body": mark_safe(fragment), "print": printable},
    )


@login_required
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry list: enter a player found by name, a new player, or a CSV of players."""
    tournament = _directed(request, pk)
    if request.method == "POST":
        try:
            _entries_post(request, tournament)
        except (ValidationError, PermissionDenied) as e:
            messages.error(request, _errors(e))
        return HttpResponseRedirect(reverse("games:entries", args=[pk]))
    rows = tournament.entries.select_related("player").order_by(
        "player__family_name", "player__given_name"
    )
    return render(
        request,
        "games/entries.html",
        {"tournament": tournament, "entries": rows, "ranks": [str(r) for r in _ranks()]},
    )


def _ranks() -> list[Rank]:
    return [Rank(i) for i in range(8, -31, -1)]


def _entries_post(request: HttpRequest, tournament: Tournament) -> None:
    what = request.POST.get("action")
    if what == "enter":
        player = Player.objects.filter(pk=request.POST.get("player") or 0).first()
        if player is None:
            raise ValidationError({"player": "Choose a player from the list."})
        rank = request.POST.get("rank") or None
        tournament_services.entry_add(
            actor=request.user, tournament=tournament, player=player, rank=rank
        )
        messages.success(request, f"{player} entered.")
    elif what == "new":
        player = services.player_create(
            actor=request.user,
            family_name=request.POST.get("family_name", ""),
            given_name=request.POST.get("given_name", ""),
            rank=request.POST.get("rank", ""),
            club=request.POST.get("club") or None,
            country=request.POST.get("country", "").upper(),
        )
        tournament_services.entry_add(actor=request.user, tournament=tournament, player=player)
        messages.success(request, f"{player} added and entered.")
    elif what == "csv":
        count = _import_csv(request, tournament)
        messages.success(request, f"{count} players entered from the file.")
    elif what == "remove":
        entry = get_object_or_404(
            TournamentEntry, pk=request.POST.get("entry"), tournament=tournament
        )
        tournament_services.entry_remove(actor=request.user, entry=entry)
        messages.success(request, f"{entry.player} is no longer entered.")
    else:
        raise ValidationError("Unknown action.")


def _import_csv(request: HttpRequest, tournament: Tournament) -> int:
    """Enter the players of a CSV (family_name, given_name, rank, club, country): a player
    already in goref with that name and rank is entered, else created.  One line wrong:
    nothing is entered (the line is named)."""
    upload = request.FILES.get("file")
    if upload is None or (upload.size or 0) > CSV_MAX_BYTES:
        raise ValidationError({"file": "Choose a CSV file (at most 1 MB)."})
    text = upload.read().decode("utf-8-sig", errors="replace")
    count = 0
    with transaction.atomic():
        for n, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
            try:
                family = (row.get("family_name") or "").strip()
                rank = Rank.parse(row.get("rank") or "")
                player = Player.objects.filter(
                    family_name__iexact=family,
                    given_name__iexact=(row.get("given_name") or "").strip(),
                    declared_rank=rank.index,
                ).first()
                if player is None:
                    player = services.player_create(
                        actor=request.user,
                        family_name=family,
                        given_name=(row.get("given_name") or "").strip(),
                        rank=str(rank),
                        club=(row.get("club") or "").strip() or None,
                        country=(row.get("country") or "").strip().upper(),
                    )
                tournament_services.entry_add(
                    actor=request.user, tournament=tournament, player=player
                )
            except (ValidationError, ValueError) as e:
                text = _errors(e) if isinstance(e, ValidationError) else str(e)
                raise ValidationError(f"Line {n}: {text} Nothing was entered.") from None
            count += 1
    return count


@login_required
@require_GET
def player_search(request: HttpRequest, pk: int) -> JsonResponse:
    """Players whose names hold every word typed (for the entry list's search box)."""
    tournament = _directed(request, pk)
    query = request.GET.get("q", "").strip()
    if len(query) < 2:
        return JsonResponse({"players": []})
    entered = set(tournament.entries.values_list("player_id", flat=True))
    found = selectors.player_list(search=query)[:SEARCH_LIMIT]
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
            ]
        }
    )


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
        messages.error(request, _errors(e))
    return HttpResponseRedirect(reverse("games:checkin", args=[pk]) + f"#entry-{entry.pk}")


@login_required
@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _directed(request, pk)
    try:
        tournament_services.tournament_close(actor=request.user, tournament=tournament)
        messages.success(request, "The tournament is closed: its games go to the ratings.")
    except (ValidationError, PermissionDenied) as e:
        messages.error(request, _errors(e))
    return HttpResponseRedirect(reverse("games:tournament", args=[pk]))
