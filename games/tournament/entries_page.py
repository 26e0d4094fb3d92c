"""The entries page of a tournament's directors: enter, correct and withdraw players, a
CSV of players, and the search-as-you-type over goref's players and the rating lists."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_http_methods

from games.messages import correction_warning, entered_from_list, entries_changed
from games.models import (
    Player,
    Tournament,
    TournamentEntry,
)
from games.people import selectors as people_selectors
from games.people import services as people
from games.people.services import invitations
from games.services import outbound
from games.tournament import services as tournament_services
from games.tournament.services import corrections, files
from games.tournament.services.entries import CORRECTED, correction_effect
from games.tournament.views import directed
from ops.forms import posted_id, refusal_text
from ratings.ranks import Rank

SEARCH_LIMIT = 15


@login_required
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry list: enter a player found by name, a new player, or a CSV of players."""
    tournament = directed(request, pk)
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
        before = {f: getattr(entry, f) for f in CORRECTED}
        entry = tournament_services.entry_update(
            actor=request.user, entry=entry, **_entry_fields(request)
        )
        messages.success(request, f"{entry.player}'s entry is saved.")
        changed = [f for f in CORRECTED if getattr(entry, f) != before[f]]
        warning = correction_warning(correction_effect(tournament, changed))
        if warning:
            messages.warning(request, warning)
    elif what == "ratings":
        bulk = corrections.entries_ratings_update(actor=request.user, tournament=tournament)
        text = entries_changed(
            tournament=tournament,
            changed=bulk.changed,
            unchanged=bulk.unchanged,
            effect=bulk.effect,
        )
        (messages.warning if bulk.changed and bulk.effect else messages.success)(request, text)
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
    if done.emails or done.emails_left:
        text += f"; {done.emails} e-mail address(es) put on file"
    if done.emails_left:
        text += (
            f", {done.emails_left} left (the player has one already, or was first entered "
            "by another event, whose directors write it)"
        )
    if not done.review:
        return text + "."
    url = reverse("games:duplicates") + f"?tournament={tournament.pk}"
    return format_html('{} (<a href="{}">the review list</a>).', text, url)


@login_required
@require_GET
def player_search(request: HttpRequest, pk: int) -> JsonResponse:
    """Players whose names hold every word typed (for the entry list's search box)."""
    tournament = directed(request, pk)
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
