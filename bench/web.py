"""Web benchmark (not a test): goref's public reads against a bare Django project, both
under the same gunicorn settings, measured in alternation.

Run: ``.venv/bin/python -m bench.web`` (``--seconds S`` per measurement,
``--rounds N``, ``--port P``, ``--event FILE`` to import another event than the tests'
largest; the peer listens on P+1).

Creates its own PostgreSQL database (``BENCH_DATABASE_URL``, default
postgres://postgres@127.0.0.1:5432/goref_bench_web, dropped and migrated
afresh), imports a real event (the largest real OpenGotha file in tests/data/opengotha,
through ``manage.py import_tournament``) and rates it, collects the static files, and
starts gunicorn on loopback and Celery workers as ``make serve`` does, with the
production settings (``DEBUG=0``, ``config/gunicorn.py``, the cache and broker
on ``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/5; the HTTPS redirect
off, since nothing terminates TLS on loopback).  Then, at 10 and 50
connections, every request asking for gzip as browsers do, it measures in
alternation, ``--rounds`` times each:

* the peer: a bare Django project (``bench/peer/``: ``startproject``'s settings and
  middleware, one JSON view, no database) under the same gunicorn settings
  (``bench/peer/gunicorn.py``), asked for ``--keys`` different URLs;
* the player rating lookup ``/api/v1/players/<id>/``, over ``--keys`` random players;
* the handicap lookup ``/api/v1/handicap/?black=..&white=..``, over ``--keys`` random pairs;
* the player page ``/players/<id>/`` (rating, chart, games), over random players;
* the tournament page ``/tournaments/<id>/`` (the standings and every round's games);
* the tournament page for a signed-in player (his session cookie: his own header around
  the cached fragment, which is spliced in compressed as it was cached);
* the standings page ``/tournaments/<id>/standings/``;
* the tournament page again while the director enters a result every second over HTTP, as
  his browser does (a click on the last round's results page, session and CSRF token):
  each result makes every cached copy of the event's pages miss, and the worker rebuilds
  them while gunicorn serves the last copy.

wrk's percentiles are corrected for coordinated omission (its ``stats_correct``): a
request that took n times its connection's mean interval also counts the requests it
held back, at n-1, n-2, ... intervals.  One 300 ms stall per connection each second thus
weighs some 60 slow requests, which puts p99 over 100 ms although few requests were
slow: it is what a user who arrived during the stall would have waited.

The load comes from ``wrk`` (keep-alive connections, a Lua script picking a random URL
per request) when it is installed, else from a Python client (threads, ``http.client``
keep-alive), which is slower than the server on a small machine and then flattens the
ratios.  Prints requests/s, p50 and p99 of each beside the peer's own p50 and p99 in the
same run, and its ratio to the peer (targets: lookups >= 0.5, player page >= 0.3,
tournament and standings pages >= 0.2; p99 < 100 ms at 10 connections, which the
machine can only show when the peer's own p99 is well under it), the size of each
answer plain and gzipped, then the cost of each read with the cache empty, and of the
signed-in tournament page with its fragment cached, in-process.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
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
SIGNED_IN = "signed-in"

PEER = "bare project"
# The real event: the largest real OpenGotha file of the tests (by games).
EVENTS = ROOT / "tests" / "data" / "opengotha"
CSRF = "benchcsrf" + "0" * 23  # a CSRF secret as the director's browser holds it
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
# The read measured while a result is entered every second.
WRITING = "tournament+1w/s"


@dataclass
class Figure:
    rps: float
    p50_ms: float
    p99_ms: float


def _event_file() -> Path:
    """The real OpenGotha file with the most games."""
    files = [p for p in EVENTS.glob("*.xml") if "pairgoth" not in p.name]
    return max(files, key=lambda p: p.read_text(errors="replace").count("<Game "))


def _import(keys: int, event: Path) -> tuple[dict[str, list[str]], int, int]:
    """The real event imported and rated; the URLs of each read (random keys), its id and
    the number of the round its director enters results in."""
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db.models import Max

    from games.models import Game, Tournament
    from ratings.recompute import recompute

    call_command("import_tournament", str(event), stdout=StringIO())
    tournament = Tournament.objects.latest("pk")
    last = int(Game.objects.filter(tournament=tournament).aggregate(n=Max("round__number"))["n"])
    # The round the director enters results in must be one the event has: the seeded
    # event once kept 5 rounds of 10 and its director got 404 on round 10's page.
    if tournament.number_of_rounds < last:
        tournament.number_of_rounds = last
        tournament.save(update_fields=["number_of_rounds"])
    recompute()
    players = list(tournament.entries.values_list("player_id", flat=True))
    user = get_user_model()
    player_user = user.objects.create_user("bench-player", password=SECRET)
    first = tournament.entries.select_related("player").first()
    assert first is not None, "the event has no players"
    first.player.user = player_user
    first.player.save(update_fields=["user"])
    tournament.directors.add(user.objects.create_user("bench-director"))
    rng = random.Random(2011)
    sample = [rng.choice(players) for _ in range(keys)]
    pairs = [rng.sample(players, 2) for _ in range(keys)]
    pk = tournament.pk
    urls = {
        PEER: [f"/bare/{rng.randrange(1, 100_000)}/" for _ in range(keys)],
        "lookup": [f"/api/v1/players/{i}/" for i in sample],
        "handicap": [f"/api/v1/handicap/?black={a}&white={b}" for a, b in pairs],
        "player page": [f"/players/{i}/" for i in sample],
        "tournament": [f"/tournaments/{pk}/"],
        SIGNED_IN: [f"/tournaments/{pk}/"],
        "standings": [f"/tournaments/{pk}/standings/"],
        WRITING: [f"/tournaments/{pk}/"],
    }
    return urls, pk, last


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


def _wait_up(port: int, path: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited:\n{log.read_text()[-3000:]}")
        try:
            if _get(port, path, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer in 60 s:\n{log.read_text()[-3000:]}")


# --------------------------------------------------------------------------- load


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _wrk(port: int, paths: list[str], connections: int, seconds: float, cookie: str = "") -> Figure:
    threads = min(2, connections)
    extra = ["-H", f"Cookie: {cookie}"] if cookie else []
    path = paths[0]
    if len(paths) > 1:  # a random one of them per request
        script = Path(tempfile.mkstemp(suffix=".lua")[1])
        listed = ", ".join(f'"{p}"' for p in paths)
        script.write_text(
            f"local paths = {{{listed}}}\n"
            "request = function() return wrk.format(nil, paths[math.random(#paths)]) end\n"
        )
        extra += ["-s", str(script)]
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
    port: int, paths: list[str], connections: int, seconds: float, cookie: str = ""
) -> Figure:
    """Threads, each with one keep-alive connection asking for a random one of ``paths``,
    for ``seconds``."""
    path = paths[0]
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
                conn.request("GET", random.choice(paths), headers=headers)
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
def _writing(
    port: int, event: int, number: int, on: bool, entered: list[int], cookie: str
) -> Iterator[None]:
    """While on: one result of round ``number`` entered every second by the event's
    director over HTTP, as his browser sends a click on the results page (session, CSRF
    token, the result the page showed); the worker then rebuilds the event's pages, as
    under ``make serve``.  The ids of the games go to ``entered``."""
    if not on:
        yield
        return
    from django.db import connection

    from games.models import Game

    games = list(
        Game.objects.filter(tournament_id=event, round__number=number)
        .exclude(state__in=["confirmed", "final"])
        .order_by("table")
    )
    if not games:  # an event read back whole: its last round is final; reopen it
        Game.objects.filter(tournament_id=event, round__number=number).update(
            state="submitted", locked_at=None
        )
        games = list(Game.objects.filter(tournament_id=event, round__number=number))
    connection.close()
    path = f"/tournaments/{event}/rounds/{number}/results/"
    headers = {
        "Host": "127.0.0.1",
        "Cookie": f"{cookie}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    stop = threading.Event()
    errors: list[str] = []

    def enter() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        seen = {g.pk: g.result_display for g in games}
        for k in range(len(games) * 2):
            if stop.wait(1.0):
                break
            game = games[k % len(games)]
            result = "W+" if seen[game.pk].startswith("B") else "B+"
            body = f"game={game.pk}&result={result}&seen={seen[game.pk]}".replace("+", "%2B")
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            answer = response.read()
            if response.status != 200:
                errors.append(f"{response.status} {answer[:200]!r}")
                continue
            seen[game.pk] = json.loads(answer)["game"]["result"]
            entered.append(game.pk)
        conn.close()

    writer = threading.Thread(target=enter, daemon=True)
    writer.start()
    try:
        yield
    finally:
        stop.set()
        writer.join()
    if errors:
        raise SystemExit(f"the director's clicks failed: {errors[:5]}")


# --------------------------------------------------------------------------- the miss


def _cold_costs(urls: dict[str, list[str]], repeat: int = 7) -> dict[str, float]:
    """Median milliseconds per read with the cache emptied first, in this process."""
    from django.core.cache import caches
    from django.test import Client

    from ops.pages import cache as versioned

    client = Client(HTTP_HOST="127.0.0.1")
    costs: dict[str, float] = {}
    for name, paths in urls.items():
        times = []
        for path in (paths * repeat)[:repeat]:
            for alias in ("default", "versioned"):  # Redis, and this process's copies
                caches[alias].clear()
            versioned.forget_versions()
            started = time.perf_counter()
            status = client.get(path).status_code
            times.append(1000 * (time.perf_counter() - started))
            assert status == 200, (path, status)
        costs[name] = statistics.median(times)
    return costs


def _session_cookie(username: str = "bench-player") -> str:
    """A bench user's session, as his browser would send it."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
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
    parser.add_argument("--keys", type=int, default=200, help="players (and pairs) asked for")
    parser.add_argument(
        "--event",
        type=Path,
        default=None,
        help="a tournament file to import (any format goref reads; by default the largest "
        "real OpenGotha file of the tests): a congress's own, say",
    )
    parser.add_argument(
        "--reads", default="", help="only these reads, comma-separated (the peer always)"
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
) -> tuple[dict[str, list[str]], int, int, dict[str, str]]:
    """The imported event: the reads asked for, its id, its director's round and each
    read's cookie."""
    source = args.event or _event_file()
    urls, event, number = _import(args.keys, source)
    if args.reads:
        wanted = {PEER, *args.reads.split(",")}
        if unknown := wanted - urls.keys():
            raise SystemExit(f"no such reads: {', '.join(sorted(unknown))} (of {', '.join(urls)})")
        urls = {name: paths for name, paths in urls.items() if name in wanted}
    cookies = {
        # His browser holds the CSRF cookie of the first page with a form he was shown.
        SIGNED_IN: f"{_session_cookie()}; csrftoken={CSRF}",
        WRITING: "",
        "director": _session_cookie("bench-director"),
    }
    from games.models import Game, TournamentEntry

    print(
        f"imported {source.name}: {TournamentEntry.objects.filter(tournament_id=event).count()} "
        f"players, {Game.objects.filter(tournament_id=event).count()} games, results entered "
        f"in round {number}; reads over {args.keys} random keys; gunicorn with "
        f"{env['WEB_CONCURRENCY']} workers x {os.environ.get('WEB_THREADS', '4')} threads "
        f"on 127.0.0.1:{args.port}, the peer on {args.port + 1}"
    )
    return urls, event, number, cookies


def _start(env: dict[str, str], work: Path, port: int) -> tuple[subprocess.Popen[bytes], ...]:
    """gunicorn, the peer's gunicorn and the Celery workers, logging into ``work``."""
    python = sys.executable
    peer_env = {**env, "PORT": str(port + 1), "DJANGO_SETTINGS_MODULE": "bench.peer.settings"}
    commands = {
        "gunicorn": ([python, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"], env),
        "peer": (
            [python, "-m", "gunicorn", "-c", "bench/peer/gunicorn.py", "bench.peer.wsgi"],
            peer_env,
        ),
    }
    # As `make serve` runs them: page rebuilds on a worker of their own.
    for queues in ("pages", "scoring,ratings,sweeps,default"):
        celery = [python, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"]
        node = f"bench-{queues.split(',')[0]}-{os.getpid()}@%h"
        commands[f"worker-{queues.split(',')[0]}"] = ([*celery, "-Q", queues, "-n", node], env)
    processes = []
    for name, (argv, environment) in commands.items():
        with (work / f"{name}.log").open("wb") as out:
            processes.append(
                subprocess.Popen(
                    argv, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT
                )
            )
    return tuple(processes)


def _stop(processes: tuple[subprocess.Popen[bytes], ...]) -> None:
    """Terminate them all, then wait for each; kill one that outlasts 20 s."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _port(port: int, name: str) -> int:
    """Where a read is served: the peer one port up."""
    return port + 1 if name == PEER else port


def _warm(
    port: int, urls: dict[str, list[str]], cookies: dict[str, str]
) -> dict[str, tuple[int, int]]:
    """Every read answers 200 for each of its keys and its caches are warm; returns each
    answer's size (its first key), plain and gzipped."""
    sizes = {}
    for name, paths in urls.items():
        mine, at = cookies.get(name, ""), _port(port, name)
        for path in paths:
            for _ in range(2):
                status, body = _get(at, path, cookie=mine)
                if status != 200:
                    raise SystemExit(f"{path} answered {status}: {body[:300]!r}")
        sizes[name] = (
            len(_get(at, paths[0], cookie=mine)[1]),
            len(_get(at, paths[0], gzip=True, cookie=mine)[1]),
        )
    if (
        SIGNED_IN in urls
        and b"Log out" not in _get(port, urls[SIGNED_IN][0], cookie=cookies[SIGNED_IN])[1]
    ):
        raise SystemExit("the session cookie did not sign the player in")
    return sizes


def _measure(
    args: argparse.Namespace,
    levels: list[int],
    urls: dict[str, list[str]],
    cookies: dict[str, str],
    event: tuple[int, int],
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
            for name, paths in urls.items():
                director = cookies["director"]
                with _writing(args.port, *event, name == WRITING, entered, director):
                    figure = load(
                        _port(args.port, name),
                        paths,
                        connections,
                        args.seconds,
                        cookies.get(name, ""),
                    )
                results[connections][name].append(figure)
    return results, entered


def _print_rates(
    levels: list[int], results: dict[int, dict[str, list[Figure]]], entered: list[int]
) -> None:
    """Per level, each read's figures beside the peer's and against its target."""
    for connections in levels:
        print(f"\n{connections} connections")
        print(
            f"{'read':<16}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
            f"{'bare p50':>10}{'bare p99':>10}{'ratio':>8}  target"
        )
        bare = _summary(results[connections][PEER])
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
        f"\n{WRITING}: {len(entered)} results entered over HTTP during its measurements, one "
        "a second, each followed by the worker's rebuild of the tournament page and standings"
    )


def _print_costs(urls: dict[str, list[str]], sizes: dict[str, tuple[int, int]]) -> None:
    """The answers' sizes, then the in-process costs: each read with the cache empty, and
    the signed-in tournament page with its fragment cached."""
    print("\nanswer sizes, plain and gzipped (as sent to a browser):")
    for name, (plain, packed) in sizes.items():
        print(f"  {name:<16}{plain / 1024:>9.1f} KB{packed / 1024:>9.1f} KB")
    print("\nwith the cache emptied before each read (in-process, median of 7):")
    for name, ms in _cold_costs(
        {k: v for k, v in urls.items() if k not in (PEER, WRITING, SIGNED_IN)}
    ).items():
        print(f"  {name:<16}{ms:>8.1f} ms")
    if SIGNED_IN not in urls:
        return
    whole, gzip_ms, plain_kb = _signed_in_costs(urls[SIGNED_IN][0])
    print(
        f"\nsigned-in tournament page ({plain_kb:.0f} KB), fragment cached, in-process, "
        f"median of 21: {whole:.1f} ms per gzipped request; gzip of the whole page, as "
        f"GZipMiddleware did per request: {gzip_ms:.1f} ms"
    )


def main() -> None:
    """Import the event, start the servers, measure every read at each level, then print."""
    args = _arguments()
    levels = [int(c) for c in args.connections.split(",")]
    work, env = _environment(args.port)
    urls, event, number, cookies = _event(args, env)
    processes = _start(env, work, args.port)
    try:
        _wait_up(args.port, "/healthz", processes[0], work / "gunicorn.log")
        _wait_up(args.port + 1, urls[PEER][0], processes[1], work / "peer.log")
        sizes = _warm(args.port, urls, cookies)
        results, entered = _measure(args, levels, urls, cookies, (event, number))
    finally:
        _stop(processes)
    _print_rates(levels, results, entered)
    _print_costs(urls, sizes)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
