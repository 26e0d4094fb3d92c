"""The database-backed rating recompute: in full from scratch, or from one event onward.

What is rated, the order, why an incremental run equals a full one, the
single transaction and the speed-ups: docs/ratings.md §7.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.models import LOCKED_STATES, Game, Player, ResultReason, Tournament
from ratings.models import PlayerRating, RatingHistory, RatingRun
from ratings.scales import Scale, scale_for
from ratings.systems import DEFAULT_SYSTEM, GameOutcome, PlayerState, rate_event_indexed
from ratings.systems.base import DEFAULT_CONFIG

RATED_REASONS = (ResultReason.SCORE, ResultReason.RESIGNATION, ResultReason.TIME, ResultReason.DRAW)
SCORE_FOR_BLACK = {"B": 1.0, "W": 0.0, "": 0.5}
STREAM_CHUNK = 50_000
WRITE_BATCH = 20_000
PROGRESS_EVERY = 500  # events between progress writes
_LOCK_KEY = 0x676F726566  # "goref": the advisory lock every run takes

Progress = Callable[[int, int], None]
"""``progress(done, total)``: events rated so far (called between events, outside the writes)."""


def rating_system_name() -> str:
    """``GOREF_RATING_SYSTEM`` (default ``egf2021``), read at call time."""
    return str(getattr(settings, "GOREF_RATING_SYSTEM", DEFAULT_SYSTEM))


def provisional_games() -> int:
    """``GOREF_PROVISIONAL_GAMES`` (default 10): rated games before a rating is established."""
    return int(getattr(settings, "GOREF_PROVISIONAL_GAMES", 10))


def rated_games(start: tuple[dt.date, int] | None = None) -> Any:
    """The rated games (values: tournament, end date, black, white, winner, handicap) in event order."""
    # Only closed tournaments are rated: an open event's games wait for its close.
    qs = Game.objects.filter(
        tournament__rated=True,
        tournament__closed_at__isnull=False,
        state__in=list(LOCKED_STATES),
        result_reason__in=RATED_REASONS,
    )
    if start is not None:
        day, tid = start
        qs = qs.filter(
            Q(tournament__end_date__gt=day) | Q(tournament__end_date=day, tournament_id__gte=tid)
        )
    return qs.order_by("tournament__end_date", "tournament_id", "id").values_list(
        "tournament_id", "tournament__end_date", "black_id", "white_id", "result_winner", "handicap"
    )


@contextmanager
def _run_lock() -> Iterator[None]:
    """One run at a time (PostgreSQL advisory lock; SQLite serialises its writers)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_lock(%s)", [_LOCK_KEY])
    try:
        yield
    finally:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_unlock(%s)", [_LOCK_KEY])


@dataclass
class _State:
    """Every player's running state, in flat lists by player number (the batch path's shape)."""

    scale: Scale
    declared: dict[int, int]
    index: dict[int, int]
    pks: list[int]
    rating: list[float]
    deviation: list[float]
    volatility: list[float]
    games: list[int]
    tournaments: list[int]
    last: list[int | None]

    @classmethod
    def empty(cls, scale: Scale, declared: dict[int, int]) -> _State:
        return cls(scale, declared, {}, [], [], [], [], [], [], [])

    def add(
        self, pk: int, state: PlayerState, tournaments: int = 0, last: int | None = None
    ) -> int:
        i = len(self.pks)
        self.index[pk] = i
        self.pks.append(pk)
        self.rating.append(state.rating)
        self.deviation.append(state.deviation)
        self.volatility.append(state.volatility)
        self.games.append(state.games)
        self.tournaments.append(tournaments)
        self.last.append(last)
        return i

    def idx(self, pk: int) -> int:
        i = self.index.get(pk)
        if i is None:
            i = self.add(pk, self.scale.start(self.declared[pk]))
        return i


def _state_before(scale: Scale, start: tuple[dt.date, int]) -> _State:
    """Every player's state after his last event before ``start``, from the stored history."""
    declared = dict(Player.objects.values_list("id", "declared_rank"))
    st = _State.empty(scale, declared)
    day, tid = start
    rows = (
        RatingHistory.objects.filter(
            Q(event_date__lt=day) | Q(event_date=day, tournament_id__lt=tid)
        )
        .order_by("event_date", "tournament_id")
        .values_list(
            "player_id",
            "tournament_id",
            "rating_after",
            "deviation_after",
            "volatility_after",
            "total_games",
        )
    )
    for pk, t, r, d, v, g in rows.iterator(chunk_size=STREAM_CHUNK):
        i = st.index.get(pk)
        if i is None:
            st.add(pk, PlayerState(r, d, v, g), 1, t)
        else:
            st.rating[i], st.deviation[i], st.volatility[i], st.games[i] = r, d, v, g
            st.tournaments[i] += 1
            st.last[i] = t
    return st


HistoryRow = tuple[int, int, dt.date, float, float, float, float, float, int, float, int]
"""(player, tournament, event date, before, after, change, deviation, volatility, games, wins, total)."""


def _rate_event(
    st: _State,
    tid: int,
    day: dt.date,
    games: list[tuple[int, int, float, int]],
    out: list[HistoryRow],
) -> None:
    """Rate one event on ``st`` in place and append a history row per player to ``out``."""
    n: dict[int, int] = {}
    wins: dict[int, float] = {}
    for b, w, sb, _h in games:
        n[b] = n.get(b, 0) + 1
        n[w] = n.get(w, 0) + 1
        wins[b] = wins.get(b, 0.0) + sb
        wins[w] = wins.get(w, 0.0) + 1.0 - sb
    R = st.rating
    before = {i: R[i] for i in n}
    if st.scale.name == "egf2021":
        rate_event_indexed(R, games, DEFAULT_CONFIG)
    else:
        states = {i: PlayerState(R[i], st.deviation[i], st.volatility[i], st.games[i]) for i in n}
        outcomes = [GameOutcome(b, w, sb, h) for b, w, sb, h in games]
        for i, s in st.scale.system.rate_event(states, outcomes, st.scale.config).items():
            R[i], st.deviation[i], st.volatility[i] = s.rating, s.deviation, s.volatility
    pks, G, T, L, D, V = st.pks, st.games, st.tournaments, st.last, st.deviation, st.volatility
    for i, k in n.items():
        G[i] += k
        T[i] += 1
        L[i] = tid
        r0, r1 = before[i], R[i]
        out.append((pks[i], tid, day, r0, r1, r1 - r0, D[i], V[i], k, wins[i], G[i]))


def _compute(
    st: _State, start: tuple[dt.date, int] | None, progress: Progress | None, total: int
) -> tuple[list[HistoryRow], int, int]:
    """Rate every event from ``start`` on; returns the history rows, events and games rated."""
    out: list[HistoryRow] = []
    events = games_n = 0
    idx = st.idx
    stream = rated_games(start).iterator(chunk_size=STREAM_CHUNK)
    for (tid, day), rows in groupby(stream, key=itemgetter(0, 1)):
        games = [(idx(b), idx(w), SCORE_FOR_BLACK[res], h) for _t, _d, b, w, res, h in rows]
        _rate_event(st, tid, day, games, out)
        events += 1
        games_n += len(games)
        if progress is not None and events % PROGRESS_EVERY == 0:
            progress(events, total)
    return out, events, games_n


def _write_history(rows: list[HistoryRow], run: RatingRun) -> None:
    algo, version = run.algorithm, run.version
    if connection.vendor == "postgresql":
        cols = (
            "player_id, tournament_id, event_date, rating_before, rating_after, change, "
            "deviation_after, volatility_after, games, wins, total_games, algorithm, version, run_id"
        )
        raw = connection.connection.cursor()  # the psycopg cursor, inside Django's transaction
        with raw.copy(f"COPY {RatingHistory._meta.db_table} ({cols}) FROM STDIN") as copy:
            extra = (algo, version, run.pk)
            for row in rows:
                copy.write_row(row + extra)
        return
    for k in range(0, len(rows), WRITE_BATCH):
        RatingHistory.objects.bulk_create(
            [
                RatingHistory(
                    player_id=p,
                    tournament_id=t,
                    event_date=d,
                    rating_before=r0,
                    rating_after=r1,
                    change=c,
                    deviation_after=dv,
                    volatility_after=vo,
                    games=g,
                    wins=w,
                    total_games=tg,
                    algorithm=algo,
                    version=version,
                    run=run,
                )
                for p, t, d, r0, r1, c, dv, vo, g, w, tg in rows[k : k + WRITE_BATCH]
            ]
        )


def _write_current(st: _State, run: RatingRun) -> None:
    """Upsert every player's current rating, then drop those left without any history."""
    need = provisional_games()
    scale = st.scale
    now = timezone.now()
    objs = [
        PlayerRating(
            player_id=pk,
            rating=st.rating[i],
            deviation=st.deviation[i],
            volatility=st.volatility[i],
            games=st.games[i],
            tournaments=st.tournaments[i],
            provisional=st.games[i] < need,
            rank=scale.rank(st.rating[i]).index,
            last_tournament_id=st.last[i],
            algorithm=run.algorithm,
            version=run.version,
            updated_at=now,
        )
        for i, pk in enumerate(st.pks)
        if st.tournaments[i]
    ]
    fields = [
        "rating",
        "deviation",
        "volatility",
        "games",
        "tournaments",
        "provisional",
        "rank",
        "last_tournament",
        "algorithm",
        "version",
        "updated_at",
    ]
    for k in range(0, len(objs), WRITE_BATCH):
        PlayerRating.objects.bulk_create(
            objs[k : k + WRITE_BATCH],
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=fields,
        )
    PlayerRating.objects.filter(
        ~Exists(RatingHistory.objects.filter(player_id=OuterRef("player_id")))
    ).delete()


def _start_of(tournament: Tournament | int | None) -> tuple[dt.date, int] | None:
    if tournament is None:
        return None
    t = (
        tournament
        if isinstance(tournament, Tournament)
        else Tournament.objects.filter(pk=tournament).first()
    )
    return None if t is None else (t.end_date, t.pk)  # a deleted tournament: recompute in full


def _can_continue(scale: Scale) -> bool:
    """An incremental run continues a history written by this algorithm and version only."""
    last = RatingRun.objects.filter(state=RatingRun.State.DONE).order_by("-id").first()
    return bool(last and last.algorithm == scale.name and last.version == scale.version)


def recompute(
    *,
    from_tournament: Tournament | int | None = None,
    job: Any = None,
    progress: Progress | None = None,
    system: str | None = None,
) -> RatingRun:
    """Re-rate from ``from_tournament`` onward (``None``: a full recompute from scratch).

    Returns the finished ``RatingRun``; on error the run is marked failed,
    nothing is written, and the error is raised again.
    """
    scale = scale_for(system or rating_system_name())
    with _run_lock():
        start = _start_of(from_tournament)
        note = ""
        if start is not None and not _can_continue(scale):
            note = "no earlier run of this algorithm version to continue: recomputed in full"
            start = None
        run = RatingRun.objects.create(
            algorithm=scale.name,
            version=scale.version,
            mode=RatingRun.Mode.FULL if start is None else RatingRun.Mode.INCREMENTAL,
            from_tournament_id=None if start is None else start[1],
            job=job,
            note=note,
        )
        try:
            _execute(run, scale, start, progress)
        except BaseException as exc:
            RatingRun.objects.filter(pk=run.pk).update(
                state=RatingRun.State.FAILED, error=repr(exc)[:2000], finished_at=timezone.now()
            )
            raise
    return run


def _execute(
    run: RatingRun, scale: Scale, start: tuple[dt.date, int] | None, progress: Progress | None
) -> None:
    events = Tournament.objects.filter(rated=True)
    if start is not None:
        day, tid = start
        events = events.filter(Q(end_date__gt=day) | Q(end_date=day, id__gte=tid))
    total = events.count()
    if start is None:
        st = _State.empty(scale, dict(Player.objects.values_list("id", "declared_rank")))
    else:
        st = _state_before(scale, start)
    rows, n_events, n_games = _compute(st, start, progress, total)
    with transaction.atomic():
        stale = RatingHistory.objects.all()
        if start is not None:
            day, tid = start
            stale = stale.filter(Q(event_date__gt=day) | Q(event_date=day, tournament_id__gte=tid))
        stale.delete()  # one DELETE: nothing cascades from or listens to history rows
        _write_history(rows, run)
        _write_current(st, run)
        run.state = RatingRun.State.DONE
        run.finished_at = timezone.now()
        run.events, run.games, run.history_rows = n_events, n_games, len(rows)
        run.players = len({r[0] for r in rows})
        run.save(
            update_fields=["state", "finished_at", "events", "games", "history_rows", "players"]
        )
    if progress is not None:
        progress(total, total)
