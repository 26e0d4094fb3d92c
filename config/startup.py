"""Start-up refusals in one line: a database that cannot be reached, a Redis DB that
already serves this site's name for another database.

``manage.py`` runs its commands through ``run_manage`` (and puts a malformed setting in
one line too); gunicorn's master checks the database once before it starts workers
(``gunicorn_starting``, hooked in ``config/gunicorn.py``).  A running server whose
database goes away keeps answering 503 (docs/operations.md, "Outages"); only a start with
no database at all is refused, naming ``DATABASE_URL`` instead of a driver's traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

# Commands that serve requests: they check the database before anything starts (a
# runserver thread that fails prints a traceback and keeps the process waiting).
SERVING_COMMANDS = frozenset({"runserver"})


def redacted(url: str) -> str:
    """``url`` with its password replaced by ``***`` (it is printed)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
    except ValueError:  # a port that is not a number: say nothing of its parts
        return "(unreadable)"


def _one_line(exc: BaseException) -> str:
    """The driver's message on one line (psycopg adds a hint on a second one)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def database_problem() -> str | None:
    """One line saying why the default database cannot be reached, naming
    ``DATABASE_URL``; ``None`` when a connection opens.  Settings must be loaded."""
    from django.db import DatabaseError, connections

    connection = connections["default"]
    try:
        connection.ensure_connection()
    except DatabaseError as exc:
        url = os.environ.get("DATABASE_URL", "")
        named = f"DATABASE_URL={redacted(url)}" if url else "DATABASE_URL is not set (SQLite)"
        return (
            f"goref: {named}: the database cannot be reached ({_one_line(exc)}). "
            "Create the database or start its server, or correct DATABASE_URL."
        )
    finally:
        connection.close()
    return None


SITE_MARKER = "goref-site"


def _database_identity() -> str | None:
    """What tells this database from any other: its name and when its first migration
    ran (a fresh database has none yet: ``None``)."""
    from django.db import DatabaseError, connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT MIN(applied) FROM django_migrations")
            first = cursor.fetchone()[0]
    except DatabaseError:
        return None
    finally:
        connection.close()
    if first is None:
        return None
    return f"{connection.vendor}:{connection.settings_dict['NAME']}:{first}"


def site_problem() -> str | None:
    """One line saying why this site must not start on its Redis DB: the DB's marker for
    this site's name (``GOREF_SITE``) names another database, so the two sites would
    read each other's pages and run each other's tasks.  Else the marker is set to this
    database, and ``None``.  A Redis that does not answer is no reason to refuse (the
    cache forgives it and the sweeps queue what waits)."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return None
    identity = _database_identity()
    if identity is None:
        return None
    import redis

    key = f"{settings.GOREF_SITE}:{SITE_MARKER}"
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
        )
        client.set(key, identity, nx=True)
        raw: Any = client.get(key)
    except redis.RedisError:
        return None
    found = "" if raw is None else bytes(raw).decode()
    if found in ("", identity):
        return None
    return (
        f"goref: REDIS_URL={redacted(settings.REDIS_URL)} already serves the site "
        f"{settings.GOREF_SITE!r} for another database ({found}); two sites on one "
        "Redis DB need distinct names: set GOREF_SITE, or use another Redis DB. "
        f"If that site is gone for good: redis-cli -n <db> DEL {key}"
    )


def refuse_if_site_shared() -> None:
    """Stop the start (exit status 1) with ``site_problem``'s line."""
    problem = site_problem()
    if problem is not None:
        _refuse(problem)


def _refuse(message: str) -> None:
    print(message, file=sys.stderr)
    raise SystemExit(1)


def run_manage(argv: Sequence[str], execute: Callable[[list[str]], None] | None = None) -> None:
    """``manage.py``: run the command; an unreachable database is one line on stderr
    and exit status 1, never a traceback."""
    if execute is None:
        from django.core.management import execute_from_command_line

        execute = execute_from_command_line
    from django.db import OperationalError

    try:
        if len(argv) > 1 and argv[1] in SERVING_COMMANDS and not os.environ.get("RUN_MAIN"):
            import django

            django.setup()
            problem = database_problem()
            if problem is not None:
                _refuse(problem)
            refuse_if_site_shared()
        execute(list(argv))
    except OperationalError:
        # Only a database that cannot be reached at all is put in one line; an error
        # of a reachable database (a lock, a bad query) keeps its traceback.
        problem = database_problem()
        if problem is None:
            raise
        _refuse(problem)


def gunicorn_starting() -> None:
    """gunicorn's ``on_starting`` hook, in the master before any worker is forked: a
    database that cannot be reached stops the start with its line.  Never in the
    workers: one that restarts while the database is briefly away must not halt the
    server, which answers 503 until it is back."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    problem = database_problem()  # closes its connection: no socket shared with workers
    if problem is not None:
        _refuse(problem)
    refuse_if_site_shared()
