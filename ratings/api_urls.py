"""``/api/v1/``: handicaps, what-if, rating history, recompute, honorary 9p+, even-game choice."""

from django.urls import URLPattern, path

from ratings import api

urlpatterns: list[URLPattern] = [
    path("handicap/", api.HandicapView.as_view(), name="api-handicap"),
    path("ratings/what-if/", api.WhatIfView.as_view(), name="api-what-if"),
    path("ratings/recompute/", api.RecomputeView.as_view(), name="api-ratings-recompute"),
    path("players/<int:pk>/history/", api.PlayerHistoryView.as_view(), name="api-player-history"),
    path("players/<int:pk>/honorary/", api.HonoraryView.as_view(), name="api-player-honorary"),
    path("games/<int:pk>/even-game/", api.EvenGameView.as_view(), name="api-game-even"),
]
