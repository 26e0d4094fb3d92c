from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    # The Directors group's admin permissions here (games.groups): promotion
    # policies, candidates to approve or reject, the rank history.
    director_permissions = (
        ("promotionpolicy", ("view", "add", "change")),
        ("promotioncandidate", ("view", "change")),
        ("rankchange", ("view",)),
    )
