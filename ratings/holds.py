"""Rated games held from the ratings until the players' own side releases them.

A director rates only the players he answers for: those his event entered first, or
whose games in another event he directs were released.  Games with anyone else wait
for a federation official or such a director; a past event a director imports waits for
an official (docs/ratings.md, "Held from the ratings").
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from games import permissions
from games.models import Game, Player, Tournament, TournamentEntry
from ops.audit import audit_record, audit_record_many
from ops.models import AuditAction
from ops.services import Actor, StateConflict, as_user, require
from ops.users import is_authenticated
from ratings.models import HoldReason, RatingHold
from ratings.services import recompute_queue

log = logging.getLogger(__name__)

MAX_NOTICES = 50  # directors told of one close


def vouching_directors(players: list[Player], *, excluding: int) -> dict[int, set[int]]:
    """Per player, the users who answer for him outside tournament ``excluding``: the
    directors of the tournament that first entered him and of the events where his held
    games were released (four queries).  A director's own unrated event never counts:
    the chain always starts at the player's first tournament."""
    own = permissions.own_tournament_ids(players)
    tids: dict[int, set[int]] = {p.pk: set() for p in players}
    for pid, tid in own.items():
        if tid != excluding:
            tids[pid].add(tid)
    released = (
        RatingHold.objects.filter(player__in=players, released_at__isnull=False)
        .exclude(tournament_id=excluding)
        .values_list("player_id", "tournament_id")
    )
    for pid, tid in released:
        tids[pid].add(tid)
    wanted = set().union(*tids.values()) if tids else set()
    through = Tournament.directors.through.objects.filter(tournament_id__in=wanted)
    by_tournament: dict[int, set[int]] = {}
    for tid, uid in through.values_list("tournament_id", "user_id"):
        by_tournament.setdefault(tid, set()).add(uid)
    return {
        pid: set().union(*(by_tournament.get(t, set()) for t in ts)) if ts else set()
        for pid, ts in tids.items()
    }


def _players_of(tournament: Tournament) -> list[Player]:
    ids = set(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    for black, white in Game.objects.filter(tournament=tournament).values_list(
        "black_id", "white_id"
    ):
        ids.update((black, white))
    return list(Player.objects.filter(pk__in=ids).order_by("pk"))


def holds_on_close(*, actor: Actor, tournament: Tournament) -> list[RatingHold]:
    """A rated tournament closes: the games of each player the closing director does not
    answer for are held, and the player's other directors are told (on commit).  The
    closer, not the event's directors: a director names co-directors without asking them,
    so naming a player's own director would otherwise vouch for the player.  An
    official's or the operator's close holds nothing: he vouches by closing.  Inside the
    close's transaction."""
    if not tournament.rated or actor is None or permissions.is_federation_official(actor):
        return []
    players = _players_of(tournament)
    own = permissions.own_tournament_ids(players)
    vouch = vouching_directors(players, excluding=tournament.pk)
    foreign = [p for p in players if own.get(p.pk) != tournament.pk and actor.pk not in vouch[p.pk]]
    if not foreign:
        return []
    user = as_user(actor)
    holds = RatingHold.objects.bulk_create(
        RatingHold(tournament=tournament, player=p, reason=HoldReason.NOT_OWN, created_by=user)
        for p in foreign
    )
    audit_record_many(
        actor=actor,
        action=AuditAction.RATINGS_HELD,
        rows=[
            (h, None, {"tournament": tournament.pk, "player": h.player_id, "reason": h.reason})
            for h in holds
        ],
    )
    ids, closer = [p.pk for p in foreign], [] if user is None else [user.pk]
    transaction.on_commit(lambda: _tell_directors(tournament.pk, ids, closer))
    return holds


def hold_past_import(*, actor: Actor, tournament: Tournament) -> RatingHold:
    """A director imported a rated event dated before what he may rate: the whole event
    waits for a federation official's release.  Inside the import's transaction."""
    hold = RatingHold.objects.create(
        tournament=tournament, reason=HoldReason.PAST, created_by=as_user(actor)
    )
    audit_record(
        actor=actor,
        action=AuditAction.RATINGS_HELD,
        obj=hold,
        new={"tournament": tournament.pk, "player": None, "reason": hold.reason},
    )
    return hold


def held_for_official(tournament: Tournament) -> bool:
    """The whole event waits for an official's release (``hold_past_import``)."""
    return RatingHold.objects.filter(
        tournament=tournament, player__isnull=True, released_at__isnull=True
    ).exists()


def can_release(actor: Actor, hold: RatingHold) -> bool:
    """A federation official releases any hold; the player himself (his account, which
    only his own director or an official can have invited) or a director who answers
    for him elsewhere (``vouching_directors``) releases that player's."""
    if actor is None or permissions.is_federation_official(actor):
        return True
    if hold.player_id is None or not is_authenticated(actor):
        return False
    player = Player.objects.get(pk=hold.player_id)
    if player.user_id is not None and player.user_id == actor.pk:
        return True
    return actor.pk in vouching_directors([player], excluding=hold.tournament_id)[player.pk]


def holds_visible(actor: Actor) -> Any:
    """The holds ``actor`` may release (every one for an official), open ones first."""
    qs = RatingHold.objects.select_related("tournament", "player", "created_by", "released_by")
    if actor is None or permissions.is_federation_official(actor):
        return qs.order_by("-released_at", "-created_at")
    if not is_authenticated(actor):
        return qs.none()
    # Only a player entered in another event this director directs can be his to
    # release: the full check runs on those few, not on every open hold.
    directed = Tournament.objects.filter(directors=actor.pk).values("pk")
    near = qs.filter(
        player__isnull=False,
        released_at__isnull=True,
        player__entries__tournament__in=directed,
    )
    mine = [h.pk for h in near.distinct() if can_release(actor, h)]
    own = qs.filter(player__user=actor.pk, released_at__isnull=True).values_list("pk", flat=True)
    return qs.filter(pk__in=[*mine, *own])


@transaction.atomic
def rating_hold_release(*, actor: Actor, hold: RatingHold) -> RatingHold:
    """Release a hold: the games reach the ratings (a recompute from the tournament,
    queued on commit, once it is closed).  Audited with who released what."""
    require(
        can_release(actor, hold),
        "Only a federation official, the player himself or a director of his own events "
        "releases his held games; a past event a director imported is released by an "
        "official.",
    )
    locked = RatingHold.objects.select_for_update().filter(pk=hold.pk).first()
    if locked is None or locked.released_at is not None:
        raise StateConflict("These games were already released.")
    locked.released_by = as_user(actor)
    locked.released_at = timezone.now()
    locked.save(update_fields=["released_by", "released_at"])
    audit_record(
        actor=actor,
        action=AuditAction.RATINGS_HOLD_RELEASED,
        obj=locked,
        old={"released_at": None},
        new={
            "tournament": locked.tournament_id,
            "player": locked.player_id,
            "reason": locked.reason,
            "released_at": locked.released_at.isoformat(),
        },
    )
    tournament = Tournament.objects.get(pk=locked.tournament_id)
    if tournament.closed_at is not None:
        recompute_queue(actor=actor, from_tournament=tournament, reason="hold released")
    return locked


def _tell_directors(tournament_id: int, player_ids: list[int], excluded: list[int]) -> None:
    """Each director of the held players' other events hears, in one mail, which of his
    players another director's event rated and where to release them."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    players = list(Player.objects.filter(pk__in=player_ids).order_by("family_name", "pk"))
    told: dict[int, tuple[Any, list[Player]]] = {}
    for player in players:
        for user in permissions.player_directors(player).exclude(pk__in=excluded).exclude(email=""):
            told.setdefault(user.pk, (user, []))[1].append(player)
    mails = [
        (
            render_to_string("ratings/hold_notice_subject.txt", {"tournament": tournament}).strip(),
            render_to_string(
                "ratings/hold_notice.txt", {"tournament": tournament, "players": mine, "user": user}
            ),
            settings.DEFAULT_FROM_EMAIL,
            [user.email],
        )
        for user, mine in list(told.values())[:MAX_NOTICES]
    ]
    try:
        send_mass_mail(mails)
    except (OSError, smtplib.SMTPException):
        log.exception("the notices of the held games of tournament %s were not sent", tournament_id)
