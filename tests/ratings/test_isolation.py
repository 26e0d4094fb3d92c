"""The pure ratings modules import only the standard library (STYLE.md: a pure core)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import ratings.systems

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery")


def test_the_pure_ratings_modules_load_no_django_drf_or_celery() -> None:
    modules = [
        "ratings.systems",
        *(f"ratings.systems.{m.name}" for m in pkgutil.iter_modules(ratings.systems.__path__)),
        "ratings.handicap",
        "ratings.stones",
        "ratings.ranks",
    ]
    code = "\n".join(
        [
            "import importlib, sys",
            *(f"importlib.import_module({name!r})" for name in modules),
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})",
            "print(','.join(bad))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"the pure ratings modules imported {done.stdout.strip()}"
    assert {"ratings.systems.egf", "ratings.systems.glicko2"} <= set(modules)
