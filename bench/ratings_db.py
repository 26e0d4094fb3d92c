"""The database half of ``bench/ratings.py``: load a synthetic history into PostgreSQL and
time the full database-backed recompute, end to end (docs/ratings.md §11).

    .venv/bin/python bench/ratings.py --database            # 20,000 players, 1,000,000 games
    .venv/bin/python bench/ratings.py --database --players 2000 --games 100000 --tournaments 5000
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/goref_bench_ratings"
TARGET_SECONDS = 60.0
TARGET_MIB = 1024.0
ROUNDS = 5
FIRST_DAY = dt.date(1950, 1, 1)

GameTuple = tuple[int, int, float, int]


def _setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _create_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _columns(model: Any, given: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """Every concrete column of ``model``: the given value, else the field's default."""
    cols, values = [], []
    for f in model._meta.concrete_fields:
        if f.primary_key and f.attname not in given:
            continue
        cols.append(f.column)
        if f.attname in given:
            values.append(given[f.attname])
            continue
        value = f.get_default()
        if f.get_internal_type() == "JSONField":
            value = json.dumps(value)
        values.append(value)
    return cols, values


def _copy(cur: Any, model: Any, rows: Any, sample: dict[str, Any]) -> int:
    """COPY dict rows into ``model``'s table; columns come from ``sample``'s keys plus defaults."""
    cols, defaults = _columns(model, sample)
    keys = [f.attname for f in model._meta.concrete_fields if f.column in cols]
    fixed = {k: v for k, v in zip(keys, defaults, strict=True) if k not in sample}
    n = 0
    quoted = ", ".join(f'"{c}"' for c in cols)  # "table" is a keyword
    stmt = f"COPY {model._meta.db_table} ({quoted}) FROM STDIN"
    with cur.copy(stmt) as copy:
        for row in rows:
            copy.write_row([row[k] if k in row else fixed[k] for k in keys])
            n += 1
    return n


def load(url: str, start: Sequence[float], events: Sequence[Sequence[GameTuple]]) -> float:
    """Create, migrate and fill the bench database; returns the seconds it took."""
    t0 = time.perf_counter()
    _create_database(url)
    _setup(url)
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    now = timezone.now()
    with transaction.atomic():
        with connection.cursor() as c:
            c.execute(
                "TRUNCATE ratings_ratinghistory, ratings_playerrating, ratings_ratingrun, "
                "games_game, games_round, games_tournament, games_player RESTART IDENTITY CASCADE"
            )
        cur = connection.connection.cursor()
        _copy_players(cur, start, now)
        _copy_events(cur, len(events), now)
        _copy_games(cur, events, now)
        _reset_sequences()
    with connection.cursor() as c:
        c.execute("ANALYZE")
    return time.perf_counter() - t0


def _copy_players(cur: Any, start: Sequence[float], now: dt.datetime) -> None:
    """One player per starting rating, his declared rank from it."""
    from games.models import Player

    _copy(
        cur,
        Player,
        (
            {
                "id": i + 1,
                "family_name": f"Player{i + 1}",
                "given_name": "Bench",
                "declared_rank": int((g - 2100) // 100),
                "created_at": now,
            }
            for i, g in enumerate(start)
        ),
        {"id": 0, "family_name": "", "given_name": "", "declared_rank": 0, "created_at": now},
    )


def _copy_events(cur: Any, count: int, now: dt.datetime) -> None:
    """The tournaments, three a day from ``FIRST_DAY``, each with ``ROUNDS`` rounds."""
    from games.models import Round, Tournament

    day = [FIRST_DAY + dt.timedelta(days=t // 3) for t in range(count)]
    _copy(
        cur,
        Tournament,
        (
            {
                "id": t + 1,
                "name": f"Bench event {t + 1}",
                "start_date": day[t],
                "end_date": day[t],
                "created_at": now,
                # Only closed events are rated (games.selectors.rated_games).
                "closed_at": now,
            }
            for t in range(count)
        ),
        {"id": 0, "name": "", "start_date": 0, "end_date": 0, "created_at": now, "closed_at": now},
    )
    _copy(
        cur,
        Round,
        (
            {"id": t * ROUNDS + r + 1, "tournament_id": t + 1, "number": r + 1}
            for t in range(count)
            for r in range(ROUNDS)
        ),
        {"id": 0, "tournament_id": 0, "number": 0},
    )


_GAME_COLUMNS = (
    "id",
    "tournament_id",
    "round_id",
    "black_id",
    "white_id",
    "handicap",
    "komi",
    "rules",
    "result_winner",
    "result_reason",
    "state",
    "locked_at",
    "created_at",
    "updated_at",
)


def _copy_games(cur: Any, events: Sequence[Sequence[GameTuple]], now: dt.datetime) -> None:
    """Every event's games, final, spread evenly over its rounds."""
    from games.models import Game

    def games() -> Any:
        gid = 0
        for t, ev in enumerate(events):
            per_round = max(1, -(-len(ev) // ROUNDS))
            for k, (b, w, s, h) in enumerate(ev):
                gid += 1
                yield {
                    "id": gid,
                    "tournament_id": t + 1,
                    "round_id": t * ROUNDS + k // per_round + 1,
                    "black_id": b + 1,
                    "white_id": w + 1,
                    "handicap": h,
                    "komi": "0.5" if h >= 2 else ("0" if h == 1 else "6.5"),
                    "rules": "japanese",
                    "result_winner": "B" if s == 1.0 else ("W" if s == 0.0 else ""),
                    "result_reason": "resignation" if s != 0.5 else "draw",
                    "state": "final",
                    "locked_at": now,
                    "created_at": now,
                    "updated_at": now,
                }

    _copy(cur, Game, games(), dict.fromkeys(_GAME_COLUMNS, 0))


def _reset_sequences() -> None:
    """Ids were given explicitly: move each table's sequence past them for later inserts."""
    from django.db import connection

    from games.models import Game, Player, Round, Tournament

    with connection.cursor() as c:
        for m in (Player, Tournament, Round, Game):
            c.execute(
                f"SELECT setval(pg_get_serial_sequence('{m._meta.db_table}', 'id'), "
                f"(SELECT MAX(id) FROM {m._meta.db_table}))"
            )


def run_once(url: str) -> dict[str, Any]:
    """In this (fresh) process: the Celery task's body on a new ratings job, timed."""
    import resource

    _setup(url)
    from ops.models import Job
    from ratings.models import PlayerRating
    from ratings.services import ratings_job_run

    job = Job.objects.create(kind="ratings", params={"from_tournament": None})
    t0 = time.perf_counter()
    state = ratings_job_run(job_id=job.pk)
    took = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    final = dict(PlayerRating.objects.values_list("player_id", "rating"))
    job.refresh_from_db()
    return {
        "state": state,
        "seconds": took,
        "peak_mib": peak,
        "final": final,
        "events": job.total - 1,
    }


def bench(url: str, start: Sequence[float], events: Sequence[Sequence[GameTuple]]) -> None:
    from ratings.systems.egf import rate_history

    n_games = sum(len(e) for e in events)
    took = load(url, start, events)
    print(
        f"database: loaded {len(start):,} players, {n_games:,} games, {len(events):,} "
        f"tournaments into {url.rsplit('/', 1)[1]} in {took:.1f}s (not measured)"
    )
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--run", url],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the recompute failed:\n{proc.stderr[-4000:]}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    pure = rate_history(list(start), events)
    worst = max(
        abs(res["final"][str(i + 1)] - pure[i])
        for i in range(len(start))
        if str(i + 1) in res["final"]
    )
    ok_t = "meets" if res["seconds"] < TARGET_SECONDS else "MISSES"
    ok_m = "meets" if res["peak_mib"] < TARGET_MIB else "MISSES"
    print(
        f"database recompute (ratings.services.ratings_job_run, {res['state']}): {res['seconds']:.1f}s, "
        f"{n_games / res['seconds']:,.0f} games/s ({ok_t} the {TARGET_SECONDS:.0f} s target); "
        f"peak memory of the recompute process {res['peak_mib']:,.0f} MiB ({ok_m} the 1 GiB target)"
    )
    print(f"  largest difference from the pure batch path: {worst:.2e} GoR")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--run":
        out = run_once(sys.argv[2])
        out["final"] = {str(k): v for k, v in out["final"].items()}
        print(json.dumps(out))
    else:
        raise SystemExit("run bench/ratings.py --database")
