from django.apps import AppConfig


class RefereeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "referee"
    # The Directors group's admin permissions here (games.groups).
    director_permissions = (
        ("dispute", ("view",)),
        ("ruling", ("view",)),
        ("tournamentofficials", ("view", "add", "change")),
    )
