"""A congress-size pairing as a background job: no request holds a thread for it.

A 1,100-player dry run, ``explain`` or admin preview was seen holding a thread for
about 24 CPU-seconds against the production-like server, past the 10 s any request may
take.  Above ``GOREF_PAIRING_JOB_PLAYERS`` entered players the API and the admin start a
job (``ops.Job``, kind ``pairing``) that a worker runs through ``round_pair``; its answer
is kept on the job (``Job.result``: the API's pairing answer, or its refusal in the
API's error shape), for the page or the API to read.  At most one pairing job per
tournament is pending or running at a time (docs/operations.md, "Congress-size
pairings").
"""

from __future__ import annotations

import logging
from datetime import timedelta
from decimal import Decimal
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import permissions
from games.models import Game, Tournament, TournamentEntry
from games.tournament.selectors import unfinished_before
from games.tournament.services.entries import check_open
from games.tournament.services.rounds import PlannedGame, RoundPairing, round_pair
from ops.models import Job, JobState
from ops.services import TRANSIENT_DB_ERRORS, Actor, StateConflict, as_user, require
from ops.tasks_common import publish_or_log

log = logging.getLogger(__name__)

JOB_KIND = "pairing"
TASK_NAME = "games.tournament.round_pair_job"
# What a job's request may carry: round_pair's keyword arguments, as the API takes them.
REQUEST_FIELDS = (
    "players",
    "bye",
    "dry_run",
    "explain",
    "accept_unfinished",
    "pairs_of",
    "pairs_offset",
    "pairs_limit",
)


def pairing_needs_job(tournament: Tournament, players: Any = None) -> bool:
    """Whether pairing this tournament is a job: more entered players (or players named)
    than ``GOREF_PAIRING_JOB_PLAYERS``.  The entries are counted, not read."""
    if isinstance(players, list | tuple):
        count = len(players)
    else:
        count = TournamentEntry.objects.filter(tournament=tournament).count()
    return count > settings.GOREF_PAIRING_JOB_PLAYERS


def _scope(tournament: Tournament) -> str:
    return f"tournament:{tournament.pk}"


def round_pair_job_start(
    *, actor: Actor, tournament: Tournament, round_number: int, request: dict[str, Any]
) -> Job:
    """A director asks for a pairing (``request``: ``round_pair``'s options) as a job,
    published on commit.  409 while another pairing job of the tournament is pending or
    running; one left by a dead worker (older than the task's time limit) is failed."""
    require(permissions.is_director(actor, tournament), "Only its directors can pair a round.")
    check_open(tournament, "This tournament is closed: no more rounds can be paired.")
    unknown = set(request) - set(REQUEST_FIELDS)
    if unknown:
        raise ValidationError({"request": f"Unknown options: {', '.join(sorted(unknown))}."})
    stale = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    with transaction.atomic():
        # The tournament's row is the turnstile: two requests at once find the same jobs.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        live = Job.objects.filter(
            kind=JOB_KIND, scope=_scope(tournament), state__in=[JobState.PENDING, JobState.RUNNING]
        )
        live.filter(created_at__lt=stale).update(
            state=JobState.FAILED, error="Lost: no worker finished it.", finished_at=timezone.now()
        )
        running = live.filter(created_at__gte=stale).first()
        if running is not None:
            raise StateConflict(
                f"A pairing of this tournament is already under way (job {running.pk}): "
                "wait for it before asking for another."
            )
        try:
            with transaction.atomic():
                job = Job.objects.create(
                    kind=JOB_KIND,
                    scope=_scope(tournament),
                    params={"tournament": tournament.pk, "round": round_number, **request},
                    total=2,
                    created_by=as_user(actor),
                )
        except IntegrityError:  # job_one_pending_per_scope: another request's, just now
            raise StateConflict(
                "A pairing of this tournament is already under way: wait for it."
            ) from None
        job_id = job.pk
        transaction.on_commit(lambda: pairing_job_publish(job_id))
    return job


def pairing_job_publish(job_id: int) -> bool:
    """Hand the job to the broker (never raises; a director asks again if it is lost)."""
    return publish_or_log(
        lambda: current_app.send_task(TASK_NAME, args=[job_id]), what=f"pairing job {job_id}"
    )


def round_pair_job_run(*, job_id: int) -> str:
    """The task body: claim the job, pair as its creator asked, keep the answer."""
    claimed = Job.objects.filter(pk=job_id, state=JobState.PENDING).update(state=JobState.RUNNING)
    job = Job.objects.select_related("created_by").filter(pk=job_id).first()
    if job is None:
        return "missing"
    if not claimed and job.state != JobState.RUNNING:
        return str(job.state)  # done or failed already: a duplicate message
    params = dict(job.params)
    tournament = Tournament.objects.filter(pk=params.pop("tournament")).first()
    number = params.pop("round")
    Job.objects.filter(pk=job_id).update(done=1)
    try:
        if tournament is None:
            raise ValidationError("This tournament no longer exists.")
        result = round_pair(
            actor=job.created_by, tournament=tournament, round_number=number, **params
        )
        answer = pairing_answer(result, params.get("explain", False), tournament)
    except TRANSIENT_DB_ERRORS:
        raise  # the job stays running; the retry runs it again
    except (ValidationError, PermissionDenied, StateConflict) as exc:
        # A refusal the director reads, as the request would have answered it.
        error = " ".join(getattr(exc, "messages", None) or [str(exc)])[:2000]
        Job.objects.filter(pk=job_id).update(
            state=JobState.FAILED,
            error=error,
            result={"message": error, "extra": {}},  # the API's error shape
            finished_at=timezone.now(),
        )
        return JobState.FAILED
    except Exception as exc:
        Job.objects.filter(pk=job_id).update(
            state=JobState.FAILED, error=repr(exc)[:2000], finished_at=timezone.now()
        )
        raise
    Job.objects.filter(pk=job_id).update(
        state=JobState.DONE, done=2, result=answer, finished_at=timezone.now()
    )
    return JobState.DONE


def _komi(value: Decimal) -> str:
    return f"{value:.1f}"


def pairing_answer(result: RoundPairing, explain: object, tournament: Tournament) -> dict[str, Any]:
    """The API's answer to a pairing, in JSON's own types (kept on a job as is)."""
    unfinished: list[Game] = unfinished_before(tournament, result.round)
    games = []
    for g in result.games:
        row: dict[str, Any] = {
            "table": g.table,
            "black": g.black,
            "white": g.white,
            "handicap": g.handicap,
            "komi": _komi(g.komi),
            "costs": g.costs,
        }
        if explain:
            row["explanation"] = list(g.reasons)
        games.append(row)
    data: dict[str, Any] = {
        "round": result.round,
        "unfinished": [
            {
                "id": g.pk,
                "round": g.round.number,
                "table": g.table,
                "black": g.black_id,
                "white": g.white_id,
                "state": g.state,
            }
            for g in unfinished
        ],
        "bye": result.bye,
        "games": games,
        "total_cost": result.total_cost,
    }
    if result.pairs is not None:
        data["pairs"] = [{"a": p.a, "b": p.b, "costs": p.costs} for p in result.pairs]
        data["pairs_total"] = result.pairs_total
    return data


def pairing_from_answer(data: dict[str, Any]) -> RoundPairing:
    """A job's kept answer as the pairing it describes (the admin's preview reads it)."""
    return RoundPairing(
        round=data["round"],
        bye=data["bye"],
        games=[
            PlannedGame(
                table=g["table"],
                black=g["black"],
                white=g["white"],
                handicap=g["handicap"],
                komi=Decimal(g["komi"]),
                costs=g["costs"],
                reasons=tuple(g.get("explanation", ())),
            )
            for g in data["games"]
        ],
        total_cost=data["total_cost"],
        pairs=None,
        created=[],
    )
