"""Create the local administrator account if it is missing, and print its credentials.

Used by ``make run`` so a new user can log in to the directors' admin at once.
The password comes from ``GOREF_ADMIN_PASSWORD`` or is generated and kept in
``var/admin-password`` so that repeated runs print the same one.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the 'admin' superuser if it does not exist and print how to log in."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        if not settings.DEBUG and not os.environ.get("GOREF_ADMIN_PASSWORD"):
            raise CommandError(
                "With DEBUG off, set GOREF_ADMIN_PASSWORD to create the admin account."
            )
        secret_file = settings.VAR_DIR / "admin-password"
        password = os.environ.get("GOREF_ADMIN_PASSWORD")
        if not password:
            if secret_file.exists():
                password = secret_file.read_text().strip()
            else:
                password = secrets.token_urlsafe(12)
                settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
                secret_file.write_text(password + "\n")
                secret_file.chmod(0o600)
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created or not user.check_password(password):
            user.set_password(password)
            user.is_staff = user.is_superuser = True
            user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Admin login: username {username!r}, password {password!r} (at /admin/)"
            )
        )
