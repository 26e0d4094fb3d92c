"""The benchmarks' own PostgreSQL database: named by ``BENCH_DATABASE_URL`` or the
benchmark's default, dropped and made afresh for each run."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


def database_urls(default: str) -> tuple[str, str]:
    """The benchmark's database URL, and the server's ``postgres`` database to manage it."""
    url = os.environ.get("BENCH_DATABASE_URL", default)
    return url, urlunsplit(urlsplit(url)._replace(path="/postgres"))


def recreate_database(url: str, admin_url: str) -> None:
    """Drop the database ``url`` names (its connections too) and make it empty again."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
