from django.urls import path

from games import director_views as day
from games import views, views_deadstones

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/rounds/<int:number>/", views.round_detail, name="round"),
    path("tournaments/<int:pk>/standings/", day.standings, name="standings"),
    path("tournaments/<int:pk>/entries/", day.entries, name="entries"),
    path("tournaments/<int:pk>/entries/search/", day.player_search, name="entry-search"),
    path("tournaments/<int:pk>/checkin/", day.checkin, name="checkin"),
    path(
        "tournaments/<int:pk>/checkin/<int:entry_pk>/<int:number>/",
        day.checkin_toggle,
        name="checkin-toggle",
    ),
    path("tournaments/<int:pk>/close/", day.close, name="close"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/record.sgf", views.game_sgf, name="game-sgf"),
    path("games/<int:pk>/submit/", views.game_submit, name="game-submit"),
    path("games/<int:pk>/confirm/", views.game_confirm, name="game-confirm"),
    path("games/<int:pk>/contest/", views.game_contest, name="game-contest"),
    path("games/<int:pk>/enter/", views.game_enter, name="game-enter"),
    path("games/<int:pk>/finalise/", views.game_finalise, name="game-finalise"),
    path("games/<int:pk>/dead-stones/", views_deadstones.dead_stones, name="dead-stones"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("my-games/", views.my_games, name="my-games"),
]
