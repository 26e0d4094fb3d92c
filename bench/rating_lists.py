"""Rating lists: importing each list and searching them as you type (docs/ratings.md §9a).

    .venv/bin/python -m bench.rating_lists --ffg ech_ffg_V3.txt --aga tdlista.txt

The FFG and AGA lists are the real ones (OpenGotha ships them in
``distribution/ratinglists/``); the EGD list is synthetic, 100,000 lines in the all-world
layout, since no copy of the EGD's own file is public in a repository.  Each import runs
through ``ratings.lists.rating_list_import`` into its own PostgreSQL database; the
search runs 300 queries of 2 to 4 letters through the API's selector and prints the
median and p99.  Peers: the budget the issue sets (30 s per list, 50 ms p99); beside each
import, in the same run on the same bytes, a plain reader of the file (``plain_read``:
its lines split into text fields, nothing checked) and that reader followed by one COPY of
its rows into a temporary table: the floor under what an import can cost on the machine as
it is loaded at that moment.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/goref_bench_lists"
IMPORT_BUDGET = 30.0
SEARCH_BUDGET_MS = 50.0


def _setup(url: str) -> None:
    from bench.database import admin_url, fresh_database

    settings_module = os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings")
    fresh_database(
        url, admin_url(url), {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": settings_module}
    )


def synthetic_egd(lines: int, seed: int = 7) -> bytes:
    rng = random.Random(seed)
    syllables = ["ka", "mi", "ro", "lo", "sa", "te", "ne", "wo", "ba", "zu", "gi", "pe"]
    out = [" European Go Database (synthetic)", " (25 Nov 2026)"]
    for n in range(lines):
        family = "".join(rng.choice(syllables) for _ in range(3)).capitalize()
        given = "".join(rng.choice(syllables) for _ in range(2)).capitalize()
        gor = rng.randint(100, 2800)
        grade = f"{(gor - 2050) // 100 + 1}d" if gor >= 2050 else f"{(2149 - gor) // 100}k"
        grade = grade if grade != "0k" else "1k"
        out.append(
            f"  {10000000 + n:8d}  {family + ' ' + given:<36}  DE  Berl  {grade:>4}   --  "
            f"{gor:5d}  {rng.randint(1, 80):4d}  T261101A"
        )
    return ("\n".join(out) + "\n").encode()


def plain_read(data: bytes) -> list[tuple[str, ...]]:
    """The peer: the same file read the plainest way, one tuple of text fields a line
    (the EGD's words split on blanks, as pairgoth does; the FFG's name column and the words
    after it; the AGA's tab-separated cells), with no checks, no ranks, no names matched."""
    from ratings.rating_lists import AGA, FFG, _text, detect

    text = _text(data)
    kind = detect(text)
    rows: list[tuple[str, ...]] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if kind == AGA:
            rows.append(tuple(line.split("\t")))
        elif kind == FFG:
            rows.append((line[:38].strip(), *line[38:].split()))
        elif line[:12].strip().isdigit():
            rows.append(tuple(line.split()))
    return rows


def _plain_insert(rows: list[tuple[str, ...]]) -> None:
    """The peer's write: the plain rows into a temporary table with one COPY, in one
    transaction (what storing the list costs with nothing else done)."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE plain_list (line text[]) ON COMMIT DROP")
        with cursor.copy("COPY plain_list (line) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([list(row)])


def _import(label: str, data: bytes) -> None:
    from ratings.lists import rating_list_import

    # The peers run first, on the same bytes in the same process, so that a loaded machine
    # slows them as it slows the import.
    start = time.perf_counter()
    rows = plain_read(data)
    read_took = time.perf_counter() - start
    _plain_insert(rows)
    plain_took = time.perf_counter() - start
    start = time.perf_counter()
    result = rating_list_import(actor=None, data=data)
    took = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ok = "within" if took <= IMPORT_BUDGET else "OVER"
    print(
        f"import {label:<4} {result.rating_list.entries_count:>7} entries  {took:6.2f} s  "
        f"peak RSS {peak:6.0f} MiB  ({ok} the {IMPORT_BUDGET:.0f} s budget); peer, a plain "
        f"reader of the same file: read {read_took:5.2f} s, read and COPY {plain_took:5.2f} s "
        f"(the import takes {took / plain_took:4.1f}× the plain read and COPY)"
    )


def _settle() -> None:
    """What autovacuum does within a minute of a bulk load (the import runs ANALYZE
    itself, but VACUUM cannot run in its transaction): the visibility map that lets the
    words' index answer without reading the table.  The search is measured as it runs
    the rest of the month, not in the minute after an import."""
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("ratings_ratinglisttoken", "ratings_ratinglistentry"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def _old_search(q: str) -> list[Any]:
    """The peer: the search before the words table (a LIKE on the whole name key, which
    reads the whole list for a word that matches almost nothing)."""
    from django.db.models import Q

    from games.people.selectors import search_words
    from ratings.models import RatingListEntry

    by_name = Q()
    for w in search_words(q):
        by_name &= Q(name_key__startswith=w) | Q(name_key__contains=f" {w}")
    found = RatingListEntry.objects.filter(Q(federation_id=q) | by_name).order_by()
    return list(found.select_related("rating_list")[:20])


def _queries(count: int) -> list[str]:
    """What people type: 2 to 4 letters of a listed word, two such words, and words that
    match nothing (a typo, a name not on any list), a third each."""
    from ratings.models import RatingListEntry

    rng = random.Random(11)
    keys = list(RatingListEntry.objects.values_list("name_key", flat=True)[:20000]) or ["ab"]
    out = []
    for n in range(count):
        words = rng.choice(keys).split()
        first = words[0][: rng.randint(2, 4)]
        if n % 3 == 0:
            out.append(first)
        elif n % 3 == 1:
            out.append(f"{first} {words[-1][: rng.randint(2, 4)]}")
        else:
            out.append(first + rng.choice("qxj") + "z")
    return out


def _timed(
    searches: list[Callable[[str], object]], queries: list[str]
) -> list[tuple[float, float]]:
    """Median and p99 in ms of each search over the queries, taken in turn query by query
    so that a busy moment of the machine falls on all of them alike."""
    times: list[list[float]] = [[] for _ in searches]
    for q in queries:
        for search, spent in zip(searches, times, strict=True):
            start = time.perf_counter()
            search(q)
            spent.append((time.perf_counter() - start) * 1000)
    out = []
    for spent in times:
        spent.sort()
        out.append((statistics.median(spent), spent[int(0.99 * (len(spent) - 1))]))
    return out


def _search(count: int) -> None:
    from games.people.selectors import search_players
    from ratings.lists import search_lists
    from ratings.models import RatingListEntry

    queries = _queries(count)
    total = RatingListEntry.objects.count()
    (median, p99), (old_median, old_p99) = _timed(
        [lambda q: (search_lists(q), list(search_players(q))), _old_search], queries
    )
    ok = "within" if p99 <= SEARCH_BUDGET_MS else "OVER"
    print(
        f"search over {total} entries, {count} queries: median {median:.1f} ms, "
        f"p99 {p99:.1f} ms ({ok} the {SEARCH_BUDGET_MS:.0f} ms budget); peer, the name-key "
        f"LIKE search without the words table: median {old_median:.1f} ms, p99 {old_p99:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ffg", type=Path, help="the FFG's ech_ffg_V3.txt")
    parser.add_argument("--aga", type=Path, help="the AGA's tdlista.txt")
    parser.add_argument("--egd-lines", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--database", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL))
    args = parser.parse_args()
    _setup(args.database)
    _import("EGD", synthetic_egd(args.egd_lines))
    if args.ffg:
        _import("FFG", args.ffg.read_bytes())
    if args.aga:
        _import("AGA", args.aga.read_bytes())
    _settle()
    _search(args.queries)


if __name__ == "__main__":
    main()
