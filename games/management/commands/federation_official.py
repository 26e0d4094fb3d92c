"""``manage.py federation_official grant|revoke USERNAME`` and ``... list``: who may decide
for the whole federation (promotion policies, honorary titles, full recomputes).

An operator's command (audited with no actor), for a server where nobody is a
superuser yet; in the admin, a superuser uses the user list's actions instead.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.people.services.grants import (
    federation_official_grant,
    federation_official_revoke,
    federation_officials,
)


class Command(BaseCommand):
    help = "Name, revoke or list the federation officials."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("grant", "revoke", "list"))
        parser.add_argument("username", nargs="?", help="The user's login name.")

    def handle(self, *args: Any, **options: Any) -> None:
        action, username = options["action"], options["username"]
        if action == "list":
            for user in federation_officials():
                self.stdout.write(user.get_username())
            return
        if not username:
            raise CommandError(f"Say whom to {action}: federation_official {action} USERNAME.")
        try:
            user = get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user is called {username!r}.") from None
        if action == "grant":
            federation_official_grant(actor=None, user=user)
            self.stdout.write(f"{username} is now a federation official.")
        else:
            federation_official_revoke(actor=None, user=user)
            self.stdout.write(f"{username} is no longer a federation official.")
