"""Re-scoring: asking for it (one game, a whole tournament, every game under a preset),
handing it to the broker after commit, and sweeping up what the broker never got.

The delivery design (stored first, queued on commit, the sweep): docs/operations.md,
"Re-scoring runs".  Claims and stores are in ``games.services.scoring_worker``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games import permissions, tasks
from games.engine import ENGINE_VERSION
from games.engine.rules import PRESETS
from games.models import FINISHED_STATES, Game, ScoringRun, ScoringState, Tournament
from ops import queues
from ops.models import Job, JobState
from ops.services import Actor, as_user
from ops.tasks_common import broker_down, mark_broker
from ops.worker import live_identities

log = logging.getLogger(__name__)


def claim_expires() -> timedelta:
    """After this a claim is dead even if its worker lives: the hard limit killed the task."""
    return timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)


JOB_KIND = "rescore"
# About 2 s of work: a record without dead stones marked costs a dead-stone estimate
# (~0.1 s on 19x19), so progress moves often and the overhead stays small.
CHUNK_SIZE = 20
# A pending run younger than this may still be on its way to the broker (its
# on_commit publish has not run yet): the sweep leaves it alone.
SWEEP_GRACE = timedelta(seconds=5)
WAITING_MESSAGE = gettext_lazy("The record will be checked when the job queue is back.")

# Fields that describe one scoring; cleared when a run is reset to pending.
_RESULT_FIELDS = {
    "computed_result": "",
    "submitted_result": "",
    "breakdown": None,
    "first_illegal": None,
    "matches": None,
    "dispute_id": None,
    "error": "",
    "claimed_by": "",
    "claim_token": "",
    "claimed_at": None,
    "queued_at": None,
    "started_at": None,
    "finished_at": None,
    "duration_ms": None,
    "dead_source": "",
    "step": "",
    "dead_stones": None,
    "unsure": None,
    "flipped": None,
    # A new input is a new piece of work: workers lost on the old one do not count
    # against it (a run fails after MAX_ATTEMPTS losses of its own).
    "attempts": 0,
}


def input_hash(game: Game) -> str:
    """The digest of everything a count depends on: a change means re-score."""
    payload = json.dumps(
        [
            game.sgf,
            game.rules,
            game.result_display,
            list(game.dead_stones or []),
            str(game.komi),
            game.handicap,
        ],
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def latest_run(game: Game) -> ScoringRun | None:
    """The run for the game's rules under this engine, else its most recent run."""
    runs = list(ScoringRun.objects.filter(game=game).order_by("-requested_at", "-id")[:5])
    for run in runs:
        if run.rules == game.rules and run.engine_version == ENGINE_VERSION:
            return run
    return runs[0] if runs else None


# --------------------------------------------------------------------------- one game


def scoring_run_request(*, game: Game) -> ScoringRun | None:
    """Ask for the game's record to be re-scored; ``None`` if it has no record.

    Creates the run for (game, rules, engine version) or resets it to pending
    when what it scored has changed, and publishes the task after commit.  An
    unchanged run that is finished or already on its way is left alone.
    """
    if not game.sgf:
        return None
    digest = input_hash(game)
    now = timezone.now()
    # The caller holds the game's row lock (results.game_lock), so no one else
    # creates this run meanwhile: no get_or_create, and no savepoints of its own.
    with transaction.atomic(savepoint=False):
        key = {"game": game, "rules": game.rules, "engine_version": ENGINE_VERSION}
        run = ScoringRun.objects.select_for_update().filter(**key).first()
        # ``queued_at`` is written now, with the run: a publish on commit that
        # fails clears it (one more query then, none when the broker answers).
        if run is None:
            run = ScoringRun.objects.create(
                **key, input_hash=digest, requested_at=now, queued_at=now
            )
        else:
            if run.input_hash == digest:
                return run  # already scored, or already on its way
            _reset(run, digest=digest, now=now, job=_keep_job(run), queued=True)
        run_id = run.pk
        transaction.on_commit(lambda: publish([run_id], recorded=True))
    return run


def _keep_job(run: ScoringRun) -> Job | None:
    # A run still counted by an unfinished job stays in it (the job counts it
    # when it is stored); a finished run was counted already and leaves it.
    return None if run.state in FINISHED_STATES else run.job


def _reset(
    run: ScoringRun, *, digest: str, now: Any, job: Job | None, queued: bool = False
) -> None:
    for name, value in _RESULT_FIELDS.items():
        setattr(run, name, value)
    run.queued_at = now if queued else None
    run.state = ScoringState.PENDING
    run.input_hash = digest
    run.requested_at = now
    run.job = job
    # The claim token is cleared: a worker still scoring the old record finds
    # its token gone and drops what it computed (scoring_worker.store).
    run.save(update_fields=[*_RESULT_FIELDS, "state", "input_hash", "requested_at", "job"])


# --------------------------------------------------------------------------- publishing


def publish(
    run_ids: Sequence[int],
    *,
    job_id: int | None = None,
    chunk_size: int = 0,
    recorded: bool = False,
) -> int:
    """Hand runs to the broker (after commit); returns how many were published.

    ``recorded``: the runs' ``queued_at`` was written with them, so only a
    failure costs a write (clearing it).

    Never raises: a broker that is down leaves the runs pending with
    ``queued_at`` null, and ``sweep_pending`` publishes them when it is back.
    Nothing is tried while a publish from this process failed a moment ago
    (``ops.tasks_common.broker_down``); each sweep starts by trying again.
    """
    ids = list(run_ids)
    if not ids:
        return 0
    if broker_down():
        log.warning("broker down: %d re-scoring run(s) left for the sweep", len(ids))
        _not_queued(ids, recorded)
        return 0
    size = chunk_size or CHUNK_SIZE
    published: list[int] = []
    try:
        if len(ids) == 1 and job_id is None:
            tasks.rescore_game.apply_async((ids[0],))
            published = ids
        else:
            with tasks.rescore_chunk.app.producer_or_acquire() as producer:
                for start in range(0, len(ids), size):
                    chunk = ids[start : start + size]
                    tasks.rescore_chunk.apply_async((chunk,), producer=producer)
                    published.extend(chunk)
    except Exception:  # the broker is down or refuses: keep the runs, the sweep retries
        mark_broker(up=False)
        log.warning(
            "re-scoring of %d run(s) not queued (broker unavailable); the sweep will queue them",
            len(ids) - len(published),
            exc_info=True,
        )
    _not_queued([i for i in ids if i not in set(published)], recorded)
    if published:
        mark_broker(up=True)
    if published and not recorded:
        try:
            ScoringRun.objects.filter(pk__in=published).exclude(state__in=FINISHED_STATES).update(
                queued_at=timezone.now()
            )
        except Exception:  # a duplicate message later is harmless; the work is queued
            log.warning("queued_at not recorded", exc_info=True)
    return len(published)


def _not_queued(ids: list[int], recorded: bool) -> None:
    """Runs written as queued whose publish failed: queued_at cleared (the form and the
    API say the check waits for the queue; the sweep sees them as never queued)."""
    if not (ids and recorded):
        return
    try:
        ScoringRun.objects.filter(pk__in=ids, state=ScoringState.PENDING).update(queued_at=None)
    except Exception:  # the sweep still finds them: queued long ago, not in the broker
        log.warning("queued_at not cleared", exc_info=True)


# --------------------------------------------------------------------------- batches


def tournament_rescore(
    *,
    actor: Actor,
    tournament: Tournament | None = None,
    rules: str | None = None,
    chunk_size: int = CHUNK_SIZE,
) -> Job:
    """Re-score every game with a record in a tournament (its director), or under a rules
    preset (staff).  Runs scored from the same input are kept and counted as done from
    the start; the rest is published in chunks after commit."""
    _rescore_allowed(actor, tournament, rules)
    games = _rescored_games(tournament, rules)
    params: dict[str, Any] = {"tournament": tournament.pk if tournament else None, "rules": rules}
    now = timezone.now()
    with transaction.atomic():
        job = Job.objects.create(
            kind=JOB_KIND, state=JobState.RUNNING, params=params, created_by=as_user(actor)
        )
        plan = {g.pk: (g, input_hash(g)) for g in games}
        existing = {
            r.game_id: r
            for r in ScoringRun.objects.select_for_update().filter(
                game_id__in=list(plan), engine_version=ENGINE_VERSION
            )
            if r.rules == plan[r.game_id][0].rules
        }
        create: list[ScoringRun] = []
        reset_ids: list[int] = []
        adopt_ids: list[int] = []
        left_jobs: Counter[int] = Counter()
        done = failed = 0
        for game_id, (game, digest) in plan.items():
            run = existing.get(game_id)
            if run is None:
                create.append(
                    ScoringRun(
                        game_id=game_id,
                        rules=game.rules,
                        engine_version=ENGINE_VERSION,
                        input_hash=digest,
                        requested_at=now,
                        job=job,
                    )
                )
                continue
            if run.input_hash == digest and run.state == ScoringState.DONE:
                done += 1
                continue
            if run.input_hash == digest and run.state == ScoringState.FAILED:
                failed += 1  # the same record fails the same way: not retried
                continue
            if run.job_id is not None and run.state not in FINISHED_STATES:
                left_jobs[run.job_id] += 1  # taken over from an unfinished job
            if run.input_hash == digest:
                adopt_ids.append(run.pk)  # on its way already: this job counts it
            else:
                reset_ids.append(run.pk)
        _insert(create)
        if reset_ids:
            ScoringRun.objects.filter(pk__in=reset_ids).update(
                **_RESULT_FIELDS,
                state=ScoringState.PENDING,
                requested_at=now,
                job=job,
                input_hash=_hash_case(reset_ids, plan, existing),
            )
        if adopt_ids:
            ScoringRun.objects.filter(pk__in=adopt_ids).update(job=job)
        for old_job, n in left_jobs.items():
            Job.objects.filter(pk=old_job).update(total=F("total") - n)
        job.total, job.done, job.failed = len(plan), done, failed
        job.save(update_fields=["total", "done", "failed"])
        finish_jobs([job.pk, *left_jobs])
        # New and reset runs, and adopted ones that never reached the broker.
        to_publish = list(
            ScoringRun.objects.filter(job=job, state=ScoringState.PENDING, queued_at__isnull=True)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        job_id = job.pk
        transaction.on_commit(lambda: publish(to_publish, job_id=job_id, chunk_size=chunk_size))
    job.refresh_from_db()
    return job


def _rescore_allowed(actor: Actor, tournament: Tournament | None, rules: str | None) -> None:
    """A re-score names what it covers, and its actor may ask for it."""
    if tournament is None and not rules:
        raise ValidationError("Name a tournament or a rules preset to re-score.")
    if rules and rules not in PRESETS:
        raise ValidationError({"rules": f"Unknown rules preset {rules!r}."})
    if actor is not None:
        if tournament is None:
            if not permissions.is_federation_official(actor):
                raise PermissionDenied(
                    "Only federation officials re-score every game under a preset."
                )
        elif not permissions.is_director(actor, tournament):
            raise PermissionDenied("Only the tournament's directors can re-score it.")


def _rescored_games(tournament: Tournament | None, rules: str | None) -> QuerySet[Game]:
    """The games with a record a re-score covers, with the fields their input hash reads."""
    games = Game.objects.exclude(sgf="").only(
        "id",
        "sgf",
        "rules",
        "result_winner",
        "result_margin",
        "result_reason",
        "dead_stones",
        "komi",
        "handicap",
    )
    if tournament is not None:
        games = games.filter(tournament=tournament)
    if rules:
        games = games.filter(rules=rules)
    return games


def _insert(runs: list[ScoringRun]) -> None:
    """Insert new pending runs, naming only the columns a new run sets.

    ``bulk_create`` prepares every field of every row in Python, which took
    longer than scoring a tenth of the games; this is one multi-row INSERT
    per thousand runs.
    """
    if not runs:
        return
    qn = connection.ops.quote_name
    names = ["game", "rules", "engine_version", "input_hash", "requested_at", "job"]
    fields: list[Any] = [ScoringRun._meta.get_field(n) for n in names]
    constants = {
        "state": ScoringState.PENDING.value,
        "computed_result": "",
        "submitted_result": "",
        "error": "",
        "dead_source": "",
        "step": "",
        "claimed_by": "",
        "claim_token": "",
        "attempts": 0,
    }
    columns = [f.column for f in fields] + list(constants)
    literals = ", ".join(["%s"] * (len(fields) + len(constants)))
    head = "INSERT INTO {} ({}) VALUES ".format(
        qn(ScoringRun._meta.db_table), ", ".join(qn(c) for c in columns)
    )
    with connection.cursor() as cursor:
        for start in range(0, len(runs), 1000):
            batch = runs[start : start + 1000]
            params: list[Any] = []
            for run in batch:
                params.extend(
                    f.get_db_prep_save(getattr(run, f.attname), connection) for f in fields
                )
                params.extend(constants.values())
            cursor.execute(head + ", ".join([f"({literals})"] * len(batch)), params)


def _hash_case(ids: list[int], plan: dict[int, tuple[Game, str]], runs: dict[int, Any]) -> Any:
    from django.db.models import Case, CharField, Value, When

    by_run = {r.pk: plan[gid][1] for gid, r in runs.items()}
    return Case(*[When(pk=pk, then=Value(by_run[pk])) for pk in ids], output_field=CharField())


def finish_jobs(job_ids: Iterable[int | None]) -> None:
    """Mark running jobs whose every run is counted as done."""
    ids = [j for j in set(job_ids) if j is not None]
    if ids:
        Job.objects.filter(pk__in=ids, state__in=[JobState.PENDING, JobState.RUNNING]).filter(
            done__gte=F("total") - F("failed")
        ).update(state=JobState.DONE, finished_at=timezone.now())


# --------------------------------------------------------------------------- the sweep


def stale_claim_q(now: Any) -> Q:
    """A running run whose claim no longer holds: the process that claimed it is
    not listed by a fresh worker heartbeat (``ops.worker``), or the claim is
    older than the hard time limit (the task is dead)."""
    return Q(state=ScoringState.RUNNING) & (
        Q(claimed_at__lt=now - claim_expires()) | ~Q(claimed_by__in=live_identities(now))
    )


# Tasks whose first argument names re-scoring runs (one id, or a list).
_RUN_TASKS = ("games.rescore_game", "games.rescore_chunk")
# The queue the re-scoring tasks are routed to (settings, CELERY_TASK_ROUTES).
SCORING_QUEUE = "scoring"
# Reading more waiting messages than this costs more than a duplicate publish saves.
MAX_SCANNED = 50_000


def runs_in_broker() -> set[int] | None:
    """The run ids of every re-scoring message waiting in the broker's ``scoring`` queue;
    ``None`` when that cannot be known (an error, or a queue too long to read).

    A message a worker has taken but not acknowledged is not counted: with a
    prefetch of one it is running (its runs are claimed), or its worker died.
    """
    try:
        raw = queues.waiting(SCORING_QUEUE, MAX_SCANNED)
    except Exception:
        log.warning("sweep: the broker's queue could not be read", exc_info=True)
        return None
    if raw is None:
        return None
    found: set[int] = set()
    for payload in raw:
        found.update(_message_runs(payload))
    return found


def _message_runs(payload: bytes | str) -> list[int]:
    """The run ids a Kombu message (JSON envelope, task protocol 2) carries."""
    try:
        message = json.loads(payload)
        if message.get("headers", {}).get("task") not in _RUN_TASKS:
            return []
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        first = json.loads(body)[0][0]
    except (ValueError, KeyError, IndexError, TypeError):
        return []
    items = first if isinstance(first, list) else [first]
    return [int(i) for i in items if isinstance(i, int)]


def sweep_pending() -> int:
    """Publish again every run the broker may not have (docs/operations.md, "Re-scoring
    runs"): never queued; queued more than ``GOREF_REQUEUE_AFTER`` ago while no
    message in the broker's queue names it (a queue lost with Redis, a worker
    that died holding it); under a stale claim.  Returns how many."""
    now = timezone.now()
    mark_broker(up=True)  # a sweep always tries the broker again
    pending = Q(state=ScoringState.PENDING, requested_at__lt=now - SWEEP_GRACE)
    never = pending & Q(queued_at__isnull=True)
    overdue = pending & Q(queued_at__lt=now - timedelta(seconds=settings.GOREF_REQUEUE_AFTER))
    rows = list(
        ScoringRun.objects.filter(never | overdue | stale_claim_q(now))
        .order_by("job_id", "pk")
        .values_list("pk", "job_id", "state", "queued_at")
    )
    late = [pk for pk, _, state, queued in rows if state == ScoringState.PENDING and queued]
    if late:
        waiting = runs_in_broker()
        if waiting is None:
            # Not knowable: only what the broker would have handed out again by now.
            cutoff = now - timedelta(seconds=settings.CELERY_VISIBILITY_TIMEOUT)
            waiting = {
                pk
                for pk, _, state, queued in rows
                if state == ScoringState.PENDING and queued and queued >= cutoff
            }
        rows = [r for r in rows if r[0] not in waiting]
    by_job: dict[int | None, list[int]] = {}
    for pk, owner, _, _ in rows:
        by_job.setdefault(owner, []).append(pk)
    total = 0
    for job, ids in by_job.items():
        total += publish(ids, job_id=job)
    if rows:
        log.info("sweep: %d run(s) found, %d queued", len(rows), total)
    return total


def oldest_pending_age(now: Any = None) -> float | None:
    """Seconds since the oldest pending run was requested, for /healthz."""
    first = (
        ScoringRun.objects.filter(state=ScoringState.PENDING)
        .order_by("requested_at")
        .values_list("requested_at", flat=True)
        .first()
    )
    if first is None:
        return None
    return round(((now or timezone.now()) - first).total_seconds(), 1)
