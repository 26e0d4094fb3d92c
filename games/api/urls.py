"""``/api/v1/``: token login, players, tournaments (entries, from the rating lists too),
games and their results, the even-game choice."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import DefaultRouter

from games.api import views
from games.tournament.api import entries, rounds, tables, teams, tournaments

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("players", views.PlayerViewSet, basename="player")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")
router.register("games", views.GameViewSet, basename="game")
router.register(
    r"tournaments/(?P<tournament_pk>[0-9]{1,18})/entries", entries.EntryViewSet, basename="entry"
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/pairing/",
        rounds.RoundPairingView.as_view(),
        name="tournament-round-pairing",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/tables/",
        tables.RoundTablesView.as_view(),
        name="tournament-round-tables",
    ),
    path(
        "tournaments/<int:pk>/entries/<int:entry_pk>/table-pin/",
        tables.EntryTablePinView.as_view(),
        name="api-entry-table-pin",
    ),
    path("tournaments/<int:pk>/teams/", teams.TeamsView.as_view(), name="api-teams"),
    path(
        "tournaments/<int:pk>/entries/pair/",
        teams.PairEntryView.as_view(),
        name="api-entry-pair",
    ),
    path(
        "tournaments/<int:pk>/teams/<int:team_pk>/lineup/",
        teams.TeamLineupView.as_view(),
        name="api-team-lineup",
    ),
    path(
        "tournaments/<int:pk>/team-params/",
        teams.TeamParamsView.as_view(),
        name="api-team-params",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:round_number>/team-pairing/",
        teams.TeamPairingView.as_view(),
        name="tournament-round-team-pairing",
    ),
    path("games/<int:pk>/even-game/", rounds.EvenGameView.as_view(), name="api-game-even"),
    path(
        "tournaments/<int:pk>/entries/from-list/",
        entries.EntryFromListView.as_view(),
        name="api-entry-from-list",
    ),
    *router.urls,
]
