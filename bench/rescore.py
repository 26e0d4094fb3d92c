"""Re-scoring benchmark (not a test): the Celery pipeline against the engine alone.

Run: ``.venv/bin/python -m bench.rescore`` (``--games N``, ``--chunk-size N``).

Creates its own PostgreSQL database (``goref_bench``, dropped and migrated
afresh) on ``DATABASE_URL``'s server (default postgres://postgres@127.0.0.1:5432),
stores N random legal 19x19 games of about 250 moves (made with the engine,
written with ``write_record``), then re-scores them twice in the same run:

* the engine alone, one process: parse, replay, count and compare every record
  with its claim, as the worker does (a record without dead stones marked costs
  a dead-stone estimate, about 15 ms of CPU per finished 19x19 game and ten
  times that for these unfinished random ones, whose chains stay in doubt);
* the real pipeline: ``tournament_rescore`` -> chunks on Redis
  (``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/4) -> two worker
  processes (concurrency 1 each) -> runs stored in PostgreSQL, until the
  job is done.

Prints games per second for both and their ratio (target: at least 0.7).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.database import recreate_database

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RULES = "nz"  # situational superko, as games.engine.randgame plays
KOMI = Decimal(7)


def _database_urls(name: str) -> tuple[str, str]:
    base = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/goref"
    parts = urlsplit(base)
    if parts.scheme not in ("postgres", "postgresql"):
        base, parts = (
            "postgres://postgres@127.0.0.1:5432/goref",
            urlsplit("postgres://postgres@127.0.0.1:5432/goref"),
        )
    return (
        urlunsplit(parts._replace(path=f"/{name}")),
        urlunsplit(parts._replace(path="/postgres")),
    )


def _make_records(n: int) -> list[str]:
    from games.engine.randgame import random_moves
    from games.engine.record import write_record
    from games.engine.types import GameRecord

    records = []
    for seed in range(n):
        moves = random_moves(19, 250, seed)
        record = GameRecord(size=19, komi=KOMI, actions=tuple(moves))
        records.append(write_record(record, rules="NZ"))
    return records


def _store(records: list[str]) -> Any:
    """One tournament, 64 players, one round holding every pairing (2,016 at most)."""
    import datetime as dt
    from itertools import combinations

    from games.engine.record import parse_record
    from games.engine.replay import replay
    from games.engine.rules import get_rules
    from games.engine.scoring import score
    from games.models import Game, Player, Round, Tournament

    tournament = Tournament.objects.create(
        name="Bench open",
        start_date=dt.date(2026, 1, 1),
        end_date=dt.date(2026, 1, 2),
        rules=RULES,
        komi=KOMI,
    )
    rnd = Round.objects.create(tournament=tournament, number=1)
    need = 2
    while need * (need - 1) // 2 < len(records):
        need += 1
    players = Player.objects.bulk_create(
        [Player(family_name=f"P{i}", declared_rank=-5) for i in range(need)]
    )
    rules = get_rules(RULES)
    games = []
    for i, ((black, white), text) in enumerate(
        zip(combinations(players, 2), records, strict=False)
    ):
        counted = score(replay(parse_record(text), rules, strict=False), komi=KOMI).result
        games.append(
            Game(
                tournament=tournament,
                round=rnd,
                table=i + 1,
                black=black,
                white=white,
                komi=KOMI,
                rules=RULES,
                sgf=text,
                state="submitted",
                result_winner=counted.winner.letter if counted.winner else "",
                result_margin=counted.margin,
                result_reason=counted.reason.value,
            )
        )
    Game.objects.bulk_create(games, batch_size=500)
    return tournament


def _engine_alone(texts: list[str]) -> float:
    """The worker's engine work: replay, then count and compare with the claim, which
    (no dead stones given or marked) includes a dead-stone estimate."""
    from games.engine.record import parse_record
    from games.engine.replay import replay
    from games.engine.rules import get_rules
    from games.engine.scoring import score
    from games.engine.verdict import check_claim

    claims = []
    for text in texts:
        played = replay(parse_record(text), get_rules(RULES), strict=False)
        claims.append(score(played, komi=KOMI).result)
    started = time.perf_counter()
    for text, claim in zip(texts, claims, strict=True):
        played = replay(parse_record(text), get_rules(RULES), strict=False)
        check_claim(played, claim, komi=KOMI)
    return time.perf_counter() - started


def _start_workers(n: int, env: dict[str, str], log_dir: Path) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(n):
        log = (log_dir / f"bench-worker-{i}.log").open("wb")
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--loglevel=WARNING",
                    "--concurrency=1",
                    "--without-mingle",
                    "--without-gossip",
                    f"--hostname=bench-{i}-{os.getpid()}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
    return procs


def _wait_for_workers(n: int, timeout: float = 60.0) -> None:
    from ops.models import WorkerHeartbeat

    deadline = time.monotonic() + timeout
    while WorkerHeartbeat.objects.filter(hostname__startswith="bench-").count() < n:
        if time.monotonic() > deadline:
            raise SystemExit("the bench workers did not start (see var/bench-worker-*.log)")
        time.sleep(0.2)
    time.sleep(1.0)  # let them reach their consumers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--chunk-size", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="goref_bench")
    args = parser.parse_args()

    db_url, admin_url = _database_urls(args.database)
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4")
    recreate_database(db_url, admin_url)
    os.environ.update(DATABASE_URL=db_url, REDIS_URL=redis_url)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(redis_url).delete("celery", "unacked", "unacked_index")

    print(f"making {args.games} random 19x19 games of 250 moves ...", flush=True)
    records = _make_records(args.games)
    tournament = _store(records)
    from games.models import Game

    texts = list(Game.objects.order_by("pk").values_list("sgf", flat=True))
    _engine_alone(texts[:10])  # warm up
    engine_s = _engine_alone(texts)

    log_dir = ROOT / "var"
    log_dir.mkdir(exist_ok=True)
    workers = _start_workers(args.workers, dict(os.environ), log_dir)
    try:
        _wait_for_workers(args.workers)
        from games.services.scoring import tournament_rescore
        from ops.models import Job

        started = time.perf_counter()
        job = tournament_rescore(actor=None, tournament=tournament, chunk_size=args.chunk_size)
        queued_s = time.perf_counter() - started
        while job.state != "done":
            time.sleep(0.05)
            job = Job.objects.get(pk=job.pk)
            if time.perf_counter() - started > 600:
                raise SystemExit(f"pipeline not done after 600 s: {job.done}/{job.total}")
        pipeline_s = time.perf_counter() - started
    finally:
        for proc in workers:
            proc.terminate()
        for proc in workers:
            proc.wait(timeout=30)

    from django.db.models import Max, Min

    from games.models import ScoringRun

    verified = ScoringRun.objects.filter(state="done", matches=True).count()
    span = ScoringRun.objects.aggregate(first=Min("started_at"), last=Max("finished_at"))
    workers_s = (span["last"] - span["first"]).total_seconds()
    n = len(texts)
    engine_rate, pipeline_rate = n / engine_s, n / pipeline_s
    print(f"games:                 {n} (19x19, 250 moves, {RULES} rules)")
    print(f"engine alone, 1 proc:  {engine_rate:8.1f} games/s  ({engine_s:.2f} s)")
    print(
        f"pipeline, {args.workers} workers:   {pipeline_rate:8.1f} games/s  ({pipeline_s:.2f} s, "
        f"chunks of {args.chunk_size}, {verified} verified; {queued_s:.2f} s to create and "
        "queue the runs)"
    )
    print(
        f"  of which workers:    {n / workers_s:8.0f} games/s  ({workers_s:.2f} s from the first "
        f"claim to the last store; ratio {n / workers_s / engine_rate:.2f})"
    )
    print(f"ratio pipeline/engine: {pipeline_rate / engine_rate:8.2f}  (target >= 0.7)")


if __name__ == "__main__":
    main()
