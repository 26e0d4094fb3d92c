"""Rating writes: queue a recompute, award the honorary 9p+, hear what games tells.

Services as everywhere (docs/operations.md §2); recompute jobs are written
first and published on commit, and ``ratings_sweep`` publishes a job the
broker missed (docs/operations.md §1).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games import permissions
from games.models import Game, Player, Tournament
from ops.audit import audit_record
from ops.models import AuditAction, Job, JobState
from ops.services import (
    TRANSIENT_DB_ERRORS,
    Actor,
    StateConflict,
    as_user,
    validate_and_save,
)
from ops.tasks_common import mark_broker, publish_or_log
from ratings.models import HonoraryTitle, RankChangeKind
from ratings.promotion.evaluation import promotions_queue
from ratings.promotion.services import player_rank_set
from ratings.ranks import HONORARY_INDEX, Rank
from ratings.recompute import recompute
from ratings.tasks import ratings_recompute

log = logging.getLogger(__name__)

JOB_KIND = "ratings"
JOB_SCOPE = "all"  # a recompute rates every later event: one pending job covers all
SWEEP_GRACE = timedelta(seconds=30)


# --------------------------------------------------------------------------- recompute jobs


def _publish(job_id: int) -> None:
    """Hand the job to the broker; never raises (the sweep retries a job left pending)."""
    publish_or_log(lambda: ratings_recompute.delay(job_id), what=f"ratings job {job_id}")


def recompute_queue(*, actor: Actor, from_tournament: Tournament | None, reason: str) -> Job:
    """The ratings job that will run: the one already waiting (pending) if there is one,
    widened to cover this request, else a new one.  Call it inside a transaction.

    Coalescing keeps the queue at one pending job behind at most one running one, however
    often recomputes are asked for: each job recomputes from its start to the present, so
    the waiting job covers every request made before it starts.  The database holds the
    "one pending" (``job_one_pending_per_scope``): of two simultaneous requests that both
    find none, the second's insert waits for the first to commit, fails, and widens the
    first's job instead."""
    wanted = from_tournament.pk if from_tournament is not None else None
    for _attempt in range(3):
        waiting = (
            Job.objects.select_for_update()
            .filter(kind=JOB_KIND, state=JobState.PENDING)
            .order_by("pk")
            .first()
        )
        if waiting is not None:
            start = waiting.params.get("from_tournament")
            if start is not None and start != wanted:
                # Two different starting points: the earlier one covers both.
                start = _earlier(start, wanted)
                waiting.params = {**waiting.params, "from_tournament": start}
                waiting.save(update_fields=["params"])
            return waiting
        try:
            with transaction.atomic():  # a savepoint: the caller's transaction survives
                job = Job.objects.create(
                    kind=JOB_KIND,
                    scope=JOB_SCOPE,
                    params={"from_tournament": wanted, "reason": reason},
                    created_by=as_user(actor),
                )
        except IntegrityError:
            continue  # a simultaneous request queued it first: widen that one
        job_id = job.pk
        transaction.on_commit(lambda: _publish(job_id))  # noqa: B023 (returned at once)
        return job
    raise StateConflict("Recomputes are being queued right now: try again in a moment.")


def _earlier(a: int, b: int | None) -> int | None:
    """Of two tournaments to recompute from, the one rated first (``None``: from the start)."""
    if b is None:
        return None
    rows = dict(Tournament.objects.filter(pk__in=[a, b]).values_list("pk", "end_date"))
    if a not in rows or b not in rows:
        return None
    return min((rows[a], a), (rows[b], b))[1]


def ratings_recompute_start(*, actor: Actor, from_tournament: Tournament | None = None) -> Job:
    """A federation official asks for a recompute, full or from one tournament onward; a
    tournament's directors from their own tournament.  Coalesced with the job waiting."""
    # ``actor=None``: the operator (a management command, a test).
    if from_tournament is None:
        allowed = permissions.is_federation_official(actor)
    else:
        allowed = permissions.is_federation_official(actor) or permissions.is_director(
            actor, from_tournament
        )
    if actor is not None and not allowed:
        raise PermissionDenied(
            "Only federation officials recompute every rating; a tournament's directors "
            "recompute from their own tournament."
        )
    if (
        actor is not None
        and from_tournament is not None
        and not permissions.is_federation_official(actor)
    ):
        # A director's recompute re-rates every later event: from a recent one only.
        limit = timezone.localdate() - timedelta(days=settings.GOREF_RATED_BACKDATE_DAYS)
        if from_tournament.end_date < limit:
            raise PermissionDenied(
                f"This tournament ended before {limit}: only federation officials "
                "recompute from that far back."
            )
    with transaction.atomic():
        job = recompute_queue(actor=actor, from_tournament=from_tournament, reason="requested")
        audit_record(
            actor=actor,
            action=AuditAction.RATINGS_RECOMPUTE_REQUESTED,
            obj=job,
            new={
                "from_tournament": from_tournament.pk if from_tournament is not None else None,
                "job_from_tournament": job.params["from_tournament"],
            },
        )
    return job


def ratings_on_result_locked(game: Game) -> Job | None:
    """A result locked after its rated tournament was closed (a late correction or
    ruling): queue the update from that tournament (on commit).  While the tournament is
    open its games wait for the close (docs/tournaments.md, "Lifecycle")."""
    tournament = Tournament.objects.get(pk=game.tournament_id)
    if not tournament.rated or tournament.closed_at is None:
        return None
    return recompute_queue(actor=None, from_tournament=tournament, reason="result after the close")


def ratings_on_tournament_closed(tournament: Tournament) -> Job | None:
    """A director closed a rated tournament: its games reach the ratings (on commit)."""
    if not tournament.rated:
        return None
    return recompute_queue(actor=None, from_tournament=tournament, reason="tournament closed")


def ratings_sweep(*, now: Any = None) -> int:
    """Publish again the ratings jobs the broker never got (pending past a grace period)
    or whose worker died (running longer than the hard time limit).  Returns how many."""
    now = now or timezone.now()
    mark_broker(up=True)  # a sweep always tries the broker again
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


def ratings_job_run(*, job_id: int) -> str:
    """The task body: claim the job, recompute, record the outcome.  Returns the job state."""

    claimed = Job.objects.filter(pk=job_id, state=JobState.PENDING).update(state=JobState.RUNNING)
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        log.warning("ratings job %s does not exist", job_id)
        return "missing"
    if not claimed and job.state != JobState.RUNNING:
        return str(job.state)  # done or failed already: a duplicate message

    def progress(done: int, total: int) -> None:
        # +1: the last step is the write, reported when it has committed.
        Job.objects.filter(pk=job_id).update(done=min(done, total), total=total + 1)

    try:
        run = recompute(
            from_tournament=job.params.get("from_tournament"), job=job, progress=progress
        )
    except TRANSIENT_DB_ERRORS:
        raise  # the job stays running; the retry runs it again
    except Exception as exc:
        Job.objects.filter(pk=job_id).update(
            state=JobState.FAILED, error=repr(exc)[:2000], finished_at=timezone.now()
        )
        raise
    total = run.events + 1
    with transaction.atomic():
        Job.objects.filter(pk=job_id).update(
            state=JobState.DONE, done=total, total=total, finished_at=timezone.now()
        )
        # Every rating update is followed by a promotion evaluation, queued once
        # the job is marked done.
        promotions_queue(run_id=run.pk)
    return JobState.DONE


# --------------------------------------------------------------------------- honorary 9p+


def player_award_honorary(*, actor: Actor, player: Player, reason: str) -> HonoraryTitle:
    """A federation official awards the honorary 9p+ (WGA 9x9 rules), with a reason; never
    from a rating."""
    if actor is not None and not permissions.is_federation_official(actor):
        raise PermissionDenied("Only federation officials award the honorary 9p+.")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the honorary 9p+ is awarded."})
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        if HonoraryTitle.objects.filter(player=player).exists():
            raise ValidationError({"player": f"{player} already holds the honorary 9p+."})
        title = HonoraryTitle(player=player, reason=reason, awarded_by=as_user(actor))
        validate_and_save(title)
        # The official rank becomes 9p+, recorded in the rank history (docs/promotions.md); the promotion engine never proposes it nor evaluates its holder.
        old_rank = Player.objects.values_list("declared_rank", flat=True).get(pk=player.pk)
        if old_rank != HONORARY_INDEX:
            player_rank_set(
                actor=actor,
                player=player,
                new_rank=Rank(HONORARY_INDEX),
                kind=RankChangeKind.HONORARY,
                reason=reason,
            )
        audit_record(
            actor=actor,
            action=AuditAction.PLAYER_HONORARY_AWARDED,
            obj=player,
            old={"honorary": False},
            new={"honorary": True, "rank": "9p+", "reason": reason},
        )
    return title


def ratings_on_players_merged(
    *, kept: Player, gone: Player, earliest: Tournament | None
) -> Job | None:
    """``gone`` is ``kept`` (games.people.services.duplicates.duplicate_merge): his rank history,
    held games, promotion candidates and honorary title (when ``kept`` has none) move to ``kept``; his
    computed rating rows go, and the ratings are computed again from ``earliest``, the
    first rated and closed event either played (on commit)."""
    from ratings.models import (
        PlayerRating,
        PromotionCandidate,
        RankChange,
        RatingHistory,
        RatingHold,
    )

    RankChange.objects.filter(player=gone).update(player=kept)
    # The two never played in one event (the merge refuses that): no hold collides.
    RatingHold.objects.filter(player=gone).update(player=kept)
    PromotionCandidate.objects.filter(player=gone).update(player=kept)
    if not HonoraryTitle.objects.filter(player=kept).exists():
        HonoraryTitle.objects.filter(player=gone).update(player=kept)
    PlayerRating.objects.filter(player=gone).delete()
    RatingHistory.objects.filter(player=gone).delete()
    if earliest is None:
        return None
    return recompute_queue(actor=None, from_tournament=earliest, reason="players merged")
