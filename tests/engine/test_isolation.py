"""The engine imports only the standard library (STYLE.md: a pure core)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import games.engine

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery")


def test_importing_the_engine_and_all_its_modules_loads_no_django_drf_or_celery() -> None:
    modules = [
        f"games.engine.{m.name}"
        for m in pkgutil.iter_modules(games.engine.__path__)
        if m.name != "__main__"
    ]
    code = "\n".join(
        [
            "import importlib, sys",
            "import games.engine",
            *(f"importlib.import_module({name!r})" for name in modules),
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})",
            "print(','.join(bad))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"the engine imported {done.stdout.strip()}"
    assert "games.engine.sgf" in modules and "games.engine.record" in modules
