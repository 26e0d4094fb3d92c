"""The settings module boots with zero configuration and refuses malformed values."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3y-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP"


def run_manage(
    *args: str, env_extra: dict[str, str], tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        # DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests for their session, and a
        # deploy check rightly warns about it; a production start never has it.
        if k
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    env["GOREF_VAR_DIR"] = str(tmp_path)
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_boots_with_no_configuration_at_all(tmp_path: Path) -> None:
    done = run_manage("check", env_extra={}, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"DEBUG": "0"}, "SECRET_KEY must be set when DEBUG is off"),
        ({"DEBUG": "0", "SECRET_KEY": "short"}, "SECRET_KEY is too weak"),
        ({"DEBUG": "0", "SECRET_KEY": STRONG_KEY}, "ALLOWED_HOSTS must be set"),
        ({"DATABASE_URL": "mysql//nope"}, "DATABASE_URL='mysql//nope' is not a valid URL"),
        (
            {"REDIS_URL": "http://127.0.0.1:6379"},
            "REDIS_URL='http://127.0.0.1:6379' is not a valid URL",
        ),
        ({"ALLOWED_HOSTS": "a,,b"}, "ALLOWED_HOSTS='a,,b' has an empty entry"),
        ({"GOREF_RATING_SYSTEM": "elo"}, "GOREF_RATING_SYSTEM='elo' is not a rating system"),
        ({"GOREF_PROVISIONAL_GAMES": "-1"}, "GOREF_PROVISIONAL_GAMES=-1 must be at least 0"),
        ({"CELERY_TASK_TIME_LIMIT": "ten"}, "CELERY_TASK_TIME_LIMIT='ten' is not an integer"),
        ({"GOREF_WARM_PAGES": "1", "REDIS_URL": ""}, "GOREF_WARM_PAGES=1 needs REDIS_URL"),
        (
            {"CELERY_TASK_TIME_LIMIT": "4000", "CELERY_VISIBILITY_TIMEOUT": "3600"},
            "must be below CELERY_VISIBILITY_TIMEOUT",
        ),
    ],
)
def test_a_malformed_setting_stops_start_up_with_its_name(
    tmp_path: Path, env: dict[str, str], message: str
) -> None:
    done = run_manage("check", env_extra=env, tmp_path=tmp_path)
    assert done.returncode != 0
    assert message in done.stderr


def test_check_deploy_is_clean_under_production_settings_once_static_files_are_collected(
    tmp_path: Path,
) -> None:
    static = tmp_path / "static"
    production = {
        "DEBUG": "0",
        "SECRET_KEY": STRONG_KEY,
        "ALLOWED_HOSTS": "goref.example.org",
        "STATIC_ROOT": str(static),
    }
    args = ("check", "--deploy", "--fail-level", "WARNING")
    done = run_manage(*args, env_extra=production, tmp_path=tmp_path)
    assert done.returncode != 0
    assert "goref.E001" in done.stderr and "collectstatic" in done.stderr

    static.mkdir()  # what collectstatic leaves (its content does not matter to the check)
    (static / "staticfiles.json").write_text('{"paths": {}, "version": "1.1", "hash": ""}')
    done = run_manage(*args, env_extra=production, tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_without_redis_the_broker_is_the_embedded_file_system_transport(settings) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings as live

    if live.REDIS_URL:
        assert live.CELERY_BROKER_URL == live.REDIS_URL
        assert (
            live.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > live.CELERY_TASK_TIME_LIMIT
        )
    else:
        assert live.CELERY_BROKER_URL == live.EMBEDDED_BROKER_URL
    # Never eager mode: tasks always go through a broker to a worker process.
    assert not getattr(live, "CELERY_TASK_ALWAYS_EAGER", False)


def test_the_embedded_broker_connects_without_a_warning(caplog, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings as live
    from kombu import Connection

    folders = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path),
    }
    with (
        caplog.at_level(logging.WARNING),
        Connection(live.EMBEDDED_BROKER_URL, transport_options=folders) as conn,
    ):
        conn.SimpleQueue("goref-test").put({"ok": 1})
    assert conn.transport_cls == "filesystem"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_the_rating_systems_settings_accepts_are_the_ones_ratings_knows() -> None:
    from config import settings as module
    from ratings.scales import ALGORITHM_VERSIONS
    from ratings.systems import DEFAULT_SYSTEM, SYSTEMS

    assert module.SYSTEMS is SYSTEMS and module.DEFAULT_SYSTEM == DEFAULT_SYSTEM == "egf2021"
    assert set(ALGORITHM_VERSIONS) == set(SYSTEMS) == {"egf2021", "egf1998", "glicko2", "ogs"}
