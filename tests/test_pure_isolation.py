"""The pure packages import only the standard library, checked at run time.

The list is ``pyproject.toml``'s, which the import-linter contract "pure" must
match; each package is imported in a fresh interpreter, so a leak is blamed on
the package that caused it, and a new module under a package is covered.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = ("django", "rest_framework", "celery")
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _strict_modules() -> list[str]:
    """The mypy override that turns on the strict flags: its module patterns."""
    for override in CONFIG["tool"]["mypy"]["overrides"]:
        if override.get("disallow_untyped_defs"):
            return [str(m) for m in override["module"]]
    raise AssertionError("pyproject.toml has no strict mypy override")


PURE = [m.removesuffix(".*") for m in _strict_modules()]


def _package(name: str) -> list[str]:
    """The module and, for a package, every module under it (not ``__main__``: it runs
    the command line)."""
    module = importlib.import_module(name)
    if not hasattr(module, "__path__"):
        return [name]
    found = pkgutil.walk_packages(module.__path__, prefix=f"{name}.")
    return [name, *(m.name for m in found if not m.name.endswith(".__main__"))]


def test_the_import_contract_names_the_same_pure_modules() -> None:
    contracts = {c["id"]: c for c in CONFIG["tool"]["importlinter"]["contracts"]}
    assert sorted(contracts["pure"]["source_modules"]) == sorted(PURE)


def test_a_package_pattern_in_the_list_is_a_package() -> None:
    for pattern in _strict_modules():
        module = importlib.import_module(pattern.removesuffix(".*"))
        assert pattern.endswith(".*") == hasattr(module, "__path__"), pattern


@pytest.mark.parametrize("name", PURE)
def test_a_pure_package_loads_no_django_drf_or_celery(name: str) -> None:
    modules = _package(name)
    if hasattr(importlib.import_module(name), "__path__"):
        assert len(modules) > 1, f"the walk found no module under {name}"
    code = "\n".join(
        [
            "import importlib, sys",
            *(f"importlib.import_module({m!r})" for m in modules),
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})",
            "print(','.join(bad))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"{name} and its modules imported {done.stdout.strip()}"
