"""The promotion engine is pure: it imports only the standard library (STYLE.md, issue 7)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery")
MODULES = (
    "ratings.promotion",
    "ratings.promotion.criteria",
    "ratings.promotion.policy",
    "ratings.promotion.evaluate",
)


def test_importing_the_promotion_engine_loads_no_django_drf_or_celery() -> None:
    code = "\n".join(
        [
            "import importlib, sys",
            *(f"importlib.import_module({name!r})" for name in MODULES),
            "from ratings.promotion import DEFAULT_POLICY, PromotionPolicy",
            "assert PromotionPolicy.from_dict(DEFAULT_POLICY.to_dict()) == DEFAULT_POLICY",
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})",
            "print(','.join(bad))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"ratings.promotion imported {done.stdout.strip()}"
