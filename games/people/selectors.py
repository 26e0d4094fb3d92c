"""People's reads: the one player search (the entries page, the rating-list and players
APIs, the ratings page) and the review list of possible duplicates.

Querysets come with their ``select_related`` so a list costs a fixed number of queries
whatever its length.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from games import permissions
from games.models import DuplicateState, Player, PossibleDuplicate, Tournament, TournamentEntry
from games.people.engine.federation_ids import ID_FIELDS
from games.people.engine.names import name_key
from ops.services import Actor, as_user
from ops.users import is_authenticated


def player_list(
    *, search: str | None = None, club: str | None = None, country: str | None = None
) -> QuerySet[Player]:
    """Players by name or federation id (``player_search``), club name, country."""
    qs = Player.objects.select_related("club")
    if search and search.strip():
        qs = qs.filter(player_search(search))
    if club:
        qs = qs.filter(club__name__iexact=club.strip())
    if country:
        qs = qs.filter(country=country.strip().upper())
    return qs


MAX_QUERY = 100  # characters of a search
MAX_RESULTS = 20


def search_words(q: str) -> list[str]:
    """The words of a search as name keys hold them (folded, no accents), at most five."""
    return name_key(q[:MAX_QUERY], "").split()[:5]


def player_search(q: str) -> Q:
    """The one player search, as a condition (the entries page, the rating-list and
    players APIs, the ratings page): every word typed is the start of a word of the
    name, accents, case and order ignored, or the text typed is a federation id."""
    text = q.strip()[:MAX_QUERY]
    cond = Q()
    for fld in ID_FIELDS:
        cond |= Q(**{fld: text})
    words = search_words(text)
    if words:
        by_name = Q()
        for w in words:
            by_name &= Q(name_key__startswith=w) | Q(name_key__contains=f" {w}")
        cond |= by_name
    return cond


def search_players(q: str, limit: int = MAX_RESULTS) -> QuerySet[Player]:
    """``player_search``'s first ``limit`` players, by name."""
    if not q.strip():
        return Player.objects.none()
    found = Player.objects.filter(player_search(q)).select_related("club")
    return found.order_by("name_key", "pk")[:limit]


def duplicates_visible(actor: Actor) -> QuerySet[PossibleDuplicate]:
    """The pairs ``actor`` sees and decides: every pair for the operator, a superuser or a
    federation official; for a director, those raised by a tournament he directs or
    naming a player entered in one; none for anyone else."""
    pairs = PossibleDuplicate.objects.all()
    if actor is None or permissions.is_federation_official(actor):
        return pairs
    if not is_authenticated(actor):
        return pairs.none()
    return pairs.filter(_of(Tournament.objects.filter(permissions.directed_by(actor))))


def duplicates_open_of(tournament: Tournament) -> QuerySet[PossibleDuplicate]:
    """The open pairs the tournament raised or that name one of its players."""
    return PossibleDuplicate.objects.filter(_of([tournament]), state=DuplicateState.OPEN)


def _of(tournaments: QuerySet[Tournament] | list[Tournament]) -> Q:
    """A pair is a tournament's if it raised the pair or one of the two is entered in it:
    the one rule of who sees a pair, for the review page, the admin and the services."""
    entered = TournamentEntry.objects.filter(tournament__in=tournaments).values("player")
    return Q(tournament__in=tournaments) | Q(player__in=entered) | Q(other__in=entered)


@dataclass(frozen=True)
class MergeBlock:
    """Why a pair of the review list cannot be merged by this user, as
    ``duplicate_merge`` would refuse it: ``kind`` is ``"not_yours"`` (``detail``: the
    player), ``"same_event"`` (the tournament), ``"ids"`` (the fields) or ``"accounts"``."""

    kind: str
    detail: str = ""


def merge_blocks(
    user: Actor, pairs: list[PossibleDuplicate], events: dict[int, list[TournamentEntry]]
) -> dict[int, MergeBlock]:
    """The pairs of the page ``user`` cannot merge (the page offers no Merge button for
    them), keyed by pair id; ``events``: each player's entries, as the page read them.
    A few queries whatever the number of pairs."""
    players = [p for d in pairs for p in (d.player, d.other)]
    official = permissions.is_federation_official(user)
    own = permissions.own_tournament_ids(players) if not official else {}
    directed = (
        set(Tournament.objects.filter(directors=as_user(user)).values_list("pk", flat=True))
        if not official and is_authenticated(user)
        else set()
    )

    def editable(player: Player) -> bool:
        mine = own.get(player.pk)
        return official or mine is None or mine in directed

    blocks: dict[int, MergeBlock] = {}
    for d in pairs:
        a, b = d.player, d.other
        stranger = next((p for p in (a, b) if not editable(p)), None)
        together = {e.tournament_id: e for e in events.get(a.pk, [])}
        shared = next((e for e in events.get(b.pk, []) if e.tournament_id in together), None)
        differ = [
            f
            for f in ID_FIELDS
            if getattr(a, f) and getattr(b, f) and getattr(a, f) != getattr(b, f)
        ]
        if stranger is not None:
            blocks[d.pk] = MergeBlock("not_yours", str(stranger))
        elif shared is not None:
            blocks[d.pk] = MergeBlock("same_event", shared.tournament.name)
        elif differ:
            blocks[d.pk] = MergeBlock("ids", ", ".join(differ))
        elif a.user_id and b.user_id:
            blocks[d.pk] = MergeBlock("accounts")
    return blocks
