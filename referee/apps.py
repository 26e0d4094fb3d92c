from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig

if TYPE_CHECKING:
    from referee.models import TournamentOfficials


class RefereeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "referee"
    # The Directors group's admin permissions here (games.people.services.grants).
    director_permissions = (
        ("dispute", ("view",)),
        ("ruling", ("view",)),
        ("tournamentofficials", ("view", "add", "change")),
    )

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from referee.models import TournamentOfficials

        # Seats go with their tournament in a superuser's admin delete, which no service
        # sees: the seated lose the referee desk in their header (config.navigation).
        post_delete.connect(
            _seats_deleted, sender=TournamentOfficials, dispatch_uid="referee.seats_deleted"
        )


def _seats_deleted(sender: object, instance: TournamentOfficials, **kwargs: object) -> None:
    from games import cache as page_cache
    from ops.pages import cache

    cache.touch(*page_cache.users([instance.chief_referee_id, *instance.committee_ids]))
