"""``manage.py director_grant USERNAME``: let a user into the admin as a tournament
director (staff, in the Directors group), audited with no actor.

``--create`` makes the director's own account first (never a superuser): the password
is asked twice on the terminal, or, with ``--no-input``, read from the environment
variable ``GOREF_DIRECTOR_PASSWORD`` (scripts and tests).  An operator's command for a
fresh install (README, "The first accounts"); a director then adds tournaments and
directs those he adds.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.people.services.grants import director_create, director_grant

PASSWORD_ENV = "GOREF_DIRECTOR_PASSWORD"


class Command(BaseCommand):
    help = "Let a user into the admin as a tournament director (--create: make his account)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="The user's login name.")
        parser.add_argument(
            "--create",
            action="store_true",
            help="Make the director's account first (asks for his password; not a superuser).",
        )
        parser.add_argument("--email", default="", help="With --create: his e-mail address.")
        parser.add_argument(
            "--no-input",
            action="store_false",
            dest="interactive",
            help=f"With --create: read the password from {PASSWORD_ENV} instead of asking.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        if options["create"]:
            password = self._password(options["interactive"])
            try:
                director_create(
                    actor=None, username=username, password=password, email=options["email"]
                )
            except ValidationError as e:
                raise CommandError(" ".join(e.messages)) from None
            self.stdout.write(
                f"{username} is a new director (not a superuser): he signs in at /admin/ "
                "and adds tournaments."
            )
            return
        try:
            user = get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(
                f"No user is called {username!r}: make the director's account with "
                f"manage.py director_grant --create {username} (createsuperuser would "
                "make him a superuser)."
            ) from None
        director_grant(actor=None, user=user)
        self.stdout.write(
            f"{username} is a director: the admin at /admin/ lets him add tournaments."
        )

    def _password(self, interactive: bool) -> str:
        if not interactive:
            password = os.environ.get(PASSWORD_ENV, "")
            if not password:
                raise CommandError(f"--no-input reads the password from {PASSWORD_ENV}: set it.")
            return password
        first = getpass.getpass("The director's password: ")
        if first != getpass.getpass("The same again: "):
            raise CommandError("The two passwords differ: nothing was made.")
        return first
