"""``manage.py ensure_admin``: the account ``make run`` prints, stable across runs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _development(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``make run`` runs with DEBUG on (pytest-django turns it off)."""
    settings.DEBUG = True
    settings.VAR_DIR = tmp_path


def run(**kwargs: object) -> str:
    out = StringIO()
    call_command("ensure_admin", stdout=out, **kwargs)
    return out.getvalue()


def test_it_creates_a_superuser_and_prints_a_password_that_works(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    printed = run()
    password = (tmp_path / "admin-password").read_text().strip()
    assert f"password {password!r}" in printed
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert admin.check_password(password)


def test_a_second_run_keeps_the_same_account_and_password(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    first = run()
    second = run()
    assert first == second
    assert get_user_model().objects.filter(username="admin").count() == 1


def test_with_debug_off_it_needs_the_password_from_the_environment(
    settings, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    settings.DEBUG = False
    monkeypatch.delenv("GOREF_ADMIN_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="GOREF_ADMIN_PASSWORD"):
        run()
    monkeypatch.setenv("GOREF_ADMIN_PASSWORD", "a-long-chosen-password")
    run()
    assert get_user_model().objects.get(username="admin").check_password("a-long-chosen-password")
