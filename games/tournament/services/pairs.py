"""Pair go and rengo: a pair (two players) or a rengo team (two to four) enters as one
player, with its members in playing order and a rank from theirs by the director's rule.
It is paired, handicapped and placed like a player, its results count for it, and its
games are never rated (the EGD rates none).  docs/tournaments.md, "Pair go and rengo"."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import PairMember, Player, Tournament, TournamentEntry
from games.services import outbound
from games.tournament.services.entries import entry_add
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, require

RANK_RULES = ("average", "strongest", "weakest")
MAX_MEMBERS = 4


def pair_rank(ranks: Sequence[int], rule: str = "average") -> int:
    """The pair's rank index from its members': their average (a fraction rounded down,
    toward the weaker rank, as the EGF's pair go rules and pairgoth take the mean), or the
    strongest or weakest member's."""
    if rule == "strongest":
        return max(ranks)
    if rule == "weakest":
        return min(ranks)
    return sum(ranks) // len(ranks)


def _pair_player(members: Sequence[Player]) -> Player:
    """The pair record of exactly these members in this order, made once and found again at
    the pair's next event."""
    ids = [m.pk for m in members]
    # Every pair the first member plays in, with its line-up: one query, not one a pair.
    lineups: dict[int, list[int]] = {}
    rows = PairMember.objects.filter(pair__pair_members__member=members[0]).order_by("order")
    for pair_id, member_id in rows.values_list("pair_id", "member_id"):
        lineups.setdefault(pair_id, []).append(member_id)
    found = next((pk for pk, lineup in lineups.items() if lineup == ids), None)
    if found is not None:
        return Player.objects.get(pk=found)
    pair = Player.objects.create(
        family_name=" / ".join(m.family_name for m in members)[:80],
        given_name=" / ".join(m.given_name for m in members)[:80],
        country=members[0].country if len({m.country for m in members}) == 1 else "",
        declared_rank=pair_rank([m.declared_rank for m in members]),
        is_pair=True,
    )
    PairMember.objects.bulk_create(
        PairMember(pair=pair, member=m, order=n) for n, m in enumerate(members, 1)
    )
    return pair


@transaction.atomic
def pair_enter(
    *, actor: Actor, tournament: Tournament, members: Sequence[Player], rule: str = "average"
) -> TournamentEntry:
    """Enter a pair or rengo team of ``members`` (2 to 4 people, playing order) with its
    rank by ``rule`` (``RANK_RULES``) and the mean of the members' ratings."""
    require(permissions.is_director(actor, tournament), "Only its directors can enter players.")
    if rule not in RANK_RULES:
        raise ValidationError({"rule": f"The pair's rank: {', '.join(RANK_RULES)}."})
    if not 2 <= len(members) <= MAX_MEMBERS or len({m.pk for m in members}) != len(members):
        raise ValidationError({"members": "A pair or rengo team is 2 to 4 different players."})
    if any(m.is_pair for m in members):
        raise ValidationError({"members": "A member is a person, not a pair."})
    playing = set(
        PairMember.objects.filter(
            pair__entries__tournament=tournament, member__in=members
        ).values_list("member_id", flat=True)
    ) | set(tournament.entries.filter(player__in=members).values_list("player_id", flat=True))
    if playing:
        raise ValidationError({"members": "A member already plays in this tournament."})
    pair = _pair_player(members)
    ratings = [r for m in members if (r := outbound.player_strength(m).rating) is not None]
    entry = entry_add(
        actor=actor,
        tournament=tournament,
        player=pair,
        rank=pair_rank([m.declared_rank for m in members], rule),
        rating=round(sum(ratings) / len(ratings)) if len(ratings) == len(members) else None,
    )
    audit_record(
        actor=actor,
        action=AuditAction.ENTRY_PAIR_ADDED,
        obj=entry,
        new={"members": [m.pk for m in members], "rule": rule, "rank": entry.rank},
    )
    return entry
