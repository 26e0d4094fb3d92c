"""``/referee/``: the referee desk (queue, dispute pages), raising a dispute, and naming
a tournament's officials."""

from django.urls import path

from referee import views

app_name = "referee"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("disputes/<int:pk>/", views.dispute_detail, name="dispute"),
    path("disputes/<int:pk>/rule/", views.dispute_rule, name="dispute-rule"),
    path("disputes/<int:pk>/appeal/", views.dispute_appeal, name="dispute-appeal"),
    path("disputes/<int:pk>/accept/", views.dispute_accept, name="dispute-accept"),
    path("disputes/<int:pk>/close/", views.dispute_close, name="dispute-close"),
    path("disputes/<int:pk>/take/", views.dispute_take, name="dispute-take"),
    path("disputes/<int:pk>/kind/", views.dispute_kind, name="dispute-kind"),
    path("games/<int:game_pk>/dispute/", views.dispute_open, name="dispute-open"),
    path(
        "tournaments/<int:pk>/officials/",
        views.tournament_officials,
        name="tournament-officials",
    ),
]
