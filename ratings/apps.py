from django.apps import AppConfig

from games.cache import RATINGS, player
from ops.pages import cache


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    # The Directors group's admin permissions here (games.people.services.grants): promotion
    # policies, candidates to approve or reject, the rank history.
    director_permissions = (
        ("promotionpolicy", ("view", "add", "change")),
        ("promotioncandidate", ("view", "change")),
        ("rankchange", ("view",)),
    )

    def ready(self) -> None:
        from ratings.models import HonoraryTitle, PlayerRating, RankChange

        # What a single saved row changes; a recompute bumps RATINGS itself.
        cache.register(HonoraryTitle, lambda t: [player(t.player_id), RATINGS])
        cache.register(RankChange, lambda c: [player(c.player_id), RATINGS])
        cache.register(PlayerRating, lambda r: [player(r.player_id), RATINGS])
