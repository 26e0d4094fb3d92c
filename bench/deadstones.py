"""Dead-stone estimation benchmark (not a test): goref against GNU Go 3.8 on the same games.

Run: ``.venv/bin/python -m bench.deadstones`` (``--gnugo PATH``, ``--level N``, ``--limit N``,
``--dir FOLDER``).  The games are the real, player-marked ones in tests/data/sgf/marked/, or
every ``*.sgf`` in ``--dir`` (a larger set of marked games kept outside the repository).  For each final
position it times goref's ``estimate_dead`` and GNU Go's ``final_status_list dead`` (GTP,
after ``loadsgf``), and checks both against the players' marks: the stones inside the
opponent's marked territory.  Without GNU Go it says so and prints goref's figures only.
Prints p50, p99 (nearest rank) and the worst time per board size, goref's beside GNU Go's;
``--unbounded`` also estimates each position without the move budget (``MOVE_BUDGET``) and
counts the dead sets that differ.
"""

from __future__ import annotations

import argparse
import math
import shutil
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from games.engine.coords import gtp_to_point
from games.engine.deadstones import estimate_dead
from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.engine.scoring import dead_from_markup
from games.engine.types import Point

MARKED = Path(__file__).resolve().parents[1] / "tests" / "data" / "sgf" / "marked"
RULES = get_rules("japanese")


class Gtp:
    """A GNU Go process spoken to over GTP."""

    def __init__(self, path: str, level: int) -> None:
        self.proc = subprocess.Popen(
            [path, "--mode", "gtp", "--level", str(level)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, command: str) -> str:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"GNU Go stopped after {command!r}")
            if line.strip() == "" and lines:
                break
            lines.append(line.strip())
        reply = " ".join(lines)
        if reply.startswith("?"):
            raise RuntimeError(f"GNU Go refused {command!r}: {reply}")
        return reply.lstrip("= ").strip()

    def dead(self, path: Path, size: int) -> set[Point]:
        self.send(f"loadsgf {path}")
        reply = self.send("final_status_list dead")
        return {gtp_to_point(v, size) for v in reply.split() if v}

    def close(self) -> None:
        try:
            self.send("quit")
        finally:
            self.proc.wait(timeout=10)


@dataclass(frozen=True)
class Spread:
    """Seconds: the median, the 99th percentile (nearest rank) and the worst."""

    p50: float
    p99: float
    worst: float

    def __str__(self) -> str:
        return (
            f"p50 {self.p50 * 1000:.0f} ms, p99 {self.p99 * 1000:.0f} ms, "
            f"worst {self.worst * 1000:.0f} ms"
        )


def _spread(seconds: list[float]) -> Spread:
    ordered = sorted(seconds)
    p99 = ordered[math.ceil(0.99 * len(ordered)) - 1]
    return Spread(statistics.median(ordered), p99, ordered[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnugo", default=shutil.which("gnugo") or "/usr/games/gnugo")
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--limit", type=int, default=0, help="only the first N games")
    parser.add_argument("--dir", type=Path, default=MARKED, help="a folder of marked games")
    parser.add_argument("--unbounded", action="store_true", help="compare with no move budget")
    args = parser.parse_args()
    files = sorted(args.dir.glob("*.sgf"))
    if args.limit:
        files = files[: args.limit]
    gnugo: Gtp | None = None
    if Path(args.gnugo).exists():
        gnugo = Gtp(args.gnugo, args.level)
        version = gnugo.send("version")
        print(f"GNU Go {version}, level {args.level}: {args.gnugo}")
    else:
        print(f"GNU Go not found ({args.gnugo}): goref's figures only")
    times: dict[int, list[tuple[float, float | None]]] = {}
    right = {"goref": 0, "gnugo": 0}
    changed: list[str] = []
    print(f"{'game':44} {'size':>4} {'goref ms':>9} {'gnugo ms':>9} {'ratio':>6}  exact")
    for path in files:
        record = parse_record(path.read_bytes())
        board = replay(record, RULES, strict=False).board
        expected = dead_from_markup(board, record.territory_black, record.territory_white)
        t = time.perf_counter()
        ours = estimate_dead(board, RULES).dead
        ours_s = time.perf_counter() - t
        if args.unbounded and estimate_dead(board, RULES, move_budget=10**9).dead != ours:
            changed.append(path.name)
        theirs_s: float | None = None
        mark = "goref " if ours == expected else "      "
        right["goref"] += ours == expected
        if gnugo is not None:
            t = time.perf_counter()
            theirs = gnugo.dead(path, record.size)
            theirs_s = time.perf_counter() - t
            right["gnugo"] += theirs == expected
            mark += "gnugo" if theirs == expected else ""
        times.setdefault(record.size, []).append((ours_s, theirs_s))
        ratio = f"{theirs_s / ours_s:6.1f}" if theirs_s else "     -"
        gms = f"{theirs_s * 1000:9.0f}" if theirs_s is not None else "        -"
        print(f"{path.name:44} {record.size:>4} {ours_s * 1000:9.0f} {gms} {ratio}  {mark}")
    if gnugo is not None:
        gnugo.close()
    print()
    for size, rows in sorted(times.items()):
        goref_spread = _spread([r[0] for r in rows])
        line = f"{size}x{size}: {len(rows)} games, goref {goref_spread}"
        if gnugo is not None:
            gnugo_spread = _spread([r[1] or 0.0 for r in rows])
            faster = gnugo_spread.p50 / goref_spread.p50
            line += f"; GNU Go {gnugo_spread}; goref {faster:.1f}x faster at p50"
        print(line)
    n = len(files)
    print(
        f"exact dead set: goref {right['goref']} of {n} ({100 * right['goref'] / n:.1f}%)", end=""
    )
    if gnugo is not None:
        print(f", GNU Go {right['gnugo']} of {n} ({100 * right['gnugo'] / n:.1f}%)")
    else:
        print()
    if args.unbounded:
        print(
            f"without the move budget: {len(changed)} dead sets differ"
            + (f" ({', '.join(changed)})" if changed else "")
        )


if __name__ == "__main__":
    main()
