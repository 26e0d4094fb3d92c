"""Benchmark: EGF GoR 2021 over a synthetic history (the pure algorithm's throughput).

    .venv/bin/python bench/ratings.py            # 20,000 players, 1,000,000 games, 50,000 events
    .venv/bin/python bench/ratings.py --quick    # a tenth of that
    .venv/bin/python bench/ratings.py --database --repeat 1 --reference-events 0

What it generates, measures and checks, and the targets: docs/ratings.md §11.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.systems.base import GameOutcome
from ratings.systems.egf import GameTuple, rate_event_textbook, rate_history

TARGET = 200_000  # games/s
ROUNDS = 5
HANDICAP_SHARE = 0.1
JIGO_SHARE = 0.01


def generate(
    players: int, games: int, tournaments: int, seed: int
) -> tuple[list[float], list[list[GameTuple]]]:
    """A deterministic synthetic history: starting GoR by player and the events in order."""
    rng = random.Random(seed)
    # Hidden strength in GoR, roughly the EGD's spread (mostly kyu players).
    strength = [min(2900.0, max(-850.0, rng.gauss(1500.0, 550.0))) for _ in range(players)]
    # Declared grade: the hidden strength give or take a grade, at its nominal GoR.
    start = [
        float(min(2800, max(-900, 100 * math.floor((s + rng.gauss(0, 80) - 2050) / 100) + 2100)))
        for s in strength
    ]
    per_event = max(1, round(games / tournaments))
    size = 2 * math.ceil(per_event / ROUNDS)  # players per tournament (8 for 20 games)
    ids = list(range(players))  # shared int objects: the history holds references only
    scores = (0.0, 0.5, 1.0)
    events: list[list[GameTuple]] = []
    made = 0
    for t in range(tournaments):
        want = min(per_event, games - made) if t < tournaments - 1 else games - made
        field = rng.sample(ids, size)
        handicap = rng.random() < HANDICAP_SHARE
        event: list[GameTuple] = []
        while len(event) < want:
            rng.shuffle(field)
            for i in range(0, size, 2):
                if len(event) == want:
                    break
                p, q = field[i], field[i + 1]
                h = 0
                if handicap:
                    h = min(9, abs(round((start[p] - start[q]) / 100)))
                    if h == 1:
                        h = 0
                # Black is the weaker (declared) player in a handicap game.
                b, w = (p, q) if start[p] <= start[q] else (q, p)
                if not h and rng.random() < 0.5:
                    b, w = w, b
                diff = strength[b] + (100.0 * (h - 0.5) if h else 0.0) - strength[w]
                p_black = 1.0 / (1.0 + math.exp(-diff / 150.0))
                u = rng.random()
                if u < JIGO_SHARE:
                    s = scores[1]
                else:
                    s = scores[2] if rng.random() < p_black else scores[0]
                event.append((b, w, s, h))
        events.append(event)
        made += len(event)
    return start, events


def run_fast(
    start: Sequence[float], events: Sequence[Sequence[GameTuple]]
) -> tuple[float, list[float]]:
    ratings = list(start)
    t0 = time.perf_counter()
    rate_history(ratings, events)
    return time.perf_counter() - t0, ratings


def run_reference(
    start: Sequence[float], events: Sequence[Sequence[GameTuple]]
) -> tuple[float, dict[int, float]]:
    """The textbook formula game by game (GameOutcome objects built before the clock starts)."""
    outcomes = [[GameOutcome(b, w, s, h) for b, w, s, h in ev] for ev in events]
    ratings = dict(enumerate(start))
    t0 = time.perf_counter()
    for ev in outcomes:
        ratings.update(rate_event_textbook(ratings, ev))
    return time.perf_counter() - t0, ratings


def bench_database_recompute(
    start: Sequence[float], events: Sequence[Sequence[GameTuple]], url: str
) -> None:
    """The database-backed recompute of the same history (``bench/ratings_db.py``).

    Loads ``start``/``events`` into PostgreSQL (its own database at ``url``)
    and times the Celery job's body in a fresh process.
    """
    from bench.ratings_db import bench

    bench(url, start, events)


def peak_mib() -> float:
    # ru_maxrss is in KiB on Linux, bytes on macOS.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--tournaments", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=2021)
    ap.add_argument(
        "--reference-events",
        type=int,
        default=5_000,
        help="tournaments to run the textbook peer on (default 5,000 = 100,000 games)",
    )
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs of the batch path")
    ap.add_argument("--quick", action="store_true", help="a tenth of the default history")
    ap.add_argument(
        "--database",
        action="store_true",
        help="also load the history into PostgreSQL and time the database recompute",
    )
    ap.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/goref_bench_ratings",
        help="the bench's own database (created and migrated if needed)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.players //= 10
        args.games //= 10
        args.tournaments //= 10
        args.reference_events //= 10

    t0 = time.perf_counter()
    start, events = generate(args.players, args.games, args.tournaments, args.seed)
    n_games = sum(len(e) for e in events)
    print(
        f"history: {args.players:,} players, {n_games:,} games in {len(events):,} tournaments "
        f"(seed {args.seed}, generated in {time.perf_counter() - t0:.1f}s)"
    )

    best = math.inf
    final: list[float] = []
    for _ in range(max(1, args.repeat)):
        took, final = run_fast(start, events)
        best = min(best, took)
    rate = n_games / best
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(
        f"egf2021 rate_history: {best:.3f}s, {rate:,.0f} games/s "
        f"({verdict} the {TARGET:,} games/s target)"
    )
    print(
        f"  final GoR: min {min(final):.1f}, max {max(final):.1f}, "
        f"mean {sum(final) / len(final):.1f}"
    )

    prefix = events[: args.reference_events]
    p_games = sum(len(e) for e in prefix)
    if p_games:
        fast_best = min(run_fast(start, prefix)[0] for _ in range(max(1, args.repeat)))
        fast_prefix = run_fast(start, prefix)[1]
        ref_took, ref = run_reference(start, prefix)
        worst = max(abs(fast_prefix[i] - ref[i]) for i in range(len(start)))
        print(
            f"textbook peer on the first {len(prefix):,} tournaments ({p_games:,} games): "
            f"{p_games / ref_took:,.0f} games/s; batch path on the same: "
            f"{p_games / fast_best:,.0f} games/s; ratio {ref_took / fast_best:.1f}x"
        )
        print(f"  largest difference between the two: {worst:.2e} GoR")
    print(f"peak memory (whole process, history included): {peak_mib():,.0f} MiB")
    if args.database:
        bench_database_recompute(start, events, args.database_url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
