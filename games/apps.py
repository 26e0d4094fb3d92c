from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    # What a member of the Directors group may do in the admin
    # (games.people.services.grants): no delete on games or players, since a game with a
    # result is history.
    director_permissions = (
        ("club", ("view", "add", "change")),
        ("player", ("view", "add", "change")),
        ("tournament", ("view", "add", "change")),
        ("tournamententry", ("view", "add", "change", "delete")),
        ("round", ("view", "add", "change")),
        ("game", ("view", "add", "change")),
        ("resultsubmission", ("view",)),
        ("possibleduplicate", ("view",)),
    )

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from games import cache
        from games.people.services.grants import sync_groups
        from games.tournament import tasks as day_tasks

        cache.register()
        # An event's tournament page and standings are rebuilt by the worker after a write
        # (the tournament wing's, so registered here rather than by the core's games.cache).
        day_tasks.register()
        # After every app's post_migrate (auth makes the permissions in its own).
        post_migrate.connect(sync_groups, dispatch_uid="games.people.services.grants.sync_groups")
