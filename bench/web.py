"""Web benchmark (not a test): the public reads against a bare Django view, under gunicorn.

Run: ``.venv/bin/python -m bench.web`` (``--seconds S`` per measurement,
``--rounds N``, ``--port P``).

Creates its own PostgreSQL database (``BENCH_DATABASE_URL``, default
postgres://postgres@127.0.0.1:5432/goref_bench_web, dropped and migrated
afresh), seeds a rated tournament (its last round still to play) and rates it, collects
the static files, and starts gunicorn on loopback and a Celery worker, as ``make serve`` does, with the
production settings (``DEBUG=0``, ``config/gunicorn.py``, the cache and broker
on ``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/5; the HTTPS redirect
off, since nothing terminates TLS on loopback).  The event has ``--players``
players (760 by default, the EGC 2011's size) over 10 rounds.  Then, at 10 and 50
connections, every request asking for gzip as browsers do, it measures in
alternation, ``--rounds`` times each:

* the peer: a bare JSON view (``/bench/bare/``, on only with ``GOREF_BENCH_VIEWS``);
* the player rating lookup ``/api/v1/players/<id>/``;
* the handicap lookup ``/api/v1/handicap/?black=..&white=..``;
* the player page ``/players/<id>/`` (rating, chart, games);
* the tournament page ``/tournaments/<id>/`` (the standings and every round's games);
* the tournament page for a signed-in player (his session cookie: his own header around
  the cached fragment, which is spliced in compressed as it was cached);
* the standings page ``/tournaments/<id>/standings/``;
* the tournament page again while the director enters a result every second (through the
  results page's service, from this process): each result makes every cached copy of the
  event's pages miss, and the worker rebuilds them while gunicorn serves the last copy.

wrk's percentiles are corrected for coordinated omission (its ``stats_correct``): a
request that took n times its connection's mean interval also counts the requests it
held back, at n-1, n-2, ... intervals.  One 300 ms stall per connection each second thus
weighs some 60 slow requests, which puts p99 over 100 ms although few requests were
slow: it is what a user who arrived during the stall would have waited.

The load comes from ``wrk`` (keep-alive connections) when it is installed,
else from a Python client (threads, ``http.client`` keep-alive), which is
slower than the server on a small machine and then flattens the ratios.
Prints requests/s, p50 and p99 of each beside the peer's own p50 and p99 in the same
run, and its ratio to the peer (targets: lookups >= 0.5, player page >= 0.3,
tournament and standings pages >= 0.2; p99 < 100 ms at 10 connections, which the
machine can only show when the peer's own p99 is well under it), the size of each
answer plain and gzipped, then the cost of each read with the cache empty, and of the
signed-in tournament page with its fragment cached, in-process.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.database import database_urls, fresh_database

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The tournament page read with a player's session cookie.
SIGNED_IN = "tournament, in"
SECRET = "bench-" + "x1y2z3w4v5u6t7s8r9q0p" * 3
TARGETS = {
    "lookup": 0.5,
    "handicap": 0.5,
    "player page": 0.3,
    "tournament": 0.2,
    "standings": 0.2,
    "tournament+1w/s": 0.2,
    SIGNED_IN: 0.2,
}
ROUNDS = 10
# The read measured while a result is entered every second.
WRITING = "tournament+1w/s"


@dataclass
class Figure:
    rps: float
    p50_ms: float
    p99_ms: float


def _seed(players_count: int) -> tuple[dict[str, str], int]:
    """One rated tournament of final games, rated; the URLs to measure and its id."""
    import datetime as dt
    from decimal import Decimal

    from games.models import Club, Game, Player, Round, Tournament, TournamentEntry
    from ratings.recompute import recompute

    club = Club.objects.create(name="Bench Go Club", country="NZ")
    players = Player.objects.bulk_create(
        [
            Player(
                family_name=f"Family{i:02d}",
                given_name=f"Given{i:02d}",
                club=club,
                country="NZ",
                declared_rank=-15 + (i % 20),
            )
            for i in range(players_count)
        ]
    )
    tournament = Tournament.objects.create(
        name="Bench Open",
        start_date=dt.date(2026, 3, 7),
        end_date=dt.date(2026, 3, 8),
        rules="japanese",
        komi=Decimal("6.5"),
        rated=True,
    )
    games = []
    for number in range(1, ROUNDS + 1):
        rnd = Round.objects.create(tournament=tournament, number=number)
        shift = number % players_count
        order = players[shift:] + players[:shift]
        for table in range(players_count // 2):
            black, white = order[table], order[players_count - 1 - table]
            games.append(
                Game(
                    tournament=tournament,
                    round=rnd,
                    table=table + 1,
                    black=black,
                    white=white,
                    komi=Decimal("6.5"),
                    rules="japanese",
                    **(
                        {}  # the last round is played during the bench (_writing)
                        if number == ROUNDS
                        else {
                            "state": "final",
                            "locked_at": dt.datetime(2026, 3, 8, tzinfo=dt.UTC),
                            "result_winner": "B" if (table + number) % 3 else "W",
                            "result_reason": "resignation",
                        }
                    ),
                )
            )
    Game.objects.bulk_create(games)
    TournamentEntry.objects.bulk_create(
        TournamentEntry(
            tournament=tournament,
            player=p,
            family_name=p.family_name,
            given_name=p.given_name,
            rank=p.declared_rank,
            club=club.name,
            country="NZ",
        )
        for p in players
    )
    recompute()
    from django.contrib.auth import get_user_model

    players[0].user = get_user_model().objects.create_user("bench-player", password=SECRET)
    players[0].save(update_fields=["user"])
    tournament.directors.add(get_user_model().objects.create_user("bench-director"))
    a, b = players[0].pk, players[1].pk
    urls = {
        "bare view": "/bench/bare/",
        "lookup": f"/api/v1/players/{a}/",
        "handicap": f"/api/v1/handicap/?black={a}&white={b}",
        "player page": f"/players/{a}/",
        "tournament": f"/tournaments/{tournament.pk}/",
        SIGNED_IN: f"/tournaments/{tournament.pk}/",
        "standings": f"/tournaments/{tournament.pk}/standings/",
        WRITING: f"/tournaments/{tournament.pk}/",
    }
    return urls, tournament.pk


def _get(
    port: int, path: str, timeout: float = 10.0, gzip: bool = False, cookie: str = ""
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Host": "127.0.0.1"}
    if gzip:
        headers["Accept-Encoding"] = "gzip"
    if cookie:
        headers["Cookie"] = cookie
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _wait_up(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited:\n{log.read_text()[-3000:]}")
        try:
            if _get(port, "/bench/bare/", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer in 60 s:\n{log.read_text()[-3000:]}")


# --------------------------------------------------------------------------- load


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _wrk(port: int, path: str, connections: int, seconds: float, cookie: str = "") -> Figure:
    threads = min(2, connections)
    extra = ["-H", f"Cookie: {cookie}"] if cookie else []
    done = subprocess.run(
        [
            "wrk",
            f"-t{threads}",
            f"-c{connections}",
            f"-d{max(1, round(seconds))}s",
            "--timeout",
            "5s",
            "--latency",
            "-H",
            "Host: 127.0.0.1",
            "-H",
            "Accept-Encoding: gzip",
            *extra,
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 30,
        check=True,
    )
    out = done.stdout
    if "Non-2xx" in out:
        raise SystemExit(f"{path} answered errors under load:\n{out}")

    def latency(pct: str) -> float:
        found = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not found:
            raise SystemExit(f"no {pct}% latency in wrk's output:\n{out}")
        return float(found.group(1)) * _UNITS[found.group(2)]

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not rps:
        raise SystemExit(f"no Requests/sec in wrk's output:\n{out}")
    return Figure(float(rps.group(1)), latency("50"), latency("99"))


def _python_load(
    port: int, path: str, connections: int, seconds: float, cookie: str = ""
) -> Figure:
    """Threads, each with one keep-alive connection, for ``seconds``."""
    headers = {"Host": "127.0.0.1", "Accept-Encoding": "gzip"}
    if cookie:
        headers["Cookie"] = cookie
    stop_at = time.monotonic() + seconds
    samples: list[list[float]] = [[] for _ in range(connections)]
    errors: list[str] = []

    def client(mine: list[float]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(1_000_000):  # bounded; the clock ends it first
            if time.monotonic() >= stop_at:
                break
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as exc:
                errors.append(repr(exc))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                continue
            if response.status != 200:
                errors.append(f"status {response.status}")
            mine.append(1000 * (time.perf_counter() - started))
        conn.close()

    threads = [threading.Thread(target=client, args=(s,), daemon=True) for s in samples]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 30)
    elapsed = time.monotonic() - started
    if errors:
        raise SystemExit(f"{path}: {len(errors)} errors under load, e.g. {errors[:3]}")
    latencies = sorted(x for s in samples for x in s)
    if not latencies:
        raise SystemExit(f"{path}: no request completed")
    return Figure(
        len(latencies) / elapsed,
        latencies[len(latencies) // 2],
        latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
    )


@contextlib.contextmanager
def _writing(event: int, on: bool, entered: list[int]) -> Iterator[None]:
    """While on: one result of the last round entered every second by the event's director,
    through the service the results page calls (the worker then rebuilds the event's pages,
    as under ``make serve``); the ids of the games go to ``entered``."""
    if not on:
        yield
        return
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games.models import Game
    from games.services import game_result_enter

    director = get_user_model().objects.get(username="bench-director")
    stop = threading.Event()

    def enter() -> None:
        try:
            while not stop.wait(1.0):
                game = (
                    Game.objects.filter(tournament_id=event, round__number=ROUNDS, result_winner="")
                    .select_related("tournament", "round", "black", "white")
                    .order_by("table")
                    .first()
                )
                if game is None:
                    return
                game_result_enter(actor=director, game=game, result="B+R")
                entered.append(game.pk)
        finally:
            connection.close()

    writer = threading.Thread(target=enter, daemon=True)
    writer.start()
    try:
        yield
    finally:
        stop.set()
        writer.join()


# --------------------------------------------------------------------------- the miss


def _cold_costs(urls: dict[str, str], repeat: int = 7) -> dict[str, float]:
    """Median milliseconds per read with the cache emptied first, in this process."""
    from django.core.cache import caches
    from django.test import Client

    from ops.pages import cache as versioned

    client = Client(HTTP_HOST="127.0.0.1")
    costs: dict[str, float] = {}
    for name, path in urls.items():
        times = []
        for _ in range(repeat):
            for alias in ("default", "versioned"):  # Redis, and this process's copies
                caches[alias].clear()
            versioned.forget_versions()
            started = time.perf_counter()
            status = client.get(path).status_code
            times.append(1000 * (time.perf_counter() - started))
            assert status == 200, (path, status)
        costs[name] = statistics.median(times)
    return costs


def _session_cookie() -> str:
    """The bench player's session, as his browser would send it."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="bench-player"))
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _signed_in_costs(path: str, repeat: int = 21) -> tuple[float, float, float]:
    """Milliseconds per signed-in gzipped request with the fragment cached (median), the
    gzip of the whole page as the middleware would do it, and the page's size in KB."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils.text import compress_string

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(get_user_model().objects.get(username="bench-player"))
    plain = client.get(path).content
    times, packing = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
        times.append(1000 * (time.perf_counter() - started))
        assert response.status_code == 200, (path, response.status_code)
        started = time.perf_counter()
        compress_string(plain, max_random_bytes=100)
        packing.append(1000 * (time.perf_counter() - started))
    return statistics.median(times), statistics.median(packing), len(plain) / 1024


def _summary(figures: list[Figure]) -> Figure:
    """The rounds of one read: mean requests/s, median p50, the worse round's p99."""
    return Figure(
        statistics.mean(f.rps for f in figures),
        statistics.median(f.p50_ms for f in figures),
        max(f.p99_ms for f in figures),
    )


# --------------------------------------------------------------------------- main


def _arguments() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=2, help="alternations per level")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_PORT", "8765")))
    parser.add_argument("--connections", default="10,50")
    parser.add_argument("--players", type=int, default=760, help="players in the event")
    parser.add_argument(
        "--reads", default="", help="only these reads, comma-separated (the bare view always)"
    )
    return parser.parse_args()


def _environment(port: int) -> tuple[Path, dict[str, str]]:
    """The production settings on loopback, in this process too, a fresh database and an
    empty cache; returns the scratch directory and the servers' environment."""
    url, admin_url = database_urls("postgres://postgres@127.0.0.1:5432/goref_bench_web")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
    work = Path(tempfile.mkdtemp(prefix="goref-bench-web-"))
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "STATIC_ROOT": str(work / "static"),
        "GOREF_VAR_DIR": str(work / "var"),
        "GOREF_BENCH_VIEWS": "1",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", str(os.cpu_count() or 2)),
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    os.environ.update(env)
    fresh_database(url, admin_url, env, ["collectstatic", "--noinput", "-v0"])
    import redis

    redis.Redis.from_url(redis_url).flushdb()  # the cache: nothing from an earlier run
    return work, env


def _event(
    args: argparse.Namespace, env: dict[str, str]
) -> tuple[dict[str, str], int, dict[str, str]]:
    """The seeded event: the reads asked for, its id and each read's cookie."""
    urls, event = _seed(args.players)
    if args.reads:
        wanted = {"bare view", *args.reads.split(",")}
        if unknown := wanted - urls.keys():
            raise SystemExit(f"no such reads: {', '.join(sorted(unknown))} (of {', '.join(urls)})")
        urls = {name: path for name, path in urls.items() if name in wanted}
    cookies = {SIGNED_IN: _session_cookie()}
    print(
        f"seeded {args.players} players, {args.players // 2 * ROUNDS} games; gunicorn with "
        f"{env['WEB_CONCURRENCY']} workers x {os.environ.get('WEB_THREADS', '4')} threads "
        f"on 127.0.0.1:{args.port}"
    )
    return urls, event, cookies


def _start(
    env: dict[str, str], work: Path
) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]:
    """gunicorn and a Celery worker, logging into ``work``."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    celery = str(Path(sys.executable).with_name("celery"))
    with (work / "gunicorn.log").open("wb") as out, (work / "worker.log").open("wb") as worker_out:
        proc = subprocess.Popen(
            [gunicorn, "-c", "config/gunicorn.py", "config.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        # As `make serve` runs it: it rebuilds the event's pages after each result.
        worker = subprocess.Popen(
            [
                celery,
                "-A",
                "config",
                "worker",
                "--loglevel=WARNING",
                "-n",
                f"bench-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=worker_out,
            stderr=subprocess.STDOUT,
        )
    return proc, worker


def _stop(processes: tuple[subprocess.Popen[bytes], ...]) -> None:
    """Terminate them all, then wait for each; kill one that outlasts 20 s."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _warm(port: int, urls: dict[str, str], cookies: dict[str, str]) -> dict[str, tuple[int, int]]:
    """Every read answers 200 and its caches are warm; returns each answer's size, plain
    and gzipped."""
    sizes = {}
    for name, path in urls.items():
        mine = cookies.get(name, "")
        for _ in range(3):
            status, body = _get(port, path, cookie=mine)
            if status != 200:
                raise SystemExit(f"{path} answered {status}: {body[:300]!r}")
        sizes[name] = (len(body), len(_get(port, path, gzip=True, cookie=mine)[1]))
    if (
        SIGNED_IN in urls
        and b"Log out" not in _get(port, urls[SIGNED_IN], cookie=cookies[SIGNED_IN])[1]
    ):
        raise SystemExit("the session cookie did not sign the player in")
    return sizes


def _measure(
    args: argparse.Namespace,
    levels: list[int],
    urls: dict[str, str],
    cookies: dict[str, str],
    event: int,
) -> tuple[dict[int, dict[str, list[Figure]]], list[int]]:
    """Each read under load, alternated ``--rounds`` times per level; the figures, and the
    games whose results were entered meanwhile."""
    load = _wrk if shutil.which("wrk") else _python_load
    print(
        f"load: {'wrk' if load is _wrk else 'Python threads (client-bound)'}, "
        f"{args.seconds:g} s per measurement, {args.rounds} rounds alternated"
    )
    entered: list[int] = []
    results: dict[int, dict[str, list[Figure]]] = {}
    for connections in levels:
        results[connections] = {name: [] for name in urls}
        for _ in range(args.rounds):
            for name, path in urls.items():
                with _writing(event, name == WRITING, entered):
                    figure = load(args.port, path, connections, args.seconds, cookies.get(name, ""))
                results[connections][name].append(figure)
    return results, entered


def _print_rates(
    levels: list[int], results: dict[int, dict[str, list[Figure]]], entered: list[int]
) -> None:
    """Per level, each read's figures beside the bare view's and against its target."""
    for connections in levels:
        print(f"\n{connections} connections")
        print(
            f"{'read':<16}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
            f"{'bare p50':>10}{'bare p99':>10}{'ratio':>8}  target"
        )
        bare = _summary(results[connections]["bare view"])
        for name, figures in results[connections].items():
            read = _summary(figures)
            target = TARGETS.get(name)
            ratio = read.rps / bare.rps
            verdict = ""
            if target is not None:
                verdict = f">= {target}  {'ok' if ratio >= target else 'MISSED'}"
            if connections == 10 and read.p99_ms >= 100:
                verdict += "  p99 >= 100 ms: MISSED"
            print(
                f"{name:<16}{read.rps:>9.0f}{read.p50_ms:>9.1f}{read.p99_ms:>9.1f}"
                f"{bare.p50_ms:>10.1f}{bare.p99_ms:>10.1f}{ratio:>8.2f}  {verdict}"
            )
    print(
        f"\n{WRITING}: {len(entered)} results entered during its measurements, one a second, "
        "each followed by the worker's rebuild of the tournament page and standings"
    )


def _print_costs(urls: dict[str, str], sizes: dict[str, tuple[int, int]]) -> None:
    """The answers' sizes, then the in-process costs: each read with the cache empty, and
    the signed-in tournament page with its fragment cached."""
    print("\nanswer sizes, plain and gzipped (as sent to a browser):")
    for name, (plain, packed) in sizes.items():
        print(f"  {name:<16}{plain / 1024:>9.1f} KB{packed / 1024:>9.1f} KB")
    print("\nwith the cache emptied before each read (in-process, median of 7):")
    for name, ms in _cold_costs(
        {k: v for k, v in urls.items() if k not in ("bare view", WRITING, SIGNED_IN)}
    ).items():
        print(f"  {name:<16}{ms:>8.1f} ms")
    if SIGNED_IN not in urls:
        return
    whole, gzip_ms, plain_kb = _signed_in_costs(urls[SIGNED_IN])
    print(
        f"\nsigned-in tournament page ({plain_kb:.0f} KB), fragment cached, in-process, "
        f"median of 21: {whole:.1f} ms per gzipped request; gzip of the whole page, as "
        f"GZipMiddleware did per request: {gzip_ms:.1f} ms"
    )


def main() -> None:
    """Seed the event, start the servers, measure every read at each level, then print."""
    args = _arguments()
    levels = [int(c) for c in args.connections.split(",")]
    work, env = _environment(args.port)
    urls, event, cookies = _event(args, env)
    gunicorn, worker = _start(env, work)
    try:
        _wait_up(args.port, gunicorn, work / "gunicorn.log")
        sizes = _warm(args.port, urls, cookies)
        results, entered = _measure(args, levels, urls, cookies, event)
    finally:
        _stop((gunicorn, worker))
    _print_rates(levels, results, entered)
    _print_costs(urls, sizes)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
