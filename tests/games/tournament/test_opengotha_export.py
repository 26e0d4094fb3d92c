"""The OpenGotha export at OpenGotha's limits: more than 20 rounds is a
400 that names the formats that hold it, and entrants whose OpenGotha keys clash ("Li"
"Na" twice, "Lin" "A") come out with distinct keys and come back as the same players."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from games.models import GameState, ResultReason, Tournament, TournamentEntry
from games.tournament import selectors as day_selectors
from games.tournament.engine.formats import opengotha
from tests.factories import GameFactory, PlayerFactory, RoundFactory, enter
from tests.games.api_helpers import assert_error

URL = "/api/v1/tournaments/"


def _won(t: Tournament, number: int, black, white, winner: str) -> None:  # type: ignore[no-untyped-def]
    GameFactory(
        tournament=t,
        round=RoundFactory(tournament=t, number=number),
        black=black,
        white=white,
        table=1 + (number * 7 + black.pk) % 5,
        state=GameState.FINAL,
        locked_at=timezone.now(),
        result_winner=winner,
        result_reason=ResultReason.SCORE,
    )


@pytest.fixture
def homonyms(tournament, director):  # type: ignore[no-untyped-def]
    """Two "Li Na" (each with an EGD PIN), "Lin A" (OpenGotha's key LINA as well) and a
    fourth player, two rounds played."""
    li_1 = PlayerFactory(family_name="Li", given_name="Na", egd_pin="11111111")
    li_2 = PlayerFactory(family_name="Li", given_name="Na", egd_pin="22222222")
    lin = PlayerFactory(family_name="Lin", given_name="A")
    other = PlayerFactory(family_name="Okafor", given_name="Ada")
    enter(tournament, li_1, li_2, lin, other)
    _won(tournament, 1, li_1, li_2, "W")
    _won(tournament, 1, lin, other, "B")
    _won(tournament, 2, li_2, lin, "B")
    _won(tournament, 2, other, li_1, "W")
    return tournament


def _keys(xml: bytes) -> list[str]:
    root = ET.fromstring(xml)
    return [
        opengotha.player_key(p.get("name", ""), p.get("firstName", ""))
        for p in root.iterfind("Players/Player")
    ]


def test_more_than_20_rounds_is_a_400_naming_the_other_formats(api, tournament, alice, bob):
    tournament.number_of_rounds = 24
    tournament.save(update_fields=["number_of_rounds"])
    enter(tournament, alice, bob)
    _won(tournament, 21, alice, bob, "B")
    body = assert_error(api.get(f"{URL}{tournament.pk}/export/", {"format": "opengotha"}), 400)
    assert "at most 20 rounds" in body["message"] and "24" in body["message"]
    assert ".h9" in body["message"]
    # The formats without OpenGotha's limit still answer.
    assert api.get(f"{URL}{tournament.pk}/export/", {"format": "egf"}).status_code == 200


def test_twenty_rounds_still_export(api, tournament, alice, bob):
    tournament.number_of_rounds = 20
    tournament.save(update_fields=["number_of_rounds"])
    enter(tournament, alice, bob)
    _won(tournament, 20, alice, bob, "W")
    response = api.get(f"{URL}{tournament.pk}/export/", {"format": "opengotha"})
    assert response.status_code == 200
    again = opengotha.read(response.content)
    assert again.settings.rounds == 20 and [g.round for g in again.games] == [20]


def test_the_standings_pages_opengotha_link_answers_the_refusal(client, tournament, alice, bob):
    tournament.number_of_rounds = 24
    tournament.save(update_fields=["number_of_rounds"])
    enter(tournament, alice, bob)
    _won(tournament, 1, alice, bob, "B")
    page = client.get(f"/tournaments/{tournament.pk}/standings/")
    assert page.status_code == 200
    link = re.search(r'href="([^"]*format=opengotha[^"]*)"', page.content.decode())
    assert link is not None
    response = client.get(link.group(1).replace("&amp;", "&"))
    assert response.status_code == 400 and b"at most 20 rounds" in response.content


def test_clashing_keys_are_made_distinct_with_a_mark_on_the_later_first_names(api, homonyms):
    response = api.get(f"{URL}{homonyms.pk}/export/", {"format": "opengotha"})
    assert response.status_code == 200
    keys = _keys(response.content)
    assert len(keys) == len(set(keys)) == 4
    root = ET.fromstring(response.content)
    names = sorted((p.get("name"), p.get("firstName")) for p in root.iterfind("Players/Player"))
    assert names == [("Li", "Na"), ("Li", "Na *"), ("Lin", "A **"), ("Okafor", "Ada")]
    # Every game names a player the file has.
    for g in root.iterfind("Games/Game"):
        assert g.get("whitePlayer") in keys and g.get("blackPlayer") in keys


def test_a_mark_never_takes_another_entrants_own_key() -> None:
    event = opengotha.read(
        b'<Tournament dataVersion="201"><Players>'
        b'<Player name="Li" firstName="Na"/><Player name="Li" firstName="Na*"/>'
        b"</Players></Tournament>"
    )
    first, second = event.entrants
    twin = dataclasses.replace(first, id=3)
    written = opengotha.write(dataclasses.replace(event, entrants=(first, twin, second)))
    assert sorted(_keys(written)) == ["LINA", "LINA*", "LINA**"]
    assert ("Li", "Na*") in {
        (p.get("name"), p.get("firstName"))
        for p in ET.fromstring(written).iterfind("Players/Player")
    }


def test_the_export_reimports_with_the_same_players_games_and_standings(
    api_as, director, homonyms, settings
):
    from games.people.services.grants import director_grant_admin

    settings.GOREF_RATED_BACKDATE_DAYS = 100_000
    director_grant_admin(user=director)
    client = api_as(director)
    data = client.get(f"{URL}{homonyms.pk}/export/", {"format": "opengotha"}).content
    upload = SimpleUploadedFile("homonyms.xml", data, content_type="text/xml")
    response = client.post(f"{URL}import/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["players"], body["games"]) == (4, 4)
    assert (body["linked"], body["created"], body["review"]) == (4, 0, 0)
    again = Tournament.objects.get(pk=body["tournament"])
    before = day_selectors.standings_of(homonyms)
    after = day_selectors.standings_of(again)
    assert [(r.place, r.player.pk, r.values) for r in after.rows] == [
        (r.place, r.player.pk, r.values) for r in before.rows
    ]
    # The marked spelling is kept on the entry, the player keeps his own name.
    marked = TournamentEntry.objects.get(tournament=again, family_name="Li", given_name="Na *")
    assert marked.player.full_name == "Li Na" and marked.player.egd_pin == "22222222"
