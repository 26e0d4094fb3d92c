"""A real PostgreSQL stopped under a running gunicorn: 503s in the API's shape while it is
down, nothing half-written, and answers again as soon as it is back.

The test runs a throwaway PostgreSQL cluster of its own (initdb in a temporary
folder, on a free port), never the shared server.
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_INTEGRATION, ROOT, wait_for

pytestmark = pytest.mark.integration

SECRET = "outage-" + "a1b2c3d4e5f6g7h8i9j0" * 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _binary(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if not found:
        if REQUIRE_INTEGRATION:
            pytest.fail(f"{name} is needed for this test")
        pytest.skip(f"{name} is not installed")
    return found


class Cluster:
    """A PostgreSQL cluster in a temporary folder, run as the postgres user when we are root."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/goref"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        if self.as_user:
            shutil.chown(self.folder.parent, "postgres")
        self._run(_binary("initdb"), "-D", str(self.folder), "-U", "postgres", "--auth=trust")

    def start(self) -> None:
        self._run(
            _binary("pg_ctl"),
            "-D",
            str(self.folder),
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "-w",
            "-l",
            str(self.folder / "log"),
            "start",
        )

    def stop(self) -> None:
        self._run(_binary("pg_ctl"), "-D", str(self.folder), "-m", "fast", "-w", "stop")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="goref-pg-"))
    server = Cluster(base / "data")
    server.create()
    server.start()
    try:
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{server.port}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE goref")
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # stopped by the test
            server.stop()
        shutil.rmtree(base, ignore_errors=True)


def _request(
    port: int, method: str, path: str, body: dict[str, object] | None = None
) -> tuple[int, str | None, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Host": "127.0.0.1", "Content-Type": "application/json"}
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheader("Retry-After"), response.read().decode()
    finally:
        conn.close()


def test_the_api_answers_503_while_postgresql_is_stopped_and_recovers_when_it_is_back(
    cluster: Cluster, tmp_path: Path
) -> None:
    port = _free_port()
    static = tmp_path / "static"
    static.mkdir()
    (static / "staticfiles.json").write_text('{"paths": {}, "version": "1.1", "hash": ""}')
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        DEBUG="0",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=cluster.url,
        STATIC_ROOT=str(static),
        GOREF_VAR_DIR=str(tmp_path / "var"),
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="1",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    log = (tmp_path / "gunicorn.log").open("wb")
    server = subprocess.Popen(
        [gunicorn, "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:

        def answers() -> bool:
            try:
                return _request(port, "GET", "/api/v1/tournaments/")[0] == 200
            except OSError:
                return False

        assert wait_for(answers, timeout=60, interval=0.3)

        cluster.stop()
        status, retry, body = _request(port, "GET", "/api/v1/tournaments/")
        assert (status, retry) == (503, "10"), body
        assert json.loads(body) == {
            "message": "The database is unavailable. Please try again in a few seconds.",
            "extra": {},
        }
        status, retry, body = _request(port, "GET", "/tournaments/")
        assert (status, retry) == (503, "10") and "unavailable for a moment" in body
        status, _, body = _request(
            port, "POST", "/api/v1/auth/token/", {"username": "x", "password": "y"}
        )
        assert status == 503 and json.loads(body)["extra"] == {}

        cluster.start()
        back = time.monotonic()
        assert wait_for(answers, timeout=30, interval=0.2)
        assert time.monotonic() - back < 10  # the kept connection is tested, then replaced
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
