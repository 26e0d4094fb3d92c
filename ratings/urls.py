"""``/ratings/``: public rating lookups, lists, handicaps, what-if, promotions."""

from django.urls import path
from django.views.generic import RedirectView

from ratings import views
from ratings.promotion import urls as promotion

app_name = "ratings"
urlpatterns = [
    path("", views.index, name="index"),
    path("players/", views.search, name="search"),
    # The one player page (rating, rank, history and games) is games' /players/<id>/.
    path(
        "players/<int:pk>/",
        RedirectView.as_view(pattern_name="games:player", permanent=True),
        name="player",
    ),
    path("head-to-head/", views.head_to_head, name="head-to-head"),
    path("top/<kind>/", views.top, name="top"),
    path("list.csv", views.list_csv, name="list-csv"),
    path("list.txt", views.list_egd, name="list-egd"),
    path("handicap/", views.handicap, name="handicap"),
    path("what-if/", views.what_if_page, name="what-if"),
    *promotion.urlpatterns,
]
