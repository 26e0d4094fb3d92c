"""``/api/v1/``: handicaps, what-if, rating history, recompute, honorary 9p+, the rating
lists' search; promotions (rank history, recent promotions, candidates, policies)."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from ratings.api import views
from ratings.promotion import urls as promotion

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
promotion.register_api(router)

urlpatterns: list[URLPattern | URLResolver] = [
    path("handicap/", views.HandicapView.as_view(), name="api-handicap"),
    path("ratings/what-if/", views.WhatIfView.as_view(), name="api-what-if"),
    path("ratings/recompute/", views.RecomputeView.as_view(), name="api-ratings-recompute"),
    path("ratings/holds/", views.RatingHoldsView.as_view(), name="api-rating-holds"),
    path(
        "ratings/holds/<int:pk>/release/",
        views.RatingHoldReleaseView.as_view(),
        name="api-rating-hold-release",
    ),
    path("players/<int:pk>/history/", views.PlayerHistoryView.as_view(), name="api-player-history"),
    path("players/<int:pk>/honorary/", views.HonoraryView.as_view(), name="api-player-honorary"),
    path(
        "rating-lists/search/",
        views.RatingListSearchView.as_view(),
        name="api-rating-list-search",
    ),
    *promotion.api_urlpatterns,
    *router.urls,
]
