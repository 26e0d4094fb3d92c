"""Audit action names are declared once (``ops.models.AuditAction``): no app module
writes or matches one as an inline string, and every declared name is used."""

from __future__ import annotations

import ast
from pathlib import Path

from ops.models import AuditAction

ROOT = Path(__file__).resolve().parents[1]
APPS = ("config", "games", "ops", "ratings", "referee")
DECLARED_IN = ROOT / "ops" / "models.py"


def _app_modules() -> list[Path]:
    return [
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and path != DECLARED_IN
    ]


def test_no_app_module_writes_an_audit_action_inline() -> None:
    names = {a.value for a in AuditAction}
    inline = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for path in _app_modules()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in names
    ]
    assert inline == [], "use ops.models.AuditAction instead of:\n" + "\n".join(inline)


def test_every_declared_action_is_used() -> None:
    text = "\n".join(path.read_text() for path in _app_modules())
    unused = [a.name for a in AuditAction if f"AuditAction.{a.name}" not in text]
    assert unused == []
