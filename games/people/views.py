"""People's pages: the review list of possible duplicates, and the invitation page where a
player invited by e-mail creates his account (or links the one he is logged in with).
The rules live in ``games.people.services``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.models import DuplicateState, PossibleDuplicate, Tournament, TournamentEntry
from games.people import selectors
from games.people.services import duplicates as dup_services
from games.people.services.invitations import invitation_read, player_invitation_accept
from games.permissions import is_any_director, is_federation_official
from ops.forms import apply_service_errors, posted_id, refusal_text
from ops.services import StateConflict
from ops.text import small_number
from ops.users import is_authenticated


class NewAccountForm(forms.Form):
    username = forms.CharField(max_length=150, label="User name")
    password = forms.CharField(widget=forms.PasswordInput, label="Password", strip=False)
    password_again = forms.CharField(
        widget=forms.PasswordInput, label="Password again", strip=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invitation = invitation_read(token)
    except ValidationError as exc:
        return render(
            request, "registration/invitation.html", {"refused": exc.messages}, status=400
        )
    logged_in = is_authenticated(request.user)
    form = None if logged_in else NewAccountForm(request.POST or None)
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            if form is None:
                player_invitation_accept(token=token, user=request.user)
            else:
                user = player_invitation_accept(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password"],
                )
                login(request, user, backend="ops.accounts.CachedModelBackend")
        except StateConflict as exc:
            return render(
                request, "registration/invitation.html", {"refused": [str(exc)]}, status=409
            )
        except ValidationError as exc:
            if form is None:
                return render(
                    request, "registration/invitation.html", {"refused": exc.messages}, status=400
                )
            apply_service_errors(form, exc)
        else:
            messages.success(request, f"Your account is now {invitation.player.full_name}'s.")
            return redirect("games:player", invitation.player.pk)
    return render(
        request,
        "registration/invitation.html",
        {"invitation": invitation, "form": form, "logged_in": logged_in},
    )


REVIEW_LIMIT = 100  # pairs on one page of the review list


@login_required
@require_http_methods(["GET", "POST"])
def duplicates(request: HttpRequest) -> HttpResponse:
    """The review list: the open possible duplicates among the players of the user's own
    tournaments (every pair for a federation official), each merged or kept apart by one
    POST through ``games.people.services.duplicates`` (docs/tournaments.md, "One person across
    events").  ``?tournament=ID`` narrows it to one tournament's players."""
    user = request.user
    if not (is_any_director(user) or is_federation_official(user)):
        raise PermissionDenied("The review list is for tournament directors.")
    pairs = selectors.duplicates_visible(user).filter(state=DuplicateState.OPEN)
    raw = request.GET.get("tournament", "")
    tournament = None
    if raw:
        number = small_number(raw)
        tournament = None if number is None else Tournament.objects.filter(pk=number).first()
        if tournament is None:
            raise Http404("No such tournament.")
        pairs = pairs.filter(pk__in=selectors.duplicates_open_of(tournament).values("pk"))
    if request.method == "POST":
        try:
            _duplicate_post(request, pairs)
        except (ValidationError, PermissionDenied) as e:
            messages.error(request, refusal_text(e))
        return HttpResponseRedirect(request.get_full_path())
    shown = list(
        pairs.select_related("player__club", "other__club", "tournament").order_by(
            "-created_at", "pk"
        )[:REVIEW_LIMIT]
    )
    ids = {p for d in shown for p in (d.player_id, d.other_id)}
    events: dict[int, list[TournamentEntry]] = {}
    for entry in (
        TournamentEntry.objects.filter(player__in=ids)
        .select_related("tournament")
        .order_by("tournament__start_date", "tournament_id")
    ):
        events.setdefault(entry.player_id, []).append(entry)
    # No Merge button where the merge would be refused: the page says why instead.
    blocks = selectors.merge_blocks(user, shown, events)
    rows = [
        (d, events.get(d.player_id, []), events.get(d.other_id, []), blocks.get(d.pk))
        for d in shown
    ]
    return render(
        request,
        "games/duplicates.html",
        {
            "groups": _by_person(rows),
            "tournament": tournament,
            "total": pairs.count(),
            "limit": REVIEW_LIMIT,
        },
    )


def _by_person(rows: list[Any]) -> list[dict[str, Any]]:
    """The pairs grouped by person: pairs sharing a record (directly or through another
    pair) are one person's records, shown together under the oldest; newest group first."""
    parent: dict[int, int] = {}

    def root(pk: int) -> int:
        while parent.setdefault(pk, pk) != pk:
            pk = parent[pk]
        return pk

    for d, *_ in rows:
        a, b = root(d.player_id), root(d.other_id)
        parent[max(a, b)] = min(a, b)
    groups: dict[int, dict[str, Any]] = {}
    for row in rows:
        d = row[0]
        first = root(d.player_id)
        group = groups.setdefault(first, {"player": None, "rows": []})
        group["rows"].append(row)
        for p in (d.player, d.other):
            if p.pk == first:
                group["player"] = p
    return list(groups.values())


def _duplicate_post(request: HttpRequest, pairs: QuerySet[PossibleDuplicate]) -> None:
    pk = posted_id(request, "duplicate", "Reload the page: that pair is not known.")
    dup = pairs.select_related("player", "other").filter(pk=pk).first()
    if dup is None:
        raise ValidationError("That pair is not on your review list (decided meanwhile?).")
    what = request.POST.get("action")
    if what == "apart":
        dup_services.duplicate_keep_apart(actor=request.user, duplicate=dup)
        messages.success(request, f"{dup.player} and {dup.other} are kept apart.")
    elif what == "merge":
        keep_pk = posted_id(request, "keep", "Choose the record to keep.")
        keep = {dup.player_id: dup.player, dup.other_id: dup.other}.get(keep_pk)
        if keep is None:
            raise ValidationError({"keep": "Keep one of the two players of this pair."})
        kept = dup_services.duplicate_merge(actor=request.user, duplicate=dup, keep=keep)
        messages.success(request, f"Merged into {kept} (#{kept.pk}).")
    else:
        raise ValidationError("Unknown action.")
