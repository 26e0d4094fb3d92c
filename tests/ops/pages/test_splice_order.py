"""A fragment a view splices in before its template adds its own is put back at its own
mark: the standings' body (spliced by the view) and the signed-in header (by the
template) once changed places."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EntryFactory, GameFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_signed_in_directors_standings_keep_the_header_above_the_table(
    director: Any, settings: Any
) -> None:
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)
    tournament = TournamentFactory()
    tournament.directors.add(director)
    game = GameFactory(tournament=tournament)
    EntryFactory(tournament=tournament, player=game.black)
    EntryFactory(tournament=tournament, player=game.white)
    client = Client()
    client.force_login(director)
    # No visitor has asked for it: the page is rendered for him, around its fragments.
    response = client.get(
        reverse("games:standings", args=[tournament.pk]), HTTP_ACCEPT_ENCODING="gzip"
    )
    page = gzip.decompress(response.content).decode()
    header, main = page.index("<header>"), page.index("<main>")
    assert header < main < page.index("Standings", main)
    assert "Log out" in page[header:main] and "Log out" not in page[main:]
