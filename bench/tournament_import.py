"""An EGC-size tournament file imported, then its last round paired (not a test).

Run: ``.venv/bin/python -m bench.tournament_import`` (``--players 760 --rounds 10``).

The real EGC 2011 file is not public, so this writes an OpenGotha XML of that size: 760
players with accented names, EGD PINs, ranks 30k to 7d and ratings, a McMahon event of 10
rounds with rounds 1 to 9 played by about 600 players each (about 2,700 games) and
everyone present in round 10.  It imports the file through ``manage.py
import_tournament`` (the command's own code path) into its own PostgreSQL database
(``BENCH_DATABASE_URL``, default postgres://postgres@127.0.0.1:5432/goref_bench_tournament_import,
dropped and migrated), printing the seconds, the peak of Python's allocations during the
import and its number of queries; then pairs round 10 for all 760 entries through
``POST /api/v1/tournaments/{id}/rounds/10/pairing/`` (Django's test client).  Targets
(the issue's): each under 10 s.  Peers measured in the same run: a bare parse of the
file with defusedxml, goref's own reader of it (``formats.opengotha.read``), and a
second import of the same file, where every player is linked rather than created.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from xml.sax.saxutils import quoteattr

from bench.database import database_urls, fresh_database

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "data" / "opengotha" / "pairgoth-simplemm.xml"
TARGET_SECONDS = 10.0
FAMILY = ["Müller", "Dvořák", "Sørensen", "Łukasik", "Nuñez", "Öztürk", "Kovač", "Lefèvre"]
SYLLABLES = ["ka", "mi", "ro", "lo", "sa", "te", "ne", "wo", "ba", "zu", "gi", "pe", "jé", "ål"]
GIVEN = ["Jörg", "Zoë", "Łucja", "Renée", "Ştefan", "Ana", "Jiří", "Håkon", "Ines", "Tomáš"]
COUNTRIES = ["DE", "CZ", "DK", "PL", "ES", "TR", "HR", "FR", "NL", "RO"]


def _grade(rank: int) -> str:
    """OpenGotha's grade for a signed rank index (-30 = 30K … -1 = 1K, 0 = 1D)."""
    return f"{-rank}K" if rank < 0 else f"{rank + 1}D"


@dataclass
class _Person:
    name: str
    first_name: str
    key: str  # OpenGotha's: name and first name, upper case, without spaces
    rank: int
    rating: int
    pin: str
    country: str
    club: str
    played: list[bool]


def generate(players: int, rounds: int, seed: int = 2011) -> bytes:
    """An OpenGotha file of ``players`` players and ``rounds`` rounds, the last unpaired
    (the settings, handicap and placement sections are a real file's, made even)."""
    rng = random.Random(seed)
    people: list[_Person] = []
    seen: set[str] = set()
    while len(people) < players:
        family = rng.choice(FAMILY) + "".join(rng.choice(SYLLABLES) for _ in range(2))
        given = rng.choice(GIVEN)
        key = (family + given).replace(" ", "").upper()
        if key in seen:
            continue
        seen.add(key)
        rank = max(-30, min(6, round(rng.gauss(-5, 6))))
        people.append(
            _Person(
                name=family,
                first_name=given,
                key=key,
                rank=rank,
                rating=2100 + 100 * rank + rng.randint(-49, 49),
                pin=str(10_000_000 + len(people) * 7919 % 90_000_000),
                country=rng.choice(COUNTRIES),
                club=rng.choice(["Berl", "Prah", "Kobe", "Pari", "Amst"]),
                played=[r == rounds or rng.random() < 0.79 for r in range(1, rounds + 1)],
            )
        )
    games = []
    score = {p.key: 0.0 for p in people}
    for r in range(1, rounds):
        here = [p for p in people if p.played[r - 1]]
        if len(here) % 2:
            here[-1].played[r - 1] = False
            here.pop()
        # Roughly McMahon: by score then rank, neighbours meet.
        here.sort(key=lambda p: score[p.key] + p.rank + rng.random() * 2, reverse=True)
        for table, (a, b) in enumerate(zip(here[::2], here[1::2], strict=True), start=1):
            black, white = (a, b) if rng.random() < 0.5 else (b, a)
            odds = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
            winner = white if rng.random() < odds else black
            score[winner.key] += 1
            result = "RESULT_WHITEWINS" if winner is white else "RESULT_BLACKWINS"
            games.append(
                f'        <Game blackPlayer={quoteattr(black.key)} handicap="0" '
                f'knownColor="true" result="{result}" roundNumber="{r}" '
                f'tableNumber="{table}" whitePlayer={quoteattr(white.key)}/>'
            )
    lines = [
        f'        <Player agaExpirationDate="" agaId="" club="{p.club}" '
        f'country="{p.country}" egfPin="{p.pin}" ffgLicence="" '
        f'ffgLicenceStatus="" firstName={quoteattr(p.first_name)} '
        f'grade="{_grade(p.rank)}" name={quoteattr(p.name)} '
        f'participating="{"".join("1" if x else "0" for x in p.played).ljust(20, "1")}" '
        f'rank="{_grade(p.rank)}" rating="{p.rating}" ratingOrigin="EGF" '
        f'registeringStatus="FIN" smmsCorrection="0"/>'
        for p in people
    ]
    text = TEMPLATE.read_text(encoding="utf-8")
    head, rest = text.split("<Players>", 1)
    _old, rest = rest.split("</Games>", 1)
    rest = (
        rest.replace('numberOfRounds="5"', f'numberOfRounds="{rounds}"')
        .replace('hdCeiling="9"', 'hdCeiling="0"')
        .replace('name="SimpleMM"', 'name="EGC-size benchmark"')
    )
    body = "\n".join(["<Players>", *lines, "    </Players>", "    <Games>", *games, "    </Games>"])
    return (head + body + rest).encode("utf-8")


def _timed_import(path: Path) -> tuple[float, float, float, int, dict[str, int]]:
    """Seconds, this process's CPU seconds (the machine may be shared), peak MiB of
    Python allocations, queries, and the command's summary."""
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    out = StringIO()
    tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    with CaptureQueriesContext(connection) as queries:
        call_command("import_tournament", str(path), stdout=out)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    summary: dict[str, int] = json.loads(out.getvalue().strip().splitlines()[-1])
    return took, cpu, peak, len(queries), summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=760)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    url, admin_url = database_urls(
        "postgres://postgres@127.0.0.1:5432/goref_bench_tournament_import"
    )
    env = {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    fresh_database(url, admin_url, env)
    from defusedxml import ElementTree
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from games.tournament.engine.formats import opengotha

    settings.DEBUG = False
    data = generate(args.players, args.rounds)
    start = time.perf_counter()
    ElementTree.fromstring(data)
    bare = time.perf_counter() - start
    start = time.perf_counter()
    event = opengotha.read(data)
    read = time.perf_counter() - start
    print(
        f"file: {len(data) / 2**20:.1f} MiB, {len(event.entrants)} players, "
        f"{len(event.games)} games in rounds 1-{args.rounds - 1}"
    )
    print(f"peer: bare parse (defusedxml) {bare:.2f} s; goref's reader of the file {read:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "egc-size.xml"
        path.write_bytes(data)
        took, cpu, peak, queries, summary = _timed_import(path)
        ok = "within" if took <= TARGET_SECONDS else "OVER"
        print(
            f"import: {took:.2f} s ({ok} the {TARGET_SECONDS:.0f} s target; {cpu:.2f} s CPU "
            "here), peak Python "
            f"allocations {peak:.0f} MiB, {queries} queries; {summary['created']} created, "
            f"{summary['linked']} linked, {summary['games']} games"
        )
        again, again_cpu, _peak, again_queries, linked = _timed_import(path)
        print(
            f"peer: the same file again (all {linked['linked']} linked): {again:.2f} s "
            f"({again_cpu:.2f} s CPU), "
            f"{again_queries} queries"
        )
    admin = get_user_model().objects.create_superuser("bench", "bench@example.org", "x")
    client = APIClient()
    client.force_authenticate(admin)
    start, cpu = time.perf_counter(), time.process_time()
    answer = client.post(
        f"/api/v1/tournaments/{summary['tournament']}/rounds/{args.rounds}/pairing/",
        {"dry_run": True},
        format="json",
    )
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    if answer.status_code != 200:
        raise SystemExit(f"pairing refused: {answer.status_code} {answer.content[:500]!r}")
    paired = len(answer.json()["games"])
    ok = "within" if took <= TARGET_SECONDS else "OVER"
    print(
        f"pair round {args.rounds} through the API (dry run): {paired} games for "
        f"{args.players} entries in {took:.2f} s, {cpu:.2f} s CPU ({ok} the "
        f"{TARGET_SECONDS:.0f} s target)"
    )


if __name__ == "__main__":
    main()
