"""``/api/v1/``: handicaps, what-if, rating history, recompute, honorary 9p+, even-game choice;
promotions (rank history, recent promotions, candidates)."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from ratings import api, api_promotion

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("promotions/candidates", api_promotion.CandidateViewSet, basename="promotion-candidate")
router.register("promotions/policies", api_promotion.PolicyViewSet, basename="promotion-policy")
router.register("promotions", api_promotion.PromotionListView, basename="promotion")

urlpatterns: list[URLPattern | URLResolver] = [
    path("handicap/", api.HandicapView.as_view(), name="api-handicap"),
    path("ratings/what-if/", api.WhatIfView.as_view(), name="api-what-if"),
    path("ratings/recompute/", api.RecomputeView.as_view(), name="api-ratings-recompute"),
    path("players/<int:pk>/history/", api.PlayerHistoryView.as_view(), name="api-player-history"),
    path("players/<int:pk>/honorary/", api.HonoraryView.as_view(), name="api-player-honorary"),
    path("games/<int:pk>/even-game/", api.EvenGameView.as_view(), name="api-game-even"),
    path("players/<int:pk>/ranks/", api_promotion.PlayerRanksView.as_view(), name="api-player-ranks"),
    *router.urls,
]
