"""GOREF_TRUSTED_PROXIES: the proxies whose X-Forwarded-For the login throttle reads
(ops.logins.client_address); a malformed entry stops start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.config.test_settings import STRONG_KEY, run_manage


@pytest.mark.parametrize("value", ["nginx", "10.0.0.0/33", "127.0.0.1,,10.0.0.1"])
def test_a_malformed_proxy_stops_start_up(tmp_path: Path, value: str) -> None:
    done = run_manage("check", env_extra={"GOREF_TRUSTED_PROXIES": value}, tmp_path=tmp_path)
    assert done.returncode != 0
    assert "GOREF_TRUSTED_PROXIES" in done.stderr


def _deploy_check(tmp_path: Path, **env: str) -> str:
    static = tmp_path / "static"
    static.mkdir(exist_ok=True)
    (static / "staticfiles.json").write_text('{"paths": {}, "version": "1.1", "hash": ""}')
    production = {
        "DEBUG": "0",
        "SECRET_KEY": STRONG_KEY,
        "ALLOWED_HOSTS": "goref.example.org",
        "STATIC_ROOT": str(static),
        "SECURE_PROXY_SSL_HEADER": "1",
        **env,
    }
    done = run_manage("check", "--deploy", env_extra=production, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_a_proxy_with_no_trusted_address_is_a_deploy_warning(tmp_path: Path) -> None:
    assert "goref.W001" in _deploy_check(tmp_path)


def test_naming_the_proxy_silences_it(tmp_path: Path) -> None:
    out = _deploy_check(tmp_path, GOREF_TRUSTED_PROXIES="127.0.0.1, ::1, 10.0.0.0/8")
    assert "goref.W001" not in out and "no issues" in out
