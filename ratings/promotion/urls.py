"""Promotion routes: the pages (under ``/ratings/``) and the API (under ``/api/v1/``)."""

from django.urls import URLPattern, path
from rest_framework.routers import BaseRouter

from ratings.promotion import api, views

urlpatterns = [
    path("promotions/", views.promotions, name="promotions"),
    path("promotions/<int:pk>/certificate/", views.certificate, name="certificate"),
]

api_urlpatterns: list[URLPattern] = [
    path("players/<int:pk>/ranks/", api.PlayerRanksView.as_view(), name="api-player-ranks"),
]


def register_api(router: BaseRouter) -> None:
    """The promotion viewsets, on the ratings API's router (longest prefix first)."""
    router.register("promotions/candidates", api.CandidateViewSet, basename="promotion-candidate")
    router.register("promotions/policies", api.PolicyViewSet, basename="promotion-policy")
    router.register("promotions", api.PromotionListView, basename="promotion")
