"""``/api/v1/``: disputes on games, rulings, appeals; tournaments' officials (``referee.api.views``)."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from referee.api import views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("disputes", views.DisputeViewSet, basename="dispute")

urlpatterns: list[URLPattern | URLResolver] = [
    path("games/<int:pk>/disputes/", views.GameDisputeCreateView.as_view(), name="game-disputes"),
    path(
        "tournaments/<int:pk>/officials/",
        views.TournamentOfficialsView.as_view(),
        name="tournament-officials",
    ),
    *router.urls,
]
