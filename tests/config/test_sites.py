"""Sites apart: every key a site keeps in Redis carries its name (``GOREF_SITE``, by
default the database's), and a start on a Redis DB that serves the same name for another
database is refused (config.startup.site_problem)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from config.env import ConfigError, site_name
from tests.config.test_settings import STRONG_KEY, run_manage
from tests.config.test_trusted_proxies import _deploy_check


@pytest.mark.parametrize(
    ("given", "database", "site"),
    [
        ("", "goref", "goref"),
        ("", "/srv/goref/var/goref.sqlite3", "goref"),
        ("", "EGC 2011", "egc-2011"),
        ("", "", "goref"),
        ("staging", "goref", "staging"),
    ],
)
def test_the_site_is_named_by_the_setting_or_the_database(
    given: str, database: str, site: str
) -> None:
    assert site_name(given, database) == site


def test_a_malformed_site_name_stops_start_up(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        site_name("Main Site", "goref")
    done = run_manage("check", env_extra={"GOREF_SITE": "a:b"}, tmp_path=tmp_path)
    assert done.returncode != 0 and "GOREF_SITE" in done.stderr


def test_a_key_made_on_this_host_is_a_deploy_warning(tmp_path: Path) -> None:
    assert "goref.W002" in _deploy_check(tmp_path, GOREF_SECRET_KEY_FILE="var/secret-key")
    assert "goref.W002" not in _deploy_check(tmp_path, SECRET_KEY=STRONG_KEY)


@pytest.mark.integration
def test_a_second_database_on_a_redis_db_serving_its_site_name_is_refused(
    tmp_path: Path, redis_url: str
) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    key = "sites-test:goref-site"
    client.delete(key)
    env = {"REDIS_URL": redis_url, "GOREF_SITE": "sites-test"}
    assert run_manage("migrate", "-v0", env_extra=env, tmp_path=tmp_path).returncode == 0
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    serve = ["runserver", "--noreload", f"127.0.0.1:{busy.getsockname()[1]}"]
    try:
        # The first start marks the Redis DB as this database's (then stops on the port).
        first = run_manage(*serve, env_extra=env, tmp_path=tmp_path)
        assert "already serves" not in first.stderr
        assert client.get(key).decode().startswith("sqlite:")
        client.set(key, "postgresql:goref:2026-01-01")  # another site took the name first
        done = run_manage(*serve, env_extra=env, tmp_path=tmp_path)
        assert done.returncode == 1
        assert "already serves the site 'sites-test'" in done.stderr
        assert "GOREF_SITE" in done.stderr and "Traceback" not in done.stderr
    finally:
        busy.close()
        client.delete(key)
