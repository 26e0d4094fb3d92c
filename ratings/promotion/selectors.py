"""Promotion reads: a player's rank history, recent promotions, the candidates a user sees.

Each comes with its ``select_related`` so a list costs a fixed number of
queries whatever its length (the tests pin them).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from games import permissions
from games.models import Player, Tournament
from ops.users import is_authenticated
from ratings.models import PromotionCandidate, RankChange, RankChangeKind
from ratings.promotion.services import is_federation_director

RECENT_SIZE = 50
# Corrections are a director fixing a record, not an achievement: the player's history
# shows them, the public list of promotions does not.
PUBLIC_KINDS = (RankChangeKind.PROMOTION, RankChangeKind.DEMOTION, RankChangeKind.HONORARY)


def rank_history(player: Player) -> QuerySet[RankChange]:
    """Every change of the player's official rank, oldest first (one query)."""
    return (
        RankChange.objects.filter(player=player)
        .select_related("tournament", "changed_by")
        .order_by("changed_at", "id")
    )


def recent_promotions(kind: str | None = None) -> QuerySet[RankChange]:
    """Approved promotions and demotions and honorary titles, newest first (one query)."""
    qs = RankChange.objects.filter(kind__in=[kind] if kind else PUBLIC_KINDS)
    return qs.select_related("player", "player__club", "tournament", "changed_by").order_by(
        "-changed_at", "-id"
    )


def candidate_queryset() -> QuerySet[PromotionCandidate]:
    return PromotionCandidate.objects.select_related(
        "player", "trigger_tournament", "policy", "decided_by", "rank_change"
    )


def candidates_for(
    user: Any, *, state: str | None = None, tournament: int | None = None
) -> QuerySet[PromotionCandidate]:
    """The candidates ``user`` may see: all for a federation director; the candidates of
    the tournaments he directs, and his own, for anyone else; none without a login."""
    qs = candidate_queryset()
    if not is_authenticated(user):
        return qs.none()
    if not is_federation_director(user):
        mine = Q(trigger_tournament_id__in=Tournament.objects.filter(directors=user).values("pk"))
        player = permissions.player_for(user)
        if player is not None:
            mine |= Q(player=player)
        qs = qs.filter(mine)
    if state:
        qs = qs.filter(state=state)
    if tournament is not None:
        qs = qs.filter(trigger_tournament_id=tournament)
    return qs.order_by("-created_at", "-id")
