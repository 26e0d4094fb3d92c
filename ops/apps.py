from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Running goref: background job progress, worker heartbeats, health."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    # The Directors group's admin permissions here (games.people.services.grants).
    director_permissions = (
        ("auditentry", ("view",)),
        ("job", ("view",)),
        ("workerheartbeat", ("view",)),
    )

    def ready(self) -> None:
        # The signal that deletes a user's API tokens when his password changes.
        from ops import (
            accounts,  # noqa: F401
            checks,  # noqa: F401  (registers the static manifest check)
            logins,  # noqa: F401  (counts a username's failed logins, remembers its addresses)
        )
        from ops.pages import api  # noqa: F401  (registers the visitors' fast path check)
