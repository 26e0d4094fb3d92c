"""The results-file readers (``.tou``, AGA, ``.h9``) beside goref's own OpenGotha XML
reader, per game, on the same events (not a test).

Run: ``.venv/bin/python -m bench.results_files`` (``--players 760 --rounds 10``).

Each event is written by goref's exporters (``ffg.write_tou``, ``aga.write_aga``,
``egf.write_h9``, ``opengotha.write``) and each file read back by its reader
(``ffg.read_tou``, ``aga.read_aga``, ``egf.h9_event(egf.read_h9(...))``,
``opengotha.read``) as many times as fit in a second; it prints microseconds per game of
each reader and its ratio to the XML reader's, the peer measured in the same run, on the
same event.  The events: the real OpenGotha files of ``tests/data/opengotha`` with the
most games, and an EGC-size event from ``bench.tournament_import.generate``.  Pure Python,
no database.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from bench.tournament_import import generate
from games.tournament.engine.formats import aga, egf, ffg, opengotha
from games.tournament.engine.model import Event

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "opengotha"
REAL = ["congreso-2020.xml", "canadian-open-2020.xml", "juvisy-2019.xml"]


def _best(read: Callable[[bytes], object], data: bytes, budget: float) -> float:
    """The fastest of repeated reads within ``budget`` seconds (at least three)."""
    best = float("inf")
    spent = 0.0
    runs = 0
    while runs < 3 or spent < budget:
        start = time.perf_counter()
        read(data)
        took = time.perf_counter() - start
        best = min(best, took)
        spent += took
        runs += 1
    return best


def _row(label: str, event: Event, budget: float) -> None:
    games = max(1, len(event.games))
    files = {
        "xml (peer)": (opengotha.write(event), opengotha.read),
        ".tou": (ffg.write_tou(event), ffg.read_tou),
        "AGA": (aga.write_aga(event), aga.read_aga),
        ".h9": (egf.write_h9(event), lambda d: egf.h9_event(egf.read_h9(d))),
    }
    times = {name: _best(read, data, budget) for name, (data, read) in files.items()}
    peer = times["xml (peer)"]
    cells = "  ".join(
        f"{name} {t / games * 1e6:6.1f} µs/game ({t / peer:4.2f}×)" for name, t in times.items()
    )
    print(f"{label:<24} {len(event.entrants):>4} players {games:>5} games  {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=760)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per reader")
    args = parser.parse_args()
    for name in REAL:
        _row(name, opengotha.read((DATA / name).read_bytes()), args.budget)
    big = opengotha.read(generate(args.players, args.rounds))
    _row(f"generated {args.players}x{args.rounds}", big, args.budget)


if __name__ == "__main__":
    main()
