"""Inside a worker: claim runs, replay and count their records, store the outcome.

A claim is one conditional UPDATE that writes a fresh token; the outcome is stored only
where the token still stands, so every run is stored and counted once per request.
Claims, stale workers, attempts and retries: docs/operations.md, "Re-scoring runs".
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.engine import ENGINE_VERSION
from games.engine.coords import parse_point, point_to_gtp
from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import dead_from_markup
from games.engine.types import Point
from games.engine.verdict import DeadSource, Step, check_claim
from games.models import Game, GameState, ScoringRun, ScoringState
from games.services import deadstones, outbound, scoring
from ops.models import Job
from ops.services import TRANSIENT_DB_ERRORS

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
_GAME_FIELDS = (
    "id",
    "sgf",
    "rules",
    "komi",
    "handicap",
    "dead_stones",
    "result_winner",
    "result_margin",
    "result_reason",
    "state",
    "tournament_id",
)
_STORED_FIELDS = [
    "state",
    "input_hash",
    "computed_result",
    "submitted_result",
    "breakdown",
    "first_illegal",
    "matches",
    "dispute_id",
    "error",
    "finished_at",
    "duration_ms",
    "dead_source",
    "step",
    "dead_stones",
    "unsure",
    "flipped",
]


# --------------------------------------------------------------------------- the count


@dataclass
class Outcome:
    failed: bool = False
    error: str = ""
    computed_result: str = ""
    breakdown: dict[str, Any] | None = None
    first_illegal: dict[str, Any] | None = None
    matches: bool | None = None
    duration_ms: int = 0
    dead_source: str = ""
    step: str = ""
    dead_stones: list[str] | None = None
    unsure: list[list[str]] | None = None
    flipped: list[list[str]] | None = None

    @property
    def needs_referee(self) -> bool:
        return not self.failed and (self.matches is False or self.first_illegal is not None)

    @property
    def needs_removal(self) -> bool:
        """No dead stones make the estimate agree with the claim: the players mark them."""
        return not self.failed and self.first_illegal is None and self.step == Step.REMOVAL


def _labels(points: Iterable[Point], size: int) -> list[str]:
    return [point_to_gtp(p, size) for p in sorted(points, key=lambda p: (p[1], p[0]))]


def compute(game: Game) -> Outcome:
    """Replay the record under the game's rules and count it with the game's komi and
    dead stones: the submitted ones, else the record's markup, else the engine's
    estimate (games.engine.verdict.check_claim).  Any engine error is the record's
    fault: a failed outcome with the error, never an exception (nothing to retry)."""
    started = time.monotonic()
    try:
        record = parse_record(game.sgf)
        played = replay(record, get_rules(game.rules), strict=False)
        given = {parse_point(label, record.size) for label in game.dead_stones or []}
        verdict = check_claim(
            played,
            game.result,
            dead=given,
            komi=Decimal(game.komi),
            estimating=played.first_illegal is None,
        )
    except SoftTimeLimitExceeded:
        raise
    except Exception as exc:
        return Outcome(failed=True, error=f"{type(exc).__name__}: {exc}"[:2000])
    source = verdict.source
    if source is DeadSource.SUBMITTED and given == dead_from_markup(
        played.board, record.territory_black, record.territory_white
    ):
        source = DeadSource.MARKUP  # stored from the record's TB/TW when it was submitted
    first = played.first_illegal
    illegal = None if first is None else first.to_dict()
    size = record.size
    estimate = verdict.estimate
    counted = verdict.count
    return Outcome(
        computed_result=counted.result.to_sgf(),
        breakdown=counted.to_dict(),
        first_illegal=illegal,
        matches=verdict.matches,
        duration_ms=round(1000 * (time.monotonic() - started)),
        dead_source=source.value,
        step=verdict.step.value,
        dead_stones=_labels(verdict.dead, size),
        unsure=None if estimate is None else [_labels(g, size) for g in estimate.unsure],
        flipped=[_labels(g, size) for g in verdict.flipped] or None,
    )


# --------------------------------------------------------------------------- claims


def claim(run_ids: Sequence[int], *, worker: str, token: str) -> int:
    """Claim the pending (or stale-running) runs among ``run_ids``; the row count."""
    now = timezone.now()
    return (
        ScoringRun.objects.filter(pk__in=list(run_ids))
        .filter(Q(state=ScoringState.PENDING) | scoring.stale_claim_q(now))
        .update(
            state=ScoringState.RUNNING,
            claimed_by=worker[:200],
            claim_token=token,
            claimed_at=now,
            started_at=now,
            attempts=F("attempts") + 1,
        )
    )


def release(token: str) -> None:
    """Give claimed runs back (pending) after a transient error; best effort."""
    try:
        ScoringRun.objects.filter(claim_token=token, state=ScoringState.RUNNING).update(
            state=ScoringState.PENDING,
            claim_token="",
            claimed_by="",
            claimed_at=None,
            attempts=F("attempts") - 1,
        )
    except Exception:  # the database is the problem: the claim goes stale and is swept
        log.warning("claim %s not released", token, exc_info=True)


# --------------------------------------------------------------------------- the job


def process(run_ids: Sequence[int], *, worker: str) -> Counter[str]:
    """Claim, score and store ``run_ids``; what happened, counted by outcome.

    Transient database errors propagate (the task retries) after the claim is
    released; a soft time limit stores what is done and sends the rest back.
    """
    token = uuid.uuid4().hex
    summary: Counter[str] = Counter()
    if not claim(run_ids, worker=worker, token=token):
        summary["skipped"] = len(run_ids)
        return summary
    outcomes: dict[int, Outcome] = {}
    runs: list[ScoringRun] = []
    games: dict[int, Game] = {}
    try:
        runs = list(ScoringRun.objects.filter(pk__in=list(run_ids), claim_token=token))
        games = Game.objects.only(*_GAME_FIELDS).in_bulk([r.game_id for r in runs])
        for run in runs:
            if run.attempts > MAX_ATTEMPTS:
                outcomes[run.pk] = Outcome(
                    failed=True,
                    error=f"gave up after {MAX_ATTEMPTS} attempts: the worker was lost each "
                    "time while scoring this record",
                )
            else:
                outcomes[run.pk] = compute(games[run.game_id])
        summary.update(store(runs, outcomes, games, token=token))
    except SoftTimeLimitExceeded:
        done = [r for r in runs if r.pk in outcomes]
        summary.update(store(done, outcomes, games, token=token))
        release(token)
        rest = [r.pk for r in runs if r.pk not in outcomes]
        log.warning("soft time limit: %d run(s) scored, %d sent back", len(done), len(rest))
        scoring.publish(rest, job_id=runs[0].job_id if runs else None)
    except BaseException:
        release(token)
        raise
    return summary


def store(
    runs: list[ScoringRun], outcomes: dict[int, Outcome], games: dict[int, Game], *, token: str
) -> Counter[str]:
    """Write the outcomes of the runs this claim still holds, the job progress
    and the disputes, in one transaction."""
    summary: Counter[str] = Counter()
    now = timezone.now()
    progress: dict[int, Counter[str]] = {}
    with transaction.atomic():
        held = set(
            ScoringRun.objects.select_for_update()
            .filter(pk__in=[r.pk for r in runs], claim_token=token, state=ScoringState.RUNNING)
            .values_list("pk", flat=True)
        )
        kept: list[ScoringRun] = []
        for run in runs:
            if run.pk not in held:
                summary["dropped"] += 1  # reset or re-claimed meanwhile
                continue
            outcome = outcomes[run.pk]
            game = games[run.game_id]
            _fill(run, outcome, game, now)
            if outcome.needs_referee:
                run.dispute_id = _dispute(game, run)
            elif outcome.needs_removal and game.state == GameState.SUBMITTED:
                # A confirmed, final or disputed result needs no marking from the players.
                deadstones.review_open(game=game, run=run)
            kept.append(run)
            kind = "failed" if outcome.failed else "done"
            summary[kind] += 1
            if run.job_id is not None:
                progress.setdefault(run.job_id, Counter())[kind] += 1
        _write(kept)
        for job_id, counts in progress.items():
            Job.objects.filter(pk=job_id).update(
                done=F("done") + counts["done"], failed=F("failed") + counts["failed"]
            )
        scoring.finish_jobs(progress)
    return summary


def _write(runs: list[ScoringRun]) -> None:
    """One UPDATE per run, sent as one ``executemany`` (pipelined by psycopg 3).

    ``bulk_update`` builds a CASE expression per field and row in Python,
    which cost more than counting the games; the rows are locked and checked
    by the caller, so plain updates by id are enough.
    """
    if not runs:
        return
    fields: list[Any] = [ScoringRun._meta.get_field(name) for name in _STORED_FIELDS]
    qn = connection.ops.quote_name
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        qn(ScoringRun._meta.db_table),
        ", ".join(f"{qn(f.column)} = %s" for f in fields),
        qn("id"),
    )
    rows = [
        [f.get_db_prep_save(getattr(run, f.attname), connection) for f in fields] + [run.pk]
        for run in runs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _fill(run: ScoringRun, outcome: Outcome, game: Game, now: Any) -> None:
    run.state = ScoringState.FAILED if outcome.failed else ScoringState.DONE
    run.input_hash = scoring.input_hash(game)  # what was actually scored
    run.computed_result = outcome.computed_result
    run.submitted_result = game.result_display
    run.breakdown = outcome.breakdown
    run.first_illegal = outcome.first_illegal
    run.matches = outcome.matches
    run.error = outcome.error
    run.finished_at = now
    run.duration_ms = outcome.duration_ms
    run.dead_source = outcome.dead_source
    run.step = outcome.step
    run.dead_stones = outcome.dead_stones
    run.unsure = outcome.unsure
    run.flipped = outcome.flipped


def _dispute(game: Game, run: ScoringRun) -> int | None:
    """Open an automatic dispute for a mismatch or an illegal move; its id."""
    kind = "result"
    if run.first_illegal is not None:
        kind = "repetition" if "superko" in run.first_illegal["reason"] else "illegal-move"
        claim = f"The record has an illegal move: {run.first_illegal['text']}."
    else:
        claim = (
            f"The record counts {run.computed_result} under {run.rules} rules, "
            f"but the submitted result is {run.submitted_result}."
        )
    evidence = {
        "scoring_run": run.pk,
        "rules": run.rules,
        "engine_version": ENGINE_VERSION,
        "submitted_result": run.submitted_result,
        "computed_result": run.computed_result,
        "matches": run.matches,
        "first_illegal": run.first_illegal,
        "breakdown": run.breakdown,
        "dead_stones": list(game.dead_stones or []),
        "dead_source": run.dead_source,
        "counted_dead": run.dead_stones,
        "komi": str(game.komi),
    }
    try:
        with transaction.atomic():  # a savepoint: a refusal does not undo the store
            return outbound.record_mismatch(game=game, kind=kind, claim=claim, evidence=evidence)
    except SoftTimeLimitExceeded:
        raise
    except TRANSIENT_DB_ERRORS:
        raise  # the task's retry handles a database that went away
    except Exception as exc:
        log.warning("automatic dispute not opened for game %s", game.pk, exc_info=True)
        run.error = f"dispute not opened: {type(exc).__name__}: {exc}"[:2000]
        return None
