"""Rating reads: history, top lists, search, head-to-head, the rating list.

Each comes with its ``select_related`` so a page costs a fixed number of
queries whatever its length (the tests pin them).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Q, QuerySet

from games.models import Game, Player
from games.people.engine.federation_ids import RatingListRow
from games.selectors import outcome_for
from ratings import rating_lists
from ratings.lists import search_lists
from ratings.models import PlayerRating, RankChange, RatingHistory, RatingListEntry, RatingRun
from ratings.promotion.selectors import rank_history
from ratings.strength import Strength, current_strength

TOP_SIZE = 100


def player_history(player: Player) -> QuerySet[RatingHistory]:
    """The player's per-tournament before/after rows, oldest first (one query)."""
    return (
        RatingHistory.objects.filter(player=player)
        .select_related("tournament")
        .order_by("event_date", "tournament_id")
    )


def rated_player(pk: int) -> Player | None:
    """The player with his rating and honorary title, as the strength reads need them."""
    return Player.objects.select_related("rating", "honorary_title").filter(pk=pk).first()


def top_list(kind: str, limit: int = TOP_SIZE) -> QuerySet[PlayerRating]:
    """The highest-rated dan (rank index >= 0) or kyu (< 0) players (one query)."""
    qs = PlayerRating.objects.select_related("player", "player__club", "player__honorary_title")
    qs = qs.filter(rank__gte=0) if kind == "dan" else qs.filter(rank__lt=0)
    return qs.order_by("-rating", "player_id")[:limit]


def player_search(*, name: str = "", club: str = "", federation_id: str = "") -> QuerySet[Player]:
    """Players by name words, club (name or code) and federation id (EGD PIN, AGA, NZGS)."""
    qs = Player.objects.select_related("club", "rating", "honorary_title")
    for word in name.split():
        qs = qs.filter(Q(family_name__icontains=word) | Q(given_name__icontains=word))
    if club.strip():
        c = club.strip()
        qs = qs.filter(Q(club__name__icontains=c) | Q(club__code__iexact=c))
    if federation_id.strip():
        f = federation_id.strip()
        qs = qs.filter(Q(egd_pin=f) | Q(aga_id__iexact=f) | Q(nzgs_id__iexact=f))
    return qs.order_by("family_name", "given_name", "id")


@dataclass
class HeadToHead:
    a: Player
    b: Player
    games: list[Game]
    a_wins: float
    b_wins: float
    uncounted: int = 0  # games between them whose result is not locked (or void)


def head_to_head(a: Player, b: Player) -> HeadToHead:
    """The games between two players that count, newest first, with the score (locked
    results only, void ones apart), and how many others there are."""
    games = list(
        Game.objects.filter(Q(black=a, white=b) | Q(black=b, white=a))
        .select_related("tournament", "round", "black", "white")
        .order_by("-tournament__end_date", "-tournament_id", "-round__number")
    )
    # The table lists exactly the games the score counts: locked results, void ones
    # apart; the others are only numbered (they may still change).
    counted = [g for g in games if g.is_locked and g.result_reason not in ("void", "")]
    aw = bw = 0.0
    for g in counted:
        o = outcome_for(g, a.pk)
        if o.startswith("win"):
            aw += 1
        elif o.startswith("loss"):
            bw += 1
        elif o == "jigo":
            aw += 0.5
            bw += 0.5
    return HeadToHead(a, b, counted, aw, bw, uncounted=len(games) - len(counted))


def rating_list() -> QuerySet[PlayerRating]:
    """Every rated player for the downloads, highest first (one query)."""
    return PlayerRating.objects.select_related(
        "player", "player__club", "player__honorary_title", "last_tournament"
    ).order_by("-rating", "player_id")


def last_rated_dates(player_ids: list[int], *, excluding: int) -> dict[int, dt.date]:
    """Each player's last rated event date (tournament ``excluding`` left out): a
    director's rated event may not end before it (one query)."""
    rows = (
        RatingHistory.objects.filter(player_id__in=player_ids)
        .exclude(tournament_id=excluding)
        .values("player_id")
        .order_by()
        .annotate(day=Max("event_date"))
        .values_list("player_id", "day")
    )
    return {int(pid): day for pid, day in rows}


def ratings_of(player_ids: list[int]) -> dict[int, float]:
    """The current rating of each rated player among ``player_ids`` (one query)."""
    rows = PlayerRating.objects.filter(player_id__in=player_ids).values_list("player_id", "rating")
    return {int(pk): float(rating) for pk, rating in rows}


def latest_run() -> Any:
    return RatingRun.objects.filter(state=RatingRun.State.DONE).order_by("-id").first()


@dataclass(frozen=True)
class RatingRecord:
    """The rating part of the player page (games' ``/players/<id>/``), as values: his
    strength, his rated tournaments (oldest first; the template draws their chart with
    ``{% rating_chart %}``) and his rank history."""

    strength: Strength
    history: list[RatingHistory]
    ranks: list[RankChange]


def rating_record(player: Player) -> RatingRecord:
    """The player's ``RatingRecord``: his strength, rated tournaments and rank history."""
    return RatingRecord(
        strength=current_strength(player),
        history=list(player_history(player)),
        ranks=list(rank_history(player)),
    )


def _list_row(e: RatingListEntry) -> RatingListRow:
    return RatingListRow(
        id=e.pk,
        source=e.rating_list.source,
        id_field=rating_lists.ID_OF[e.rating_list.source].field,
        federation_id=e.federation_id,
        family_name=e.family_name,
        given_name=e.given_name,
        rank=e.rank,
        rating=e.rating,
        club=e.club,
        country=e.country,
    )


def rating_list_rows(q: str) -> list[RatingListRow]:
    """The list entries a search finds (``ratings.lists.search_lists``), as plain rows."""
    return [_list_row(e) for e in search_lists(q)]


def rating_list_rows_of(players: list[Player]) -> dict[int, RatingListRow]:
    """The list entry of each player the lists know by his federation id, by player id:
    the EGD's first, then the FFG's (both on the GoR scale); the AGA's carries no GoR (one
    query per list)."""
    found: dict[int, RatingListRow] = {}
    for source in (rating_lists.EGD, rating_lists.FFG):
        field = rating_lists.ID_OF[source].field
        wanted = {getattr(p, field): p.pk for p in players if getattr(p, field)}
        wanted = {k: v for k, v in wanted.items() if v not in found}
        if not wanted:
            continue
        rows = RatingListEntry.objects.select_related("rating_list").filter(
            rating_list__source=source, federation_id__in=list(wanted)
        )
        for e in rows:
            found.setdefault(wanted[e.federation_id], _list_row(e))
    return found


def rating_list_row(pk: int) -> RatingListRow | None:
    """The list entry ``pk`` as a plain row, ``None`` when the lists hold none."""
    found = RatingListEntry.objects.select_related("rating_list").filter(pk=pk).first()
    return None if found is None else _list_row(found)
