"""Engine benchmark (not a test): goref against sgfmill on the same games, random and real.

Run: ``.venv/bin/python -m bench.engine`` (``--games N`` to change the sample,
``--runs N`` to measure the real records N times and print the median of the runs,
``--real-only`` for the real records alone, with the counting time per real
finished position).
Prints, per kind of real record in tests/data/sgf (public archives: KGS, Fox, OGS,
IGS, Sabaki, ...; plain move lists, records with comments or time stamps, with
variations, with set-up positions), parse+replay+score per record against
sgfmill's reader, set-up and area count (median ratio per record and ratio of
totals); then on random games replay speed, area-scoring time, parse+replay+score
per game, Japanese
against area counting time on the real finished games of tests/data/sgf/marked
(with the players' dead stones), and the peak resident memory after replaying
10,000 games in one process.
"""

from __future__ import annotations

import argparse
import functools
import re
import resource
import statistics
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from sgfmill import boards, sgf, sgf_moves

from games.engine.board import Board
from games.engine.randgame import random_moves
from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import Rules, get_rules
from games.engine.scoring import dead_from_markup, score, score_position
from games.engine.types import Color, GameRecord, Move, Point

SIZE = 19
SGF_DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "sgf"
MARKED = SGF_DATA / "marked"
# Node properties that change nothing a replay reads: comments, names, time left.
_ANNOTATION = re.compile(rb";[^;]*?\b(?:C|N|BL|WL|OB|OW)\[")
_SETUP = re.compile(rb"\bA[BWE]\[")


def random_game(moves: int, seed: int) -> list[Move]:
    """A seeded random legal 19x19 game (situational superko), not filling own eyes."""
    return random_moves(SIZE, moves, seed)


def to_sgf(moves: list[Move]) -> str:
    def pt(m: Move) -> str:
        return "" if m.point is None else chr(97 + m.point[0]) + chr(97 + m.point[1])

    body = "".join(f";{m.color.letter}[{pt(m)}]" for m in moves)
    return f"(;GM[1]FF[4]SZ[{SIZE}]KM[7.5]RU[Chinese]{body})"


def sgfmill_replay(moves: list[Move]) -> boards.Board:
    b = boards.Board(SIZE)
    for m in moves:
        if m.point is not None:
            x, y = m.point
            b.play(SIZE - 1 - y, x, "b" if m.color is Color.BLACK else "w")
    return b


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def kind_of(data: bytes) -> str:
    """Which reading a record needs: set-up stones beat variations beat annotations."""
    if _SETUP.search(data):
        return "set-up"
    if data.count(b"(") > 1 and re.search(rb"\)\s*\(", data):
        return "variations"
    if _ANNOTATION.search(data):
        return "comments/time"
    return "plain"


def sgfmill_full(data: bytes) -> None:
    """sgfmill's whole way through one record: read, set up, play the main line, count."""
    game = sgf.Sgf_game.from_bytes(data)
    board, moves = sgf_moves.get_setup_and_moves(game)
    for colour, move in moves:
        if move is not None:
            # try/except rather than contextlib.suppress: a context manager per move would
            # slow the peer down, not its reading.
            try:  # noqa: SIM105
                board.play(move[0], move[1], colour)
            except ValueError:  # a move on a stone: goref's replay flags it too
                pass
    board.area_score()


def goref_full(data: bytes) -> None:
    """goref's: read, replay checking every rule (superko included), count."""
    record = parse_record(data)
    score(replay(record, get_rules("chinese"), strict=False))


def real_records(runs: int = 1) -> None:
    """Parse+replay+score per real record, by kind, beside sgfmill; with ``runs`` above
    one, each run's figures for all records and their median over the runs."""
    # Read and tried once (this also warms both up), then timed in every run.
    records: list[tuple[str, bytes]] = []
    for path in sorted(SGF_DATA.glob("*/*.sgf")):
        data = path.read_bytes()
        try:
            sgfmill_full(data)
            goref_full(data)
        except ValueError:
            continue  # a record one of the two refuses (a bad encoding, an odd size)
        records.append((kind_of(data), data))
    summary: list[tuple[float, float]] = []
    for run in range(runs):
        by_kind: dict[str, list[tuple[float, float]]] = {}
        for kind, data in records:
            ours = best_of(functools.partial(goref_full, data), repeat=5)
            theirs = best_of(functools.partial(sgfmill_full, data), repeat=5)
            by_kind.setdefault(kind, []).append((ours, theirs))
        every = [t for times in by_kind.values() for t in times]
        for kind, times in [*sorted(by_kind.items()), ("all", every)]:
            ours = sum(o for o, _ in times)
            theirs = sum(t for _, t in times)
            median = statistics.median(t / o for o, t in times)
            if kind == "all":
                summary.append((median, theirs / ours))
            elif runs > 1:
                continue
            print(
                f"real records{f' (run {run + 1})' if runs > 1 else ''}, {kind} x{len(times)}: "
                f"parse+replay+score goref {1e3 * ours / len(times):.3f} ms, sgfmill "
                f"{1e3 * theirs / len(times):.3f} ms per record; ratio median {median:.2f}x, "
                f"of totals {theirs / ours:.2f}x"
            )
    if runs > 1:
        medians = sorted(m for m, _ in summary)
        totals = sorted(t for _, t in summary)
        print(
            f"real records, all, {runs} runs: ratio median per record "
            f"{statistics.median(medians):.2f}x (runs {medians[0]:.2f}-{medians[-1]:.2f}x), "
            f"of totals {statistics.median(totals):.2f}x (runs {totals[0]:.2f}-{totals[-1]:.2f}x)"
        )


def real_positions() -> None:
    """Japanese beside area counting, per real 19x19 finished position."""
    japanese, chinese = get_rules("japanese"), get_rules("chinese")
    positions = []
    for path in sorted(MARKED.glob("*.sgf")):
        record = parse_record(path.read_bytes())
        if record.size != SIZE:
            continue
        board = replay(record, chinese, strict=False).board
        dead = dead_from_markup(board, record.territory_black, record.territory_white)
        positions.append((board, dead))

    def count(rules: Rules) -> Callable[[], None]:
        def run() -> None:
            for board, dead in positions:
                score_position(board, rules, dead=dead, komi=Decimal(0))

        return run

    n = len(positions)
    t_area, t_japanese = best_of(count(chinese)), best_of(count(japanese))
    slowest = 0.0
    for board, dead in positions:

        def one(board: Board = board, dead: set[Point] = dead) -> None:
            score_position(board, japanese, dead=dead, komi=Decimal(0))

        slowest = max(slowest, best_of(one))
    print(
        f"real finished 19x19 positions x{n} (players' dead stones): counting per position "
        f"area {1e3 * t_area / n:.3f} ms, japanese {1e3 * t_japanese / n:.3f} ms "
        f"(slowest japanese {1e3 * slowest:.3f} ms)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--memory-games", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=1, help="runs over the real records")
    ap.add_argument("--real-only", action="store_true", help="the real records only")
    args = ap.parse_args()
    situational = get_rules("nz")  # situational superko, suicide legal
    chinese = get_rules("chinese")
    real_records(args.runs)
    if args.real_only:
        real_positions()
        return

    for length in (250, 500):
        games = [random_game(length, 1000 * length + s) for s in range(args.games)]
        records = [GameRecord(size=SIZE, actions=tuple(g)) for g in games]
        nmoves = sum(len(g) for g in games)

        def ours(records: list[GameRecord] = records) -> None:
            for r in records:
                replay(r, situational)

        def theirs(games: list[list[Move]] = games) -> None:
            for g in games:
                sgfmill_replay(g)

        t_ours, t_theirs = best_of(ours), best_of(theirs)
        print(
            f"{length}-move games x{args.games}: replay goref {nmoves / t_ours:,.0f} moves/s "
            f"(situational superko), sgfmill {nmoves / t_theirs:,.0f} moves/s, "
            f"ratio {t_theirs / t_ours:.2f}x"
        )

        finals = [replay(r, situational).board for r in records]
        sfinals = [sgfmill_replay(g) for g in games]

        def score_ours(finals: list[Board] = finals) -> None:
            for b in finals:
                score_position(b, chinese, komi=Decimal(0))

        def score_theirs(sfinals: list[boards.Board] = sfinals) -> None:
            for b in sfinals:
                b.area_score()

        s_ours, s_theirs = best_of(score_ours), best_of(score_theirs)
        n = len(finals)
        print(
            f"  area scoring per position: goref {1e6 * s_ours / n:.0f} us, "
            f"sgfmill {1e6 * s_theirs / n:.0f} us, ratio {s_theirs / s_ours:.2f}x"
        )

        texts = [to_sgf(g) for g in games]
        blobs = [t.encode() for t in texts]

        def full_ours(texts: list[str] = texts) -> None:
            for t in texts:
                score(replay(parse_record(t), chinese))

        def full_theirs(blobs: list[bytes] = blobs) -> None:
            for data in blobs:
                game = sgf.Sgf_game.from_bytes(data)
                b = boards.Board(game.get_size())
                for node in game.get_main_sequence():
                    colour, move = node.get_move()
                    if colour is not None and move is not None:
                        b.play(move[0], move[1], colour)
                b.area_score()

        f_ours, f_theirs = best_of(full_ours), best_of(full_theirs)
        print(
            f"  parse+replay+score per game: goref {1e3 * f_ours / n:.3f} ms, "
            f"sgfmill {1e3 * f_theirs / n:.3f} ms, ratio {f_theirs / f_ours:.2f}x"
        )

    real_positions()

    pool = [GameRecord(size=SIZE, actions=tuple(random_game(250, 7 + s))) for s in range(100)]
    t = time.perf_counter()
    results = []
    for k in range(args.memory_games):
        results.append(score(replay(pool[k % len(pool)], chinese)).result)
    dt = time.perf_counter() - t
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"{args.memory_games:,} games replayed and scored in {dt:.1f} s; "
        f"peak RSS {peak_kb / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()
