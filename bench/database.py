"""The benchmarks' own PostgreSQL database: named by ``BENCH_DATABASE_URL`` or the
benchmark's default, dropped and made afresh for each run."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


def database_urls(default: str) -> tuple[str, str]:
    """The benchmark's database URL, and the server's ``postgres`` database to manage it."""
    url = os.environ.get("BENCH_DATABASE_URL", default)
    return url, admin_url(url)


def admin_url(url: str) -> str:
    """The ``postgres`` database of the server ``url`` is on (to drop and create it)."""
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def recreate_database(url: str, admin_url: str) -> None:
    """Drop the database ``url`` names (its connections too) and make it empty again."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def fresh_database(url: str, admin_url: str, env: dict[str, str], *commands: list[str]) -> None:
    """The benchmark's database made afresh and migrated (after ``commands``, such as
    collectstatic), in a ``manage.py`` of its own so the benchmark's process starts
    clean; then Django set up in this process on ``env``."""
    import subprocess
    import sys
    from pathlib import Path

    os.environ.update(env)
    recreate_database(url, admin_url)
    root = Path(__file__).resolve().parent.parent
    for command in (*commands, ["migrate", "--noinput", "-v0"]):
        manage = [sys.executable, "manage.py", *command]
        subprocess.run(manage, cwd=root, env={**os.environ}, check=True, timeout=600)
    import django

    django.setup()
