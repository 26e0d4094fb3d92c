"""The tournament day's pages, under the ``games`` namespace (``games/urls.py`` includes
them): the tournament list, a tournament, a round, the standings, entries, check-in, the close."""

from django.urls import path

from games.tournament import (
    cup_page,
    entries_page,
    pairs_page,
    results_page,
    tables_page,
    teams_page,
    views,
)

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/rounds/<int:number>/", views.round_detail, name="round"),
    path("tournaments/<int:pk>/rounds/<int:number>/where/", views.round_where, name="round-where"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/results/",
        results_page.round_results,
        name="round-results",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/tables/",
        tables_page.round_tables,
        name="round-tables",
    ),
    path("tournaments/<int:pk>/standings/", views.standings, name="standings"),
    path("tournaments/<int:pk>/cup/", cup_page.cup, name="cup"),
    path("tournaments/<int:pk>/teams/", teams_page.teams, name="teams"),
    path("tournaments/<int:pk>/pairs/", pairs_page.pairs, name="pairs"),
    path("tournaments/<int:pk>/entries/", entries_page.entries, name="entries"),
    path("tournaments/<int:pk>/entries/search/", entries_page.player_search, name="entry-search"),
    path("tournaments/<int:pk>/checkin/", views.checkin, name="checkin"),
    path(
        "tournaments/<int:pk>/checkin/<int:entry_pk>/<int:number>/",
        views.checkin_toggle,
        name="checkin-toggle",
    ),
    path(
        "tournaments/<int:pk>/checkin/<int:entry_pk>/withdraw/",
        views.checkin_withdraw,
        name="checkin-withdraw",
    ),
    path("tournaments/<int:pk>/close/", views.close, name="close"),
]
