"""``/api/v1/``: disputes on games, rulings, appeals; tournaments' officials (``referee.api``)."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from referee import api

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("disputes", api.DisputeViewSet, basename="dispute")

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<int:pk>/disputes/", api.GameDisputeCreateView.as_view(), name="game-disputes"),
    path(
        "tournaments/<int:pk>/officials/",
        api.TournamentOfficialsView.as_view(),
        name="tournament-officials",
    ),
    *router.urls,
]
