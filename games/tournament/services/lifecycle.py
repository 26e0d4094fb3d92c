"""A tournament's life: open, started (entry ranks frozen), closed (its games go to the
ratings).  docs/tournaments.md, "Lifecycle"."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import permissions
from games.models import LOCKED_STATES, Game, Tournament
from games.services import outbound
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, require


def tournament_mark_started(tournament: Tournament) -> None:
    """Round 1 got its first game: the tournament has started (no audit row: the game is it)."""
    if tournament.started_at is None:
        now = timezone.now()
        Tournament.objects.filter(pk=tournament.pk, started_at__isnull=True).update(started_at=now)
        tournament.started_at = now


MAX_NAMED = 20  # a refusal names this many games, then counts the rest


def game_label(game: Game) -> str:
    """A game as a refusal names it: round, table, players, id and state."""
    table = f", table {game.table}" if game.table else ""
    return (
        f"round {game.round.number}{table}: {game.black} v {game.white} "
        f"(game {game.pk}, {game.get_state_display()})"
    )


@transaction.atomic
def tournament_start(*, actor: Actor, tournament: Tournament) -> Tournament:
    """The director starts the tournament before pairing round 1: entry ranks and ratings
    are frozen from now on."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament), "Only its directors can start a tournament."
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_started:
        raise StateConflict("This tournament has already started.")
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["started_at"])
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_STARTED,
        obj=tournament,
        old={"started_at": None},
        new={"started_at": tournament.started_at.isoformat()},
    )
    return tournament


@transaction.atomic
def tournament_close(*, actor: Actor, tournament: Tournament) -> Tournament:
    """The director closes the tournament once every game has a final result: its games
    then reach the ratings (queued on commit) and promotions are evaluated after them."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament), "Only its directors can close a tournament."
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_closed:
        raise StateConflict("This tournament is already closed.")
    blocking = list(
        tournament.games.exclude(state__in=LOCKED_STATES)
        .select_related("round", "black", "white")
        .order_by("round__number", "table", "id")[: MAX_NAMED + 1]
    )
    if blocking:
        waiting = tournament.games.exclude(state__in=LOCKED_STATES).count()
        named = "; ".join(game_label(g) for g in blocking[:MAX_NAMED])
        more = f"; and {waiting - MAX_NAMED} more" if waiting > MAX_NAMED else ""
        raise StateConflict(
            f"{waiting} game{'s' if waiting != 1 else ''} of this tournament "
            f"{'have' if waiting != 1 else 'has'} no final result yet: {named}{more}. "
            "Confirm or finalise them before closing it.",
            code="unfinished",
        )
    now = timezone.now()
    tournament.closed_at = now
    fields = ["closed_at"]
    if tournament.started_at is None:
        tournament.started_at = now
        fields.append("started_at")
    tournament.save(update_fields=fields)
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_CLOSED,
        obj=tournament,
        old={"closed_at": None},
        new={"closed_at": now.isoformat()},
    )
    outbound.tournament_closed(tournament)
    return tournament
