from django.urls import path

from games.people import urls as people_urls
from games.tournament import urls as tournament_urls
from games.views import deadstones, games, home, players, report

app_name = "games"
urlpatterns = [
    path("", home.home, name="home"),
    *tournament_urls.urlpatterns,
    *people_urls.urlpatterns,
    path("games/<int:pk>/", games.game_detail, name="game"),
    path("games/<int:pk>/record.sgf", games.game_sgf, name="game-sgf"),
    path("games/<int:pk>/submit/", games.game_submit, name="game-submit"),
    path("games/<int:pk>/confirm/", games.game_confirm, name="game-confirm"),
    path("games/<int:pk>/contest/", games.game_contest, name="game-contest"),
    path("games/<int:pk>/enter/", games.game_enter, name="game-enter"),
    path("games/<int:pk>/finalise/", games.game_finalise, name="game-finalise"),
    path("games/<int:pk>/dead-stones/", deadstones.dead_stones, name="dead-stones"),
    path("r/<int:game_id>/<str:code>/", report.report_page, name="report"),
    path("players/<int:pk>/", players.player_detail, name="player"),
    path("my-games/", players.my_games, name="my-games"),
]
