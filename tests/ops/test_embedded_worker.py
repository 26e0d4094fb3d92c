"""The zero-configuration default of ``make run``: SQLite and a real worker on the file-system broker."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, Worker, wait_for


def test_a_real_worker_runs_on_sqlite_and_the_file_system_broker(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["GOREF_VAR_DIR"] = str(tmp_path)
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrate.returncode == 0, migrate.stderr

    worker = Worker(env, concurrency=1, log=tmp_path / "worker.log")
    try:
        worker.wait_ready()
        log = worker.log.read_text()
        assert "filesystem" in log

        def heartbeat_rows() -> int:
            with sqlite3.connect(tmp_path / "goref.sqlite3") as db:
                return int(db.execute("SELECT COUNT(*) FROM ops_workerheartbeat").fetchone()[0])

        assert wait_for(lambda: heartbeat_rows() == 1, timeout=30)
        assert (tmp_path / "broker" / "queue").is_dir()
    finally:
        worker.stop()
