"""The database-backed rating recompute: in full from scratch, or from one event onward.

What is rated, the order, why an incremental run equals a full one, the
single transaction and the speed-ups: docs/ratings.md §7.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.cache import RATINGS
from games.models import MAX_RATED_HANDICAP, Player, Tournament, TournamentEntry
from games.selectors import rated_games as selected_rated_games
from games.selectors import unrated_by_handicap
from ops.audit import audit_record
from ops.models import AuditAction
from ops.pages import cache
from ratings.models import PlayerRating, RatingHistory, RatingHold, RatingRun
from ratings.ranks import MAX_INDEX, Rank
from ratings.scales import Scale, scale_for
from ratings.systems import DEFAULT_SYSTEM, GameOutcome, PlayerState, rate_event_indexed
from ratings.systems.base import DEFAULT_CONFIG
from ratings.systems.egf import CEILING, CLASS_WEIGHTS, entry_grade_reset

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


def _from_event(start: tuple[dt.date, int], date: str, tournament: str) -> Q:
    """Rows of the event ``start`` = (end date, tournament id) and every later one."""
    day, tid = start
    return Q(**{f"{date}__gt": day}) | Q(**{date: day, f"{tournament}__gte": tid})


def not_held() -> Any:
    """A filter on games: those no open hold keeps from the ratings (ratings.holds)."""
    holds = RatingHold.objects.filter(
        tournament_id=OuterRef("tournament_id"), released_at__isnull=True
    ).filter(
        Q(player__isnull=True)
        | Q(player_id=OuterRef("black_id"))
        | Q(player_id=OuterRef("white_id"))
    )
    return ~Exists(holds)


def rated_games(start: tuple[dt.date, int] | None = None) -> Any:
    """The rated games (values: tournament, end date, black, white, winner, handicap, id) in event order."""
    qs = selected_rated_games().filter(not_held())
    if start is not None:
        qs = qs.filter(_from_event(start, "tournament__end_date", "tournament_id"))
    return qs.order_by("tournament__end_date", "tournament_id", "id").values_list(
        "tournament_id",
        "tournament__end_date",
        "black_id",
        "white_id",
        "result_winner",
        "handicap",
        "id",
    )


def _not_rated_by_handicap(start: tuple[dt.date, int] | None) -> list[dict[str, Any]]:
    qs = unrated_by_handicap()
    if start is not None:
        qs = qs.filter(_from_event(start, "tournament__end_date", "tournament_id"))
    return [
        {"game": gid, "reason": f"{h} handicap stones: the EGD rates at most {MAX_RATED_HANDICAP}"}
        for gid, h in qs.order_by("id").values_list("id", "handicap")
    ]


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
    """Every player's running state, in flat lists by player number (the batch path's shape).

    ``entries`` maps (tournament, player) to the rank he entered with; ``highest``
    is each player's highest entry grade so far (the EGD's reset rule, §3).
    """

    scale: Scale
    declared: dict[int, int]
    entries: dict[tuple[int, int], int]
    index: dict[int, int] = field(default_factory=dict)
    pks: list[int] = field(default_factory=list)
    rating: list[float] = field(default_factory=list)
    deviation: list[float] = field(default_factory=list)
    volatility: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    tournaments: list[int] = field(default_factory=list)
    last: list[int | None] = field(default_factory=list)
    highest: list[int | None] = field(default_factory=list)
    resets: list[tuple[int, int, float, float]] = field(default_factory=list)

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
        self.highest.append(None)
        return i

    def idx(self, pk: int, tid: int) -> int:
        """The player's number; a newcomer starts at the grade he entered ``tid`` with."""
        i = self.index.get(pk)
        if i is None:
            start = self.entries.get((tid, pk), self.declared[pk])
            i = self.add(pk, self.scale.start(start))
        return i

    def entry_rank(self, i: int, tid: int) -> int | None:
        """The rank player ``i`` entered ``tid`` with; without an entry, his declared rank if
        it is his first event, else ``None`` (the event says nothing of his grade)."""
        pk = self.pks[i]
        rank = self.entries.get((tid, pk))
        if rank is None and self.highest[i] is None:
            rank = self.declared[pk]
        return None if rank is None else min(rank, MAX_INDEX)

    def raise_highest(self, i: int, entry: int) -> None:
        h = self.highest[i]
        self.highest[i] = entry if h is None else max(h, entry)

    def note_entry(self, i: int, tid: int) -> None:
        """Apply the EGD entry-grade reset (EGF systems only) and record the entry grade."""
        e = self.entry_rank(i, tid)
        if e is None:
            return
        h = self.highest[i]
        if self.scale.egf:
            new = entry_grade_reset(self.rating[i], Rank(e), None if h is None else Rank(h))
            if new is not None:
                self.resets.append((self.pks[i], tid, self.rating[i], new))
                self.rating[i] = new
        self.raise_highest(i, e)


def _entry_ranks() -> dict[tuple[int, int], int]:
    rows = TournamentEntry.objects.filter(tournament__rated=True).values_list(
        "tournament_id", "player_id", "rank"
    )
    return {(t, p): r for t, p, r in rows.iterator(chunk_size=STREAM_CHUNK)}


def _state_before(scale: Scale, start: tuple[dt.date, int]) -> _State:
    """Every player's state after his last event before ``start``, from the stored history."""
    declared = dict(Player.objects.values_list("id", "declared_rank"))
    st = _State(scale, declared, _entry_ranks())
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
            i = st.add(pk, PlayerState(r, d, v, g), 1, t)
        else:
            st.rating[i], st.deviation[i], st.volatility[i], st.games[i] = r, d, v, g
            st.tournaments[i] += 1
            st.last[i] = t
        e = st.entry_rank(i, t)
        if e is not None:
            st.raise_highest(i, e)
    return st


HistoryRow = tuple[
    int, int, dt.date, float, float, float, float, float, int, float, int, float | None
]
"""(player, tournament, event date, before, after, change, deviation, volatility, games, wins,
total, the rating before an entry-grade reset or None)."""


def _rate_event(
    st: _State,
    tid: int,
    day: dt.date,
    games: list[tuple[int, int, float, int]],
    out: list[HistoryRow],
    weight: float = 1.0,
) -> list[int]:
    """Rate one event on ``st`` in place and append a history row per player to ``out``.

    Returns the indexes of the games left out because the formula cannot rate
    them (a handicap that lifts its receiver to the pole at 3300).
    """
    skipped: list[int] = []
    reset_from: dict[int, float] = {}
    seen: set[int] = set()
    for b, w, _sb, _h in games:
        for i in (b, w):
            if i not in seen:
                seen.add(i)
                before_reset, k = st.rating[i], len(st.resets)
                st.note_entry(i, tid)
                if len(st.resets) > k:
                    reset_from[i] = before_reset
    if st.scale.name == "egf2021":
        # β has its pole at 3300: a receiver lifted there cannot be rated, and
        # one such game must not fail the whole run.
        R0, stone = st.rating, DEFAULT_CONFIG.handicap_stone
        for k, (b, _w, _sb, h) in enumerate(games):
            if h and R0[b] + stone * (h - 0.5) >= CEILING:
                skipped.append(k)
        if skipped:
            gone = set(skipped)
            games = [g for k, g in enumerate(games) if k not in gone]
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
        rate_event_indexed(R, games, DEFAULT_CONFIG, weight=weight)
    else:
        states = {i: PlayerState(R[i], st.deviation[i], st.volatility[i], st.games[i]) for i in n}
        outcomes = [GameOutcome(b, w, sb, h) for b, w, sb, h in games]
        rated = st.scale.system.rate_event(states, outcomes, weight=weight)
        for i, s in rated.items():
            R[i], st.deviation[i], st.volatility[i] = s.rating, s.deviation, s.volatility
    pks, G, T, L, D, V = st.pks, st.games, st.tournaments, st.last, st.deviation, st.volatility
    for i, k in n.items():
        G[i] += k
        T[i] += 1
        L[i] = tid
        r0, r1 = before[i], R[i]
        out.append(
            (pks[i], tid, day, r0, r1, r1 - r0, D[i], V[i], k, wins[i], G[i], reset_from.get(i))
        )
    return skipped


def _class_weights() -> dict[int, float]:
    """Each rated tournament's EGD class weight (A 1, B 0.75, C 0.5, D 0.25)."""
    rows = Tournament.objects.filter(rated=True).values_list("id", "egf_class")
    return {t: CLASS_WEIGHTS.get(c, 1.0) for t, c in rows.iterator(chunk_size=STREAM_CHUNK)}


def _compute(
    st: _State,
    start: tuple[dt.date, int] | None,
    progress: Progress | None,
    total: int,
    not_rated: list[dict[str, Any]],
) -> tuple[list[HistoryRow], int, int]:
    """Rate every event from ``start`` on; returns the history rows, events and games rated.

    Games the formula cannot rate are appended to ``not_rated`` with the reason.
    """
    out: list[HistoryRow] = []
    events = games_n = 0
    idx = st.idx
    weights = _class_weights()
    stream = rated_games(start).iterator(chunk_size=STREAM_CHUNK)
    for (tid, day), rows in groupby(stream, key=itemgetter(0, 1)):
        ids: list[int] = []
        games = []
        for _t, _d, b, w, res, h, gid in rows:
            games.append((idx(b, tid), idx(w, tid), SCORE_FOR_BLACK[res], h))
            ids.append(gid)
        skipped = _rate_event(st, tid, day, games, out, weights.get(tid, 1.0))
        for k in skipped:
            not_rated.append(
                {
                    "game": ids[k],
                    "reason": "the handicap lifts Black to GoR 3300, the formula's pole",
                }
            )
        events += 1
        games_n += len(games) - len(skipped)
        if progress is not None and events % PROGRESS_EVERY == 0:
            progress(events, total)
    return out, events, games_n


def _write_history(rows: list[HistoryRow], run: RatingRun) -> None:
    algo, version = run.algorithm, run.version
    if connection.vendor == "postgresql":
        cols = (
            "player_id, tournament_id, event_date, rating_before, rating_after, change, "
            "deviation_after, volatility_after, games, wins, total_games, reset_from, "
            "algorithm, version, run_id"
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
                    reset_from=rf,
                    algorithm=algo,
                    version=version,
                    run=run,
                )
                for p, t, d, r0, r1, c, dv, vo, g, w, tg, rf in rows[k : k + WRITE_BATCH]
            ]
        )


def _audit_new_resets(
    resets: list[tuple[int, int, float, float]], stale: Any, run: RatingRun
) -> None:
    """One audit row per entry-grade reset that the stored history did not hold yet."""
    if not resets:
        return
    known = set(stale.filter(reset_from__isnull=False).values_list("player_id", "tournament_id"))
    fresh = [r for r in resets if (r[0], r[1]) not in known]
    players = Player.objects.in_bulk([r[0] for r in fresh])
    for pk, tid, before, after in fresh:
        audit_record(
            actor=None,
            action=AuditAction.RATING_ENTRY_GRADE_RESET,
            obj=players[pk],
            old={"rating": round(before, 3)},
            new={"rating": round(after, 3), "tournament": tid, "run": run.pk},
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
        events = events.filter(_from_event(start, "end_date", "id"))
    total = events.count()
    if start is None:
        st = _State(scale, dict(Player.objects.values_list("id", "declared_rank")), _entry_ranks())
    else:
        st = _state_before(scale, start)
    not_rated = _not_rated_by_handicap(start)
    rows, n_events, n_games = _compute(st, start, progress, total, not_rated)
    with transaction.atomic():
        stale = RatingHistory.objects.all()
        if start is not None:
            stale = stale.filter(_from_event(start, "event_date", "tournament_id"))
        _audit_new_resets(st.resets, stale, run)
        stale.delete()  # one DELETE: nothing cascades from or listens to history rows
        _write_history(rows, run)
        _write_current(st, run)
        run.state = RatingRun.State.DONE
        run.finished_at = timezone.now()
        run.events, run.games, run.history_rows = n_events, n_games, len(rows)
        run.players = len({r[0] for r in rows})
        run.not_rated = not_rated
        run.save(
            update_fields=[
                "state",
                "finished_at",
                "events",
                "games",
                "history_rows",
                "players",
                "not_rated",
            ]
        )
        cache.touch(RATINGS)  # every cached rating, history and handicap, after commit
    if progress is not None:
        progress(total, total)
