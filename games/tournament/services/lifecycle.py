"""A tournament's life: open, started (round 1 paired or started by hand), closed (its
games go to the ratings).  docs/tournaments.md, "Lifecycle"."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import cache as page_cache
from games import permissions
from games.models import LOCKED_STATES, Game, GameState, Player, Tournament, TournamentEntry
from games.services import outbound
from games.tournament.services.tournaments import before_window, rated_window_start
from ops.audit import audit_record
from ops.models import AuditAction
from ops.pages import cache
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


class UnfinishedGames(StateConflict):
    """A 409 for games without a final result: the first ``MAX_NAMED`` of them, in round
    and table order, and how many there are (a page links each)."""

    def __init__(
        self, message: str, games: list[Game], count: int, code: str = "unfinished"
    ) -> None:
        super().__init__(message, code=code)
        self.games = games
        self.count = count


def refuse_unfinished(games: QuerySet[Game], *, what: str, then: str) -> None:
    """Raise ``UnfinishedGames`` if any of ``games`` has no final result (neither confirmed
    by both players nor finalised): ``what`` says whose games they are, ``then`` what to do.
    Two queries at most, whatever the number of games."""
    waiting = games.exclude(state__in=LOCKED_STATES)
    named = list(
        waiting.select_related("round", "black", "white").order_by("round__number", "table", "id")[
            : MAX_NAMED + 1
        ]
    )
    if not named:
        return
    count = len(named) if len(named) <= MAX_NAMED else waiting.count()
    named = named[:MAX_NAMED]
    listed = "; ".join(game_label(g) for g in named)
    more = f"; and {count - MAX_NAMED} more" if count > MAX_NAMED else ""
    raise UnfinishedGames(
        f"{count} game{'s' if count != 1 else ''} of {what} "
        f"{'have' if count != 1 else 'has'} no final result yet: {listed}{more}. {then}",
        named,
        count,
    )


class OpenDisputes(UnfinishedGames):
    """A 409 for a close while games are disputed: a referee rules first, or a federation
    official closes with a reason (``UnfinishedGames``'s ``games`` and ``count``)."""

    def __init__(self, message: str, games: list[Game], count: int) -> None:
        super().__init__(message, games, count, code="disputed")


def _refuse_disputed(games: QuerySet[Game], *, may_override: bool) -> None:
    disputed = games.filter(state=GameState.DISPUTED)
    named = list(
        disputed.select_related("round", "black", "white").order_by("round__number", "table", "id")
    )
    if not named:
        return
    listed = "; ".join(game_label(g) for g in named[:MAX_NAMED])
    more = f"; and {len(named) - MAX_NAMED} more" if len(named) > MAX_NAMED else ""
    then = (
        "A referee rules on them first, or you close it with your reason: they are then "
        "left out of the ratings until their rulings."
        if may_override
        else "A referee rules on them first (or a federation official closes it with a reason)."
    )
    raise OpenDisputes(
        f"{len(named)} game{'s' if len(named) != 1 else ''} of this tournament "
        f"{'are' if len(named) != 1 else 'is'} under an open dispute: {listed}{more}. {then}",
        named[:MAX_NAMED],
        len(named),
    )


@transaction.atomic
def tournament_start(*, actor: Actor, tournament: Tournament) -> Tournament:
    """The director starts the tournament before pairing round 1: from now on a change of
    an entry's rank, rating or McMahon correction is a correction during the event."""
    if actor is not None:
        require(
            permissions.is_director(actor, tournament), "Only its directors can start a tournament."
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_started:
        raise StateConflict("This tournament has already started.")
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["started_at"])
    cache.touch(page_cache.tournament(tournament.pk))  # its pages keep the row they read
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_STARTED,
        obj=tournament,
        old={"started_at": None},
        new={"started_at": tournament.started_at.isoformat()},
    )
    return tournament


@transaction.atomic
def tournament_close(*, actor: Actor, tournament: Tournament, reason: str = "") -> Tournament:
    """The director closes the tournament once every game has a final result: its games
    then reach the ratings (queued on commit, but for the players its directors do not
    answer for: ``ratings.holds``) and promotions are evaluated after them.

    An open dispute refuses the close (``OpenDisputes``, naming each game); a federation
    official may close over it with ``reason``, recorded in the audit row: the disputed
    games stay open for their rulings and reach the ratings when locked.

    A rated tournament that ends before the window (``GOREF_RATED_BACKDATE_DAYS``) or
    before one of its players' last rated event would rewrite rating histories: only a
    federation official closes it, unless an official's release holds it already (a past
    event a director imported).  docs/games.md, "A director's reach"."""
    official = actor is None or permissions.is_federation_official(actor)
    if not official:
        require(
            permissions.is_director(actor, tournament),
            "Only its directors or a federation official can close a tournament.",
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_closed:
        raise StateConflict("This tournament is already closed.")
    reason = reason.strip()
    games = tournament.games.all()
    if not (official and reason):
        _refuse_disputed(games, may_override=official)
    left_open = list(
        games.filter(state=GameState.DISPUTED).order_by("id").values_list("pk", flat=True)
    )
    refuse_unfinished(
        games.exclude(state=GameState.DISPUTED),
        what="this tournament",
        then="Confirm or finalise them before closing it.",
    )
    backdated = _backdated(tournament)
    if backdated and not official and not outbound.ratings_held_for_official(tournament):
        raise PermissionDenied(
            f"This rated tournament ends on {tournament.end_date}, {backdated}: closing it "
            "would rewrite rating histories. Only a federation official can close it."
        )
    now = timezone.now()
    tournament.closed_at = now
    fields = ["closed_at"]
    if tournament.started_at is None:
        tournament.started_at = now
        fields.append("started_at")
    tournament.save(update_fields=fields)
    # Its page says "closed" and no longer offers the director the close button.
    cache.touch(page_cache.tournament(tournament.pk))
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_CLOSED,
        obj=tournament,
        old={"closed_at": None},
        new={
            "closed_at": now.isoformat(),
            **({"backdated": True} if backdated else {}),
            **({"reason": reason, "disputed_left_open": left_open} if left_open else {}),
        },
    )
    outbound.tournament_closed(actor=actor, tournament=tournament)
    return tournament


MAX_NAMED = 5  # players a refusal names


def _backdated(tournament: Tournament) -> str:
    """Why closing ``tournament`` would rewrite ratings ("" when it would not): it ends
    before the window, or before the last rated event of some of its players (each
    player's own floor, never a date another director's close moves)."""
    if not tournament.rated:
        return ""
    if before_window(tournament):
        return (
            f"before {rated_window_start()} ({django_settings.GOREF_RATED_BACKDATE_DAYS} days ago)"
        )
    ids = set(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    for black, white in tournament.games.values_list("black_id", "white_id"):
        ids.update((black, white))
    last = outbound.ratings_last_rated(sorted(ids), excluding=tournament.pk)
    later = sorted(pid for pid, day in last.items() if day > tournament.end_date)
    if not later:
        return ""
    names = Player.objects.filter(pk__in=later[:MAX_NAMED]).order_by("family_name", "pk")
    named = ", ".join(f"{p.full_name} (last rated on {last[p.pk]})" for p in names)
    more = f" and {len(later) - MAX_NAMED} more" if len(later) > MAX_NAMED else ""
    return f"before the last rated event of {named}{more}"
