"""``manage.py director_grant USERNAME``: let a user into the admin as a tournament
director (staff, in the Directors group), audited with no actor.

An operator's command for a fresh install: after ``createsuperuser`` the superuser can
do the same in the admin (the user's groups); a director then adds tournaments and
directs those he adds.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.people.services.grants import director_grant


class Command(BaseCommand):
    help = "Let a user into the admin as a tournament director."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="The user's login name.")

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        try:
            user = get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(
                f"No user is called {username!r}: make one first "
                "(manage.py createsuperuser, or the admin's users page)."
            ) from None
        director_grant(actor=None, user=user)
        self.stdout.write(
            f"{username} is a director: the admin at /admin/ lets him add tournaments."
        )
