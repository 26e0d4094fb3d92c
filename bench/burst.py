"""Write-burst benchmark (not a test): a 1,000-player round's results arriving at once,
over HTTP, at 10 and 50 connections, beside a bare Django project in the same run.

Run: ``.venv/bin/python -m bench.burst`` (``--players 1000 --clicked 200 --phones 300
--connections 10,50 --port P``; the peer listens on P+1).

For each level it makes a fresh event (``--players`` players, one round of
``--players``/2 games; bench/web.py's database, Redis, gunicorn, peer and workers, as
``make serve`` runs them), then plays the round: 4 directors click ``--clicked`` results
on the results page (session, CSRF token, the result the page showed), and ``--phones``
games are reported by Black from his slip's code and confirmed by White from his (each
phone reads its report page, then posts), all shuffled over the connections.  A
re-scoring of another event is submitted mid-burst.  It prints, per kind of request,
p50 and p99 and the errors; the results lost or doubled, read back from the database
(each game's result, and its audit rows against the writes answered as done); the peak
length of each Celery queue (sampled every 0.1 s); how long after the last write the
standings showed every result; how long the re-scoring took; and the bare project's p50
and p99 at the same concurrency, measured just before.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import json
import os
import random
import re
import statistics
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.web import CSRF, _environment, _get, _session_cookie, _start, _stop, _wait_up

ROOT = Path(__file__).resolve().parent.parent
DIRECTORS = 4


@dataclass
class Tally:
    """Each request kind's milliseconds and errors."""

    ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, ms: float, ok: bool, what: str = "") -> None:
        with self.lock:
            self.ms[kind].append(ms)
            if not ok:
                self.errors[f"{kind}: {what}"] += 1


class Connections:
    """One keep-alive connection per worker thread."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.local = threading.local()

    def request(
        self, method: str, path: str, headers: dict[str, str], body: str = ""
    ) -> tuple[int, bytes]:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body or None, headers={"Host": "127.0.0.1", **headers})
            response = conn.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            self.local.conn = None
            raise


# A request (or two) of the burst: it answers the steps that follow it (a confirm after
# its report).
Step = Callable[[Connections, Tally], list[Any]]


def _seed(players_count: int) -> tuple[int, list[int], list[str]]:
    """A one-round event of ``players_count`` players; its id, its games and its
    directors' session cookies."""
    import datetime as dt
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from games.models import Game, Player, Round, Tournament, TournamentEntry

    tag = time.monotonic_ns()
    players = Player.objects.bulk_create(
        [
            Player(family_name=f"Burst{i:04d}", given_name="P", declared_rank=-15 + i % 20)
            for i in range(players_count)
        ]
    )
    tournament = Tournament.objects.create(
        name=f"Burst {tag}",
        start_date=dt.date(2026, 8, 1),
        end_date=dt.date(2026, 8, 1),
        rules="japanese",
        komi=Decimal("6.5"),
        number_of_rounds=1,
    )
    rnd = Round.objects.create(tournament=tournament, number=1)
    games = Game.objects.bulk_create(
        Game(
            tournament=tournament,
            round=rnd,
            table=t + 1,
            black=players[2 * t],
            white=players[2 * t + 1],
            komi=Decimal("6.5"),
            rules="japanese",
        )
        for t in range(players_count // 2)
    )
    TournamentEntry.objects.bulk_create(
        TournamentEntry(
            tournament=tournament,
            player=p,
            family_name=p.family_name,
            given_name=p.given_name,
            rank=p.declared_rank,
        )
        for p in players
    )
    cookies = []
    for d in range(DIRECTORS):
        user = get_user_model().objects.create_user(f"burst-director-{tag}-{d}")
        tournament.directors.add(user)
        cookies.append(_session_cookie(user.username))
    return tournament.pk, [g.pk for g in games], cookies


def _codes(game_ids: list[int]) -> dict[int, tuple[str, str]]:
    """Black's and White's slip codes of each game."""
    from games.models import Game
    from games.services.codes import report_code

    return {
        g.pk: (report_code(g, g.black_id), report_code(g, g.white_id))
        for g in Game.objects.filter(pk__in=game_ids)
    }


def _form(**fields: str) -> str:
    from urllib.parse import urlencode

    return urlencode(fields)


def _plan(
    event: int, games: list[int], cookies: list[str], clicked: int, phones: int, rng: random.Random
) -> tuple[list[Step], dict[int, str]]:
    """The burst's first steps (a phone's confirm follows its report), and each game's
    expected result."""
    expected: dict[int, str] = {}
    steps: list[Step] = []
    results_path = f"/tournaments/{event}/rounds/1/results/"
    for k, game in enumerate(games[:clicked]):
        result = rng.choice(["B+", "W+"])
        expected[game] = result
        cookie = cookies[k % DIRECTORS]
        steps.append(_click(results_path, game, result, cookie))
    codes = _codes(games[clicked : clicked + phones])
    for game, (black, white) in codes.items():
        result = rng.choice(["B+R", "W+R"])
        expected[game] = result
        steps.append(_report(game, black, white, result))
    rng.shuffle(steps)
    return steps, expected


def _click(path: str, game: int, result: str, cookie: str) -> Step:
    def step(conns: Connections, tally: Tally) -> list[Any]:
        headers = {
            "Cookie": f"{cookie}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "Accept": "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        started = time.perf_counter()
        status, _ = conns.request(
            "POST", path, headers, _form(game=str(game), result=result, seen="")
        )
        tally.add(
            "director click", 1000 * (time.perf_counter() - started), status == 200, str(status)
        )
        return []

    return step


def _finalise(event: int, cookie: str) -> Step:
    def step(conns: Connections, tally: Tally) -> list[Any]:
        headers = {
            "Cookie": f"{cookie}; csrftoken={CSRF}",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        started = time.perf_counter()
        status, _ = conns.request(
            "POST",
            f"/tournaments/{event}/rounds/1/results/",
            headers,
            _form(csrfmiddlewaretoken=CSRF, action="finalise"),
        )
        ms = 1000 * (time.perf_counter() - started)
        tally.add("finalise", ms, status == 302, str(status))
        return []

    return step


def _phone_headers() -> dict[str, str]:
    return {
        "Cookie": f"csrftoken={CSRF}",
        "Content-Type": "application/x-www-form-urlencoded",
    }


def _report(game: int, black: str, white: str, result: str) -> Step:
    def step(conns: Connections, tally: Tally) -> list[Any]:
        path = f"/r/{game}/{black}/"
        started = time.perf_counter()
        status, _ = conns.request(
            "POST",
            path,
            _phone_headers(),
            _form(csrfmiddlewaretoken=CSRF, action="report", result=result),
        )
        tally.add(
            "phone report", 1000 * (time.perf_counter() - started), status == 302, str(status)
        )
        return [_confirm(game, white)] if status == 302 else []

    return step


def _confirm(game: int, white: str) -> Step:
    def step(conns: Connections, tally: Tally) -> list[Any]:
        path = f"/r/{game}/{white}/"
        started = time.perf_counter()
        status, page = conns.request("GET", path, {})
        tally.add("phone page", 1000 * (time.perf_counter() - started), status == 200, str(status))
        claim = re.search(rb'name="claim" value="(\d+)"', page)
        if claim is None:
            tally.add("phone confirm", 0.0, False, "no claim on the page")
            return []
        started = time.perf_counter()
        status, _ = conns.request(
            "POST",
            path,
            _phone_headers(),
            _form(csrfmiddlewaretoken=CSRF, action="confirm", claim=claim.group(1).decode()),
        )
        tally.add(
            "phone confirm", 1000 * (time.perf_counter() - started), status == 302, str(status)
        )
        return []

    return step


def _run(port: int, connections: int, steps: list[Step], tally: Tally) -> None:
    """Every step and the steps it leads to, on ``connections`` threads."""
    conns = Connections(port)
    with concurrent.futures.ThreadPoolExecutor(connections) as pool:
        pending = {pool.submit(step, conns, tally) for step in steps}
        while pending:
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            for future in done:
                try:
                    follow = future.result()
                except (OSError, http.client.HTTPException) as exc:
                    tally.add("connection", 0.0, False, type(exc).__name__)
                    continue
                pending |= {pool.submit(step, conns, tally) for step in follow}


def _peer(port: int, connections: int, count: int) -> list[float]:
    """The bare project's milliseconds per request at the same concurrency."""
    conns = Connections(port)
    times: list[float] = []

    def one(k: int) -> None:
        started = time.perf_counter()
        conns.request("GET", f"/bare/{k}/", {})
        times.append(1000 * (time.perf_counter() - started))

    with concurrent.futures.ThreadPoolExecutor(connections) as pool:
        list(pool.map(one, range(count)))
    return times


def _queues_sampler(peaks: Counter[str], stop: threading.Event) -> None:
    from ops import queues

    while not stop.wait(0.1):
        try:
            for name, depth in queues.depths().items():
                peaks[name] = max(peaks[name], depth)
        except Exception:
            continue


def _rescore_job() -> tuple[int, float]:
    """A re-scoring of another event (20 real marked records, tests/data/sgf/marked),
    submitted now: its job id and when."""
    import datetime as dt
    from decimal import Decimal

    from games.models import Game, GameState, Player, Round, Tournament
    from games.services import scoring

    records = sorted((ROOT / "tests" / "data" / "sgf" / "marked").glob("*.sgf"))[:20]
    other = Tournament.objects.create(
        name=f"Rescored {time.monotonic_ns()}",
        start_date=dt.date(2026, 8, 1),
        end_date=dt.date(2026, 8, 1),
        rules="japanese",
    )
    rnd = Round.objects.create(tournament=other, number=1)
    players = Player.objects.bulk_create(
        Player(family_name=f"Rescored{i}", given_name="R", declared_rank=-10) for i in range(40)
    )
    Game.objects.bulk_create(
        Game(
            tournament=other,
            round=rnd,
            table=i + 1,
            black=players[2 * i],
            white=players[2 * i + 1],
            rules="japanese",
            komi=Decimal("6.5"),
            sgf=records[i % len(records)].read_text(errors="replace"),
            result_winner="W",
            result_reason="score",
            result_margin=6.5,
            state=GameState.SUBMITTED,
        )
        for i in range(20)
    )
    job = scoring.tournament_rescore(actor=None, tournament=other, chunk_size=5)
    return job.pk, time.monotonic()


def _check(expected: dict[int, str]) -> tuple[int, int]:
    """Results lost (not what was written) and doubled (more result audit rows than writes)."""
    from games.models import Game
    from ops.models import AuditEntry

    lost = 0
    for game in Game.objects.filter(pk__in=expected):
        if not game.result_display or game.result_display[0] != expected[game.pk][0]:
            lost += 1
    rows = Counter(
        AuditEntry.objects.filter(
            object_type="games.game",
            object_id__in=[str(g) for g in expected],
            action__in=["game.result_entered", "game.result_by_code"],
        ).values_list("object_id", flat=True)
    )
    doubled = sum(1 for n in rows.values() if n > 2)
    return lost, doubled


def _standings_complete(port: int, event: int, timeout: float = 120.0) -> float:
    """Seconds until a visitor's standings show no unknown result."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        status, body = _get(port, f"/tournaments/{event}/standings/")
        if status == 200 and b"?/" not in body:
            return time.monotonic() - started
        time.sleep(0.1)
    return float("inf")


def _results_page_ms(port: int, event: int, cookie: str, repeat: int = 5) -> list[float]:
    """A director opening the round's results page (every game of the round), once to warm
    it, then ``repeat`` times: the milliseconds of those, as his browser asks for it."""
    conns = Connections(port)
    headers = {"Cookie": f"{cookie}; csrftoken={CSRF}", "Accept-Encoding": "gzip"}
    times = []
    for k in range(repeat + 1):
        started = time.perf_counter()
        status, _ = conns.request("GET", f"/tournaments/{event}/rounds/1/results/", headers)
        if status != 200:
            raise SystemExit(f"the results page answered {status}")
        if k:
            times.append(1000 * (time.perf_counter() - started))
    return times


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def _level(args: argparse.Namespace, connections: int) -> None:
    from ops.models import Job

    event, games, cookies = _seed(args.players)
    steps, expected = _plan(event, games, cookies, args.clicked, args.phones, random.Random(7))
    peer = _peer(args.port + 1, connections, 2000)
    tally = Tally()
    peaks: Counter[str] = Counter()
    stop = threading.Event()
    sampler = threading.Thread(target=_queues_sampler, args=(peaks, stop), daemon=True)
    sampler.start()
    half = len(steps) // 2
    started = time.monotonic()
    _run(args.port, connections, steps[:half], tally)
    job, submitted = _rescore_job()
    rescored: list[float] = []

    def watch() -> None:
        from django.db import connection

        while not stop.is_set() and not rescored:
            if Job.objects.get(pk=job).state == "done":
                rescored.append(time.monotonic() - submitted)
            time.sleep(0.2)
        connection.close()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    _run(args.port, connections, steps[half:], tally)
    # The directors' entries count in the standings once final: the round is finalised.
    _run(args.port, connections, [_finalise(event, cookies[0])], tally)
    last_write = time.monotonic()
    complete = _standings_complete(args.port, event)
    watcher.join(timeout=max(0.0, 120 - (time.monotonic() - submitted)))
    stop.set()
    sampler.join()
    lost, doubled = _check(expected)
    page = _results_page_ms(args.port, event, cookies[0])
    requests = sum(len(v) for v in tally.ms.values())
    print(f"\n{connections} connections: {requests} requests in {last_write - started:.1f} s")
    print(f"{'kind':<16}{'n':>6}{'p50 ms':>9}{'p99 ms':>9}")
    for kind, ms in sorted(tally.ms.items()):
        print(f"{kind:<16}{len(ms):>6}{statistics.median(ms):>9.1f}{_pct(ms, 0.99):>9.1f}")
    print(
        f"{'bare project':<16}{len(peer):>6}{statistics.median(peer):>9.1f}{_pct(peer, 0.99):>9.1f}"
    )
    print(f"errors: {sum(tally.errors.values())} {dict(tally.errors) or ''}")
    print(f"lost: {lost}, doubled: {doubled} (of {len(expected)} results, read back)")
    print(f"queue peaks: {json.dumps(dict(peaks))}")
    print(f"standings complete {complete:.1f} s after the last write")
    took = f"{rescored[0]:.1f} s" if rescored else "more than 120 s"
    print(f"a re-scoring (20 records) submitted mid-burst finished in {took}")
    clicks, phones = tally.ms.get("director click"), tally.ms.get("phone report")
    if clicks and phones:
        ratio = statistics.median(clicks) / statistics.median(phones)
        print(f"a director's click / a phone's report, medians: {ratio:.2f} (target <= 2)")
    print(
        f"the results page of the round ({len(games)} games), warm, median of {len(page)}: "
        f"{statistics.median(page):.0f} ms (target < 1000 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--clicked", type=int, default=200)
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--connections", default="10,50")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_PORT", "8765")))
    args = parser.parse_args()
    work, env = _environment(args.port)
    import django

    django.setup()
    env = {**env, "GOREF_WARM_PAGES": "1"}
    processes = _start(env, work, args.port)
    try:
        _wait_up(args.port, "/healthz", processes[0], work / "gunicorn.log")
        _wait_up(args.port + 1, "/bare/1/", processes[1], work / "peer.log")
        for connections in (int(c) for c in args.connections.split(",")):
            _level(args, connections)
    finally:
        _stop(processes)


if __name__ == "__main__":
    main()
