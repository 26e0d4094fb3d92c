"""Rating and handicap writes: queue a recompute, award the honorary 9p+, choose an even game.

Every service checks who may act, writes inside one transaction, audits
judgements (``referee.audit.audit_record``) and queues Celery work only after
commit (STYLE.md "One write path").  The numbers themselves come from the
pure modules (``ratings.systems``, ``ratings.handicap``) through
``ratings.strength`` and ``ratings.recompute``.

Delivery of recompute jobs: the ``ops.Job`` row (kind ``ratings``) is
written first, in state ``pending``, inside the caller's transaction; the
task is published from ``transaction.on_commit`` with the job id only.  A
broker that is down makes the publish fail fast: the error is logged, the job
stays pending, and ``ratings_sweep`` (``ratings.tasks.ratings_sweep``)
publishes it again later.  Running a recompute twice is harmless: it is a
function of the database.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import permissions
from games.engine.rules import get_rules
from games.models import LOCKED_STATES, Game, GameState, Player, Tournament
from games.services.common import GameLockedError, GameStateError, validate_and_save
from ops.models import Job, JobState
from ops.tasks_common import publish_or_log
from ratings.handicap import HandicapAdvice
from ratings.models import HonoraryTitle, RankChangeKind
from ratings.ranks import HONORARY_INDEX, Rank
from ratings.services_promotion import player_rank_set
from ratings.strength import pairing_advice
from referee.audit import audit_record

JOB_KIND = "ratings"
SWEEP_GRACE = timedelta(seconds=30)


# --------------------------------------------------------------------------- recompute jobs


def _publish(job_id: int) -> None:
    """Hand the job to the broker; never raises (the sweep retries a job left pending)."""
    from ratings.tasks import ratings_recompute

    publish_or_log(lambda: ratings_recompute.delay(job_id), what=f"ratings job {job_id}")


def _queue(*, actor: Any, from_tournament: Tournament | None, reason: str) -> Job:
    job = Job.objects.create(
        kind=JOB_KIND,
        params={
            "from_tournament": from_tournament.pk if from_tournament is not None else None,
            "reason": reason,
        },
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    transaction.on_commit(lambda: _publish(job.pk))
    return job


def ratings_recompute_start(*, actor: Any, from_tournament: Tournament | None = None) -> Job:
    """A director (or staff) asks for a recompute: full, or from one tournament onward."""
    if not permissions.is_any_director(actor):
        raise PermissionDenied("Only tournament directors and staff can recompute ratings.")
    with transaction.atomic():
        job = _queue(actor=actor, from_tournament=from_tournament, reason="requested")
        audit_record(
            actor=actor,
            action="ratings.recompute_requested",
            obj=job,
            new={"from_tournament": job.params["from_tournament"]},
        )
    return job


def ratings_on_result_locked(game: Game) -> Job | None:
    """Called where a result becomes locked: when it completes a rated tournament, queue
    the rating update from that tournament onward (on commit).

    The tournament row is locked first: two last results confirmed at once
    then see each other's commit, so exactly one of them queues the update.
    Call it inside the locking transaction.
    """
    tournament = Tournament.objects.select_for_update().get(pk=game.tournament_id)
    if not tournament.rated:
        return None
    if Game.objects.filter(tournament=tournament).exclude(state__in=LOCKED_STATES).exists():
        return None
    return _queue(actor=None, from_tournament=tournament, reason="tournament complete")


def ratings_sweep(*, now: Any = None) -> int:
    """Publish again the ratings jobs the broker never got (pending past a grace period)
    or whose worker died (running longer than the hard time limit).  Returns how many."""
    now = now or timezone.now()
    stale_running = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    ids = list(
        Job.objects.filter(kind=JOB_KIND)
        .filter(
            Q(state=JobState.PENDING, created_at__lt=now - SWEEP_GRACE)
            | Q(state=JobState.RUNNING, created_at__lt=stale_running)
        )
        .values_list("pk", flat=True)
    )
    for pk in ids:
        _publish(pk)
    return len(ids)


# --------------------------------------------------------------------------- honorary 9p+


def player_award_honorary(*, actor: Any, player: Player, reason: str) -> HonoraryTitle:
    """A director awards the honorary 9p+ (seed 000), with a reason; never from a rating."""
    if not permissions.is_any_director(actor):
        raise PermissionDenied("Only tournament directors can award the honorary 9p+.")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the honorary 9p+ is awarded."})
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        if HonoraryTitle.objects.filter(player=player).exists():
            raise ValidationError({"player": f"{player} already holds the honorary 9p+."})
        title = HonoraryTitle(player=player, reason=reason, awarded_by=actor)
        validate_and_save(title)
        # The official rank becomes 9p+, recorded in the rank history (issue 7); the
        # promotion engine never proposes it and never evaluates its holder.
        old_rank = Player.objects.values_list("declared_rank", flat=True).get(pk=player.pk)
        if old_rank != HONORARY_INDEX:
            player_rank_set(actor=actor, player=player, new_rank=Rank(HONORARY_INDEX),
                            kind=RankChangeKind.HONORARY, reason=reason)  # fmt: skip
        audit_record(
            actor=actor,
            action="player.honorary_awarded",
            obj=player,
            old={"honorary": False},
            new={"honorary": True, "rank": "9p+", "reason": reason},
        )
    return title


# --------------------------------------------------------------------------- even game


def game_advice(game: Game) -> HandicapAdvice:
    """The handicap advice for a game's players under its tournament's policy and rules."""
    return pairing_advice(
        tournament=game.tournament, a=game.black, b=game.white, rules=get_rules(game.rules)
    )


def game_choose_even(*, actor: Any, game: Game) -> Game:
    """The players choose an even game instead of the handicap (seed 001: "if the difference
    is less than 0.5 they may also choose to play an even game").

    A player of the game or a director of the tournament records the choice
    before a result is in; it is refused when the difference is 0.5 stones
    or more.  Handicap 0, the rules' even komi, ``even_game_chosen=True``,
    and an audit entry.  Colours stay as paired.
    """
    allowed = permissions.is_participant(actor, game) or permissions.is_director(
        actor, game.tournament
    )
    if not allowed:
        raise PermissionDenied("Only the players of this game or its directors can choose.")
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("tournament", "round", "black", "white")
            .get(pk=game.pk)
        )
        if game.state in LOCKED_STATES:
            raise GameLockedError()
        if game.state != GameState.SCHEDULED:
            raise GameStateError("A result is already in: the handicap can no longer change.")
        if game.handicap == 0:
            raise GameStateError("This game is already even.")
        advice = game_advice(game)
        if not advice.even_game_allowed:
            raise ValidationError(
                {
                    "handicap": f"The rating difference is {advice.difference_stones:.2f} stones: "
                    "an even game may be chosen only under 0.5."
                }
            )
        old = {"handicap": game.handicap, "komi": str(game.komi), "even_game_chosen": None}
        game.handicap = 0
        game.komi = get_rules(game.rules).komi
        game.even_game_chosen = True
        validate_and_save(game, update_fields=["handicap", "komi", "even_game_chosen", "updated_at"])
        audit_record(
            actor=actor,
            action="game.even_game_chosen",
            obj=game,
            old=old,
            new={"handicap": 0, "komi": str(game.komi), "even_game_chosen": True},
        )
    return game
