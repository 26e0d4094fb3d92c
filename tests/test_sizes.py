"""Sizes that crept back once stay checked: no module of the apps over 700 lines, and no
function over 100 lines outside the pure kernels (the packages of the import contract
"pure", where a long loop may be the fast one).  README, "Architecture"."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "ops", "games", "referee", "ratings", "bench")
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 100
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PURE = next(c for c in CONTRACTS["contracts"] if c["id"] == "pure")["source_modules"]


def _modules() -> list[tuple[str, Path]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            found.append((name, path))
    return found


def _pure(name: str) -> bool:
    return any(name == p or name.startswith(f"{p}.") for p in PURE)


def test_no_module_is_over_700_lines() -> None:
    long = {
        name: lines
        for name, path in _modules()
        if (lines := path.read_text().count("\n")) > MAX_MODULE_LINES
    }
    assert not long, f"split these along their seams: {long}"


def test_no_function_outside_the_pure_kernels_is_over_100_lines() -> None:
    long = {}
    for name, path in _modules():
        if _pure(name):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{name}.{node.name}"] = lines
    assert not long, f"split these into steps of their own: {long}"
