"""A database outage answers 503: the API in its error shape, pages as a plain page."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tolerant_client() -> Client:
    return Client(raise_request_exception=False)


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query from now on fails as a lost connection does."""
    from django.db.models.sql.compiler import SQLCompiler

    def refuse(*args: object, **kwargs: object) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(SQLCompiler, "execute_sql", refuse)


@pytest.mark.django_db
def test_the_api_answers_503_in_its_error_shape(tolerant_client, database_down):
    response = tolerant_client.get("/api/v1/tournaments/")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "10"
    assert set(response.json()) == {"message", "extra"}
    assert "database is unavailable" in response.json()["message"]


@pytest.mark.django_db
def test_a_page_answers_a_plain_503_page(tolerant_client, database_down):
    response = tolerant_client.get("/tournaments/")
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert b"unavailable for a moment" in response.content


def test_an_error_raised_outside_a_view_is_a_503_too(rf):
    from ops.unavailable import server_error

    request = rf.get("/api/v1/players/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503 and json.loads(response.content)["extra"] == {}
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(rf.get("/")).status_code == 500


def _refused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again: nothing listens there


SCRIPT = """
import django, json
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
out = {}
for path in ("/api/v1/players/1/", "/players/1/", "/api/v1/games/1/result/"):
    if path.endswith("result/"):  # a token: authentication itself asks the database
        r = client.post(path, {"result": "B+R"}, content_type="application/json",
                        HTTP_AUTHORIZATION="Token 0123456789abcdef")
    else:
        r = client.get(path)
    out[path] = [r.status_code, r.get("Retry-After"), r.get("Content-Type"), r.content.decode()[:1000]]
print(json.dumps(out))
"""


def test_with_postgresql_refusing_connections_every_answer_is_a_503(tmp_path: Path):
    """The real thing: psycopg cannot connect at all (nothing listens on the port)."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL"}}
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{_refused_port()}/goref",
        GOREF_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    for path, (status, retry, content_type, body) in answers.items():
        assert (status, retry) == (503, "10"), (path, body)
        if path.startswith("/api/"):
            assert content_type == "application/json" and json.loads(body)["extra"] == {}
        else:
            assert "unavailable for a moment" in body
