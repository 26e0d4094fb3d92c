"""The pure core imports only the standard library (STYLE.md: a pure core; issue 7).

One test per pure package, each in a fresh interpreter so that a leak is
blamed on the package that caused it: the rules engine, the rating systems
with the ratings value modules, the promotion engine, and the referee's
ruling functions (standard library and the engine).  A new module under a
package is covered without touching this file.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("django", "rest_framework", "celery")


def _package(name: str) -> list[str]:
    """The package and every module under it (not ``__main__``: importing it runs the CLI)."""
    package = importlib.import_module(name)
    found = pkgutil.walk_packages(package.__path__, prefix=f"{name}.")
    return [name, *(m.name for m in found if not m.name.endswith(".__main__"))]


PURE = [
    pytest.param(
        _package("games.engine"), {"games.engine.sgf", "games.engine.record"}, (),
        id="games.engine",
    ),
    pytest.param(
        [*_package("ratings.systems"), "ratings.handicap", "ratings.stones", "ratings.ranks",
         "ratings.scales", "ratings.charts", "ratings.exports"],
        {"ratings.systems.egf", "ratings.systems.glicko2"}, (),
        id="ratings.systems+values",
    ),
    pytest.param(
        _package("ratings.promotion.engine"),
        {"ratings.promotion.engine.criteria", "ratings.promotion.engine.policy", "ratings.promotion.engine.evaluate"},
        ("from ratings.promotion.engine import DEFAULT_POLICY, PromotionPolicy",
         "assert PromotionPolicy.from_dict(DEFAULT_POLICY.to_dict()) == DEFAULT_POLICY"),
        id="ratings.promotion.engine",
    ),
    pytest.param(["referee.remedies"], {"referee.remedies"}, (), id="referee.remedies"),
]  # fmt: skip


@pytest.mark.parametrize(("modules", "expected", "checks"), PURE)
def test_a_pure_package_loads_no_django_drf_or_celery(
    modules: list[str], expected: set[str], checks: tuple[str, ...]
) -> None:
    assert expected <= set(modules), f"the walk missed {sorted(expected - set(modules))}"
    code = "\n".join(
        [
            "import importlib, sys",
            *(f"importlib.import_module({name!r})" for name in modules),
            *checks,
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})",
            "print(','.join(bad))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"{modules[0]} and its modules imported {done.stdout.strip()}"
