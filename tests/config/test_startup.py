"""A database that cannot be reached stops ``manage.py`` and gunicorn's start in one line
naming DATABASE_URL, never a traceback; a running server keeps answering 503 instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import OperationalError

from config import startup
from tests.config.test_settings import ROOT, run_manage

REFUSED = "postgres://goref:s3cret@127.0.0.1:1/goref"  # nothing listens on port 1


def _missing_database() -> str:
    """The test server's URL naming a database that does not exist."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs the PostgreSQL server of DATABASE_URL")
    return urlunsplit(urlsplit(url)._replace(path="/goref_no_such_database"))


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_missing_database_is_one_line_naming_database_url(tmp_path: Path) -> None:
    url = _missing_database()
    line = _one_line(run_manage("migrate", env_extra={"DATABASE_URL": url}, tmp_path=tmp_path))
    assert line.startswith("goref: DATABASE_URL=postgres")
    assert 'database "goref_no_such_database" does not exist' in line
    assert "correct DATABASE_URL" in line


@pytest.mark.parametrize(
    "command",
    [
        ["migrate", "--noinput"],
        ["showmigrations"],
        ["createsuperuser", "--noinput", "--username", "op", "--email", "op@example.org"],
    ],
)
def test_a_server_that_is_down_is_one_line_with_the_password_hidden(
    tmp_path: Path, command: list[str]
) -> None:
    done = run_manage(*command, env_extra={"DATABASE_URL": REFUSED}, tmp_path=tmp_path)
    line = _one_line(done)
    assert "DATABASE_URL=postgres://goref:***@127.0.0.1:1/goref" in line
    assert "s3cret" not in done.stderr and "refused" in line


def test_runserver_refuses_to_start_without_its_database(tmp_path: Path) -> None:
    done = run_manage(
        "runserver",
        "127.0.0.1:0",
        "--noreload",
        env_extra={"DATABASE_URL": REFUSED},
        tmp_path=tmp_path,
    )
    assert "DATABASE_URL=postgres://goref:***@" in _one_line(done)


def test_an_sqlite_file_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/no/such/dir/goref.sqlite3"
    line = _one_line(run_manage("migrate", env_extra={"DATABASE_URL": url}, tmp_path=tmp_path))
    assert f"DATABASE_URL={url}" in line and "unable to open database file" in line


def test_a_malformed_setting_is_one_line_too(tmp_path: Path) -> None:
    line = _one_line(run_manage("check", env_extra={"DEBUG": "maybe"}, tmp_path=tmp_path))
    assert line.startswith("goref: DEBUG='maybe' is not a boolean")


def test_gunicorn_stops_before_any_worker_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(DATABASE_URL=REFUSED, GOREF_VAR_DIR=str(tmp_path), DEBUG="1", PORT="0")
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Booting worker" not in done.stderr
    assert "goref: DATABASE_URL=postgres://goref:***@127.0.0.1:1/goref" in done.stderr


# --------------------------------------------------------------------------- in process


def test_an_error_of_a_reachable_database_keeps_its_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(startup, "database_problem", lambda: None)

    def execute(argv: list[str]) -> None:
        raise OperationalError("database is locked")

    with pytest.raises(OperationalError, match="locked"):
        startup.run_manage(["manage.py", "migrate"], execute)


def test_an_unreachable_database_exits_with_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(startup, "database_problem", lambda: "goref: DATABASE_URL=x: gone")

    def execute(argv: list[str]) -> None:
        raise OperationalError("connection failed")

    with pytest.raises(SystemExit) as stop:
        startup.run_manage(["manage.py", "migrate"], execute)
    assert stop.value.code == 1
    assert capsys.readouterr().err == "goref: DATABASE_URL=x: gone\n"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgres://u:pw@db:5432/goref", "postgres://u:***@db:5432/goref"),
        ("postgres://u@db/goref", "postgres://u@db/goref"),
        ("sqlite:////var/goref.sqlite3", "sqlite:////var/goref.sqlite3"),
        ("postgres://u:pw@db:port/goref", "(unreadable)"),
    ],
)
def test_the_printed_url_hides_the_password(url: str, shown: str) -> None:
    assert startup.redacted(url) == shown


def test_make_runs_embedded_default_migrates_and_seeds_the_demo(tmp_path: Path) -> None:
    """`make run` with no DATABASE_URL: SQLite in GOREF_VAR_DIR, migrate, seed_demo,
    ensure_admin. The suite itself runs on PostgreSQL, so only this shows that SQLite
    still takes every query the demo makes (a UNION with a default ORDER BY did not)."""
    for command in ("migrate", "seed_demo", "ensure_admin"):
        done = run_manage(command, env_extra={"DEBUG": "1"}, tmp_path=tmp_path)
        assert done.returncode == 0, f"{command}: {(done.stderr or done.stdout)[-3000:]}"
    assert (tmp_path / "goref.sqlite3").exists()
