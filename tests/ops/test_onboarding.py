"""The README's first accounts, run as written on a fresh database: the operator's
superuser, the director's own account made by ``director_grant --create`` (not a
superuser), who then signs in and adds a tournament."""

from __future__ import annotations

import re
import shlex
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from ops.models import AuditAction, AuditEntry

README = Path(__file__).resolve().parents[2] / "README.md"
STRONG = "correct-horse-battery-9"

pytestmark = pytest.mark.django_db


def first_accounts() -> list[list[str]]:
    """The ``manage.py`` lines of the README's "The first accounts" block, as argv."""
    text = README.read_text()
    start = text.index("**The first accounts.**")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert block is not None, "the README's first-accounts block is gone"
    lines = []
    for line in block.group(1).splitlines():
        command = line.split("#", 1)[0].strip()
        if command:
            argv = shlex.split(command)
            assert argv[:2] == [".venv/bin/python", "manage.py"], line
            lines.append(argv[2:])
    return lines


def test_the_readmes_first_accounts_work_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", STRONG)
    monkeypatch.setenv("GOREF_DIRECTOR_PASSWORD", STRONG)
    steps = first_accounts()
    assert [s[0] for s in steps] == ["createsuperuser", "director_grant", "federation_official"]
    for argv in steps:
        name, *rest = [a.replace("USERNAME", "dana") for a in argv]
        if name == "createsuperuser":  # asks on a terminal; the same with --noinput
            rest = ["--noinput", "--username", "operator", "--email", "op@example.org"]
        if name == "director_grant":
            rest.append("--no-input")
        call_command(name, *rest, stdout=StringIO())
    dana = get_user_model().objects.get(username="dana")
    assert dana.is_staff and not dana.is_superuser
    assert dana.groups.filter(name="Directors").exists()
    assert AuditEntry.objects.filter(action=AuditAction.USER_DIRECTOR_GRANTED).count() == 1

    # The director signs in with his password and adds a tournament in the admin.
    client = Client()
    login = client.post("/accounts/login/", {"username": "dana", "password": STRONG})
    assert login.status_code == 302
    assert client.get("/admin/").status_code == 200
    # Adding tournaments is the federation's to allow (the add_tournament permission).
    from django.contrib.auth.models import Permission

    dana.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert client.get("/admin/games/tournament/add/").status_code == 200


def test_create_refuses_a_weak_password_a_taken_name_and_a_missing_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GOREF_DIRECTOR_PASSWORD", "123")
    with pytest.raises(CommandError, match=r"too short|too common|entirely numeric"):
        call_command("director_grant", "--create", "dana", "--no-input", stdout=StringIO())
    assert not get_user_model().objects.filter(username="dana").exists()
    monkeypatch.setenv("GOREF_DIRECTOR_PASSWORD", STRONG)
    call_command("director_grant", "--create", "dana", "--no-input", stdout=StringIO())
    with pytest.raises(CommandError, match="already called 'Dana'"):
        call_command("director_grant", "--create", "Dana", "--no-input", stdout=StringIO())
    monkeypatch.delenv("GOREF_DIRECTOR_PASSWORD")
    with pytest.raises(CommandError, match="GOREF_DIRECTOR_PASSWORD"):
        call_command("director_grant", "--create", "eve", "--no-input", stdout=StringIO())


def test_granting_an_unknown_user_names_the_create_option() -> None:
    with pytest.raises(CommandError, match="director_grant --create ghost"):
        call_command("director_grant", "ghost", stdout=StringIO())


def test_the_password_is_asked_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter([STRONG, STRONG])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command(
        "director_grant", "--create", "fay", "--email", "fay@example.org", stdout=StringIO()
    )
    fay = get_user_model().objects.get(username="fay")
    assert fay.check_password(STRONG) and fay.email == "fay@example.org"
    answers = iter([STRONG, "other-horse-battery-9"])
    with pytest.raises(CommandError, match="differ"):
        call_command("director_grant", "--create", "gus", stdout=StringIO())
    assert not get_user_model().objects.filter(username="gus").exists()
