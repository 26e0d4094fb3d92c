"""Evaluate promotions after a rating update: histories in, ``PromotionCandidate`` rows out.

Builds the engine's ``PlayerHistory`` for the players of the re-rated
tournaments with a fixed number of bulk queries per chunk, under the policy
that applies.  Which policy, opponents as they were, idempotency and the
sweep: docs/promotions.md §4 and docs/operations.md §1.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from games.models import Player, Round
from games.selectors import rated_games
from ops.tasks_common import mark_broker, publish_or_log
from ratings import tasks
from ratings.models import (
    HonoraryTitle,
    PromotionCandidate,
    PromotionPolicy,
    RankChange,
    RatingHistory,
    RatingRun,
)
from ratings.promotion.engine import (
    EventRecord,
    GameRecordLite,
    PlayerHistory,
    PolicyError,
    evaluate,
)
from ratings.promotion.engine import PromotionPolicy as PolicyValue
from ratings.promotion.services import policies_for, policy_value
from ratings.ranks import HONORARY_INDEX, MAX_INDEX, Rank
from ratings.recompute import SCORE_FOR_BLACK

log = logging.getLogger(__name__)

PLAYER_CHUNK = 500
IN_CHUNK = 2000  # ids per IN (...) list
EVALUATION_GRACE = dt.timedelta(seconds=30)  # before the sweep queues a run's evaluation
EVALUATION_SWEEP_BATCH = 50  # runs queued per sweep at most

T = TypeVar("T")


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for k in range(0, len(items), size):
        yield items[k : k + size]


@dataclass
class EvaluationResult:
    players: int = 0
    decisions: int = 0
    created: int = 0


# --------------------------------------------------------------------------- queueing


def _publish(run_id: int) -> bool:
    if not publish_or_log(
        lambda: tasks.promotions_evaluate.delay(run_id=run_id),
        what=f"the promotion evaluation of rating run {run_id}",
    ):
        return False
    RatingRun.objects.filter(pk=run_id).update(promotions_queued_at=timezone.now())
    return True


def promotions_queue(*, run_id: int) -> None:
    """Queue the evaluation of a finished rating run, once the caller's transaction commits."""
    transaction.on_commit(partial(_publish, run_id))


def promotions_sweep(*, now: dt.datetime | None = None) -> int:
    """Queue the evaluation of done rating runs not evaluated yet (part of ``ratings.sweep``).

    Returns how many were published.  Which runs, and why twice is harmless:
    docs/operations.md §1.
    """
    now = now or timezone.now()
    mark_broker(up=True)  # a sweep always tries the broker again
    lost = now - dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    ids = list(
        RatingRun.objects.filter(
            state=RatingRun.State.DONE,
            promotions_evaluated_at__isnull=True,
            finished_at__lt=now - EVALUATION_GRACE,
        )
        .filter(Q(promotions_queued_at__isnull=True) | Q(promotions_queued_at__lt=lost))
        .order_by("finished_at", "id")
        .values_list("pk", flat=True)[:EVALUATION_SWEEP_BATCH]
    )
    sent = 0
    for pk in ids:
        if not _publish(pk):
            break  # the broker is down: the rest would fail too
        sent += 1
    return sent


# --------------------------------------------------------------------------- ranks at the time


class RankBook:
    """Each player's rank at a given event, from his ``RankChange`` rows and current rank."""

    def __init__(self, current: dict[int, int], changes: dict[int, list[tuple[dt.date, int, int]]]):
        self.current = current
        self.changes = changes  # player -> [(since, old, new)] in the order they were made

    @classmethod
    def load(cls, player_ids: Sequence[int]) -> RankBook:
        current: dict[int, int] = {}
        changes: dict[int, list[tuple[dt.date, int, int]]] = defaultdict(list)
        for part in _chunks(player_ids, IN_CHUNK):
            current.update(Player.objects.filter(pk__in=part).values_list("id", "declared_rank"))
            rows = (
                RankChange.objects.filter(player_id__in=part)
                .order_by("player_id", "changed_at", "id")
                .values_list("player_id", "since", "old_rank", "new_rank")
            )
            for pid, since, old, new in rows:
                changes[pid].append((since, old, new))
        return cls(current, changes)

    def at(self, player_id: int, day: dt.date) -> Rank:
        """The rank held while playing an event that ended on ``day``.

        A change whose ``since`` is ``day`` or later did not apply yet (the engine's rule).
        """
        rank = None
        for since, old, new in self.changes.get(player_id, ()):
            if since < day:
                rank = new
            elif rank is None:
                rank = old
                break
            else:
                break
        if rank is None:
            rank = self.current.get(player_id, 0)
        return Rank(rank)

    def since(self, player_id: int) -> dt.date | None:
        rows = self.changes.get(player_id)
        return rows[-1][0] if rows else None


# --------------------------------------------------------------------------- the evaluation


def _players(tournament_ids: Iterable[int] | None) -> list[int]:
    qs = RatingHistory.objects.all()
    if tournament_ids is not None:
        qs = qs.filter(tournament_id__in=list(tournament_ids))
    pids = set(qs.values_list("player_id", flat=True).distinct())
    honorary = set(HonoraryTitle.objects.values_list("player_id", flat=True))
    honorary |= set(
        Player.objects.filter(declared_rank=HONORARY_INDEX).values_list("id", flat=True)
    )
    return sorted(pids - honorary)


def promotions_evaluate(
    *, tournament_ids: Iterable[int] | None = None, run_id: int | None = None
) -> EvaluationResult:
    """Evaluate the players of ``tournament_ids`` (or of the tournaments rating run
    ``run_id`` wrote; neither: every rated player) and add the missing candidates."""
    if run_id is not None:
        tournament_ids = list(
            RatingHistory.objects.filter(run_id=run_id)
            .values_list("tournament_id", flat=True)
            .distinct()
        )
    pids = _players(tournament_ids)
    total = EvaluationResult(players=len(pids))
    for part in _chunks(pids, PLAYER_CHUNK):
        decisions, created = _evaluate_chunk(list(part))
        total.decisions += decisions
        total.created += created
    if run_id is not None:
        RatingRun.objects.filter(pk=run_id, promotions_evaluated_at__isnull=True).update(
            promotions_evaluated_at=timezone.now()
        )
    return total


def _evaluate_chunk(pids: list[int]) -> tuple[int, int]:
    history: dict[int, list[tuple[int, dt.date, float, float]]] = defaultdict(list)
    rows = (
        RatingHistory.objects.filter(player_id__in=pids)
        .order_by("event_date", "tournament_id")
        .values_list("player_id", "tournament_id", "event_date", "rating_before", "rating_after")
    )
    for pid, tid, day, before, after in rows:
        history[pid].append((tid, day, before, after))
    played = {(pid, tid) for pid, events in history.items() for tid, *_ in events}
    end_of = {tid: day for events in history.values() for tid, day, *_ in events}

    pid_set = set(pids)
    games: dict[tuple[int, int], list[tuple[int, int, int, float, int]]] = defaultdict(list)
    game_rows = (
        rated_games()
        .filter(Q(black_id__in=pids) | Q(white_id__in=pids))
        .order_by("tournament_id", "round__number", "id")
        .values_list("id", "tournament_id", "black_id", "white_id", "result_winner", "handicap")
    )
    opponents: set[int] = set()
    for gid, tid, black, white, winner, handicap in game_rows:
        for me, other, is_black in ((black, white, True), (white, black, False)):
            if me in pid_set and (me, tid) in played:
                won = SCORE_FOR_BLACK[winner] if is_black else 1.0 - SCORE_FOR_BLACK[winner]
                # (game, opponent, handicap, won, stones received: Black takes them)
                games[(me, tid)].append((gid, other, handicap, won, int(is_black)))
                opponents.add(other)

    everyone = sorted(opponents | pid_set)
    before_of: dict[tuple[int, int], float] = {}
    for part in _chunks(sorted(opponents), IN_CHUNK):
        for pid, tid, before in RatingHistory.objects.filter(player_id__in=part).values_list(
            "player_id", "tournament_id", "rating_before"
        ):
            before_of[(pid, tid)] = before
    book = RankBook.load(everyone)
    rounds: dict[int, int] = {}
    for part in _chunks(sorted(end_of), IN_CHUNK):
        rounds.update(
            Round.objects.filter(tournament_id__in=part)
            .values("tournament_id")
            .annotate(n=Count("id"))
            .values_list("tournament_id", "n")
        )

    triggers = {pid: events[-1][0] for pid, events in history.items() if events}
    rows_by_tournament = policies_for(triggers.values())
    values: dict[int | None, PolicyValue | None] = {}
    candidates: list[PromotionCandidate] = []
    for pid, events in history.items():
        row = rows_by_tournament[triggers[pid]]
        key = row.pk if row is not None else None
        if key not in values:
            values[key] = _value(row)
        policy = values[key]
        if policy is None:
            continue
        records = tuple(
            EventRecord(
                event_id=tid,
                end_date=day,
                rating_before=before,
                rating_after=after,
                rounds=rounds.get(tid, 0),
                games=tuple(
                    GameRecordLite(
                        game_id=gid,
                        opponent_rank=book.at(other, day),
                        opponent_rating=before_of.get(
                            (other, tid), float(_nominal(book.at(other, day)))
                        ),
                        won=won,
                        handicap=h,
                        received_handicap=bool(h and took),
                    )
                    for gid, other, h, won, took in games.get((pid, tid), ())
                ),
            )
            for tid, day, before, after in events
        )
        current = Rank(book.current[pid])
        decision = evaluate(PlayerHistory(pid, current, records, book.since(pid)), policy)
        if decision is None:
            continue
        candidates.append(
            PromotionCandidate(
                player_id=pid,
                old_rank=decision.old_rank.index,
                new_rank=decision.new_rank.index,
                direction=decision.direction,
                criterion=decision.criterion[:200],
                evidence=decision.evidence.as_dict(),
                trigger_tournament_id=decision.trigger_event_id,
                policy=row,
                idempotency_key=decision.idempotency_key,
            )
        )
    return len(candidates), _insert(candidates)


def _nominal(rank: Rank) -> int:
    return Rank(min(rank.index, MAX_INDEX)).nominal_gor  # a 9p+ opponent plays as 9d


def _value(row: PromotionPolicy | None) -> PolicyValue | None:
    try:
        return policy_value(row)
    except PolicyError:  # a row saved around the validation: never apply a policy we cannot read
        log.exception("promotion policy %s cannot be read; its players are skipped", row)
        return None


def _insert(candidates: list[PromotionCandidate]) -> int:
    """Insert the candidates not made yet (ON CONFLICT DO NOTHING); returns how many were new."""
    if not candidates:
        return 0
    keys = [c.idempotency_key for c in candidates]
    existing: set[str] = set()
    for part in _chunks(keys, IN_CHUNK):
        existing.update(
            PromotionCandidate.objects.filter(idempotency_key__in=part).values_list(
                "idempotency_key", flat=True
            )
        )
    fresh = [c for c in candidates if c.idempotency_key not in existing]
    # ignore_conflicts: a concurrent evaluation that inserted the same key first wins.
    PromotionCandidate.objects.bulk_create(fresh, ignore_conflicts=True, batch_size=1000)
    return len(fresh)
