"""The tournament day's pages: standings (public, printable), entries, check-in, close."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.models import Player, TournamentEntry
from games.people import services as people
from ops.models import AuditEntry
from tests.factories import PlayerFactory, enter


@pytest.fixture
def as_director(client: Client, director):  # type: ignore[no-untyped-def]
    client.force_login(director)
    return client


def test_the_standings_page_is_public_and_printable(client, game):
    url = reverse("games:standings", args=[game.tournament_id])
    page = client.get(url).content.decode()
    assert "Standings after round 1" in page and "Liddell Alice" in page
    printable = client.get(url, {"print": "1", "round": "1"}).content.decode()
    assert "@media print" in printable and "window.print()" in printable


def test_only_directors_see_the_entry_list_and_check_in(client, outsider, tournament):
    client.force_login(outsider)
    for name in ("games:entries", "games:checkin", "games:entry-search"):
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 404


def test_the_search_finds_players_by_name_and_says_who_is_entered(as_director, tournament, alice):
    enter(tournament, alice)
    PlayerFactory(family_name="Lidstrom", given_name="Nils")
    url = reverse("games:entry-search", args=[tournament.pk])
    found = as_director.get(url, {"q": "lid"}).json()["players"]
    assert {p["name"]: p["entered"] for p in found} == {
        "Liddell Alice": True,
        "Lidstrom Nils": False,
    }


def test_a_director_enters_a_found_player_and_a_new_one(as_director, tournament, alice):
    url = reverse("games:entries", args=[tournament.pk])
    as_director.post(url, {"action": "enter", "player": alice.pk, "rank": "1k"})
    assert TournamentEntry.objects.get(player=alice).rank == -1
    as_director.post(
        url, {"action": "new", "family_name": "Ng", "rank": "4k", "country": "nz", "club": ""}
    )
    assert TournamentEntry.objects.get(player__family_name="Ng").rank == -4


def test_a_csv_of_players_enters_all_or_nothing(as_director, tournament):
    url = reverse("games:entries", args=[tournament.pk])
    good = b"family_name,given_name,rank,club,country\nOno,Ai,3k,Kyoto,JP\nPark,Min,2d,,KR\n"
    as_director.post(url, {"action": "csv", "file": SimpleUploadedFile("e.csv", good)})
    assert tournament.entries.count() == 2
    bad = b"family_name,given_name,rank\nRoe,Jo,5k\nSmith,Al,strong\n"
    page = as_director.post(
        url, {"action": "csv", "file": SimpleUploadedFile("e.csv", bad)}, follow=True
    ).content.decode()
    assert "Line 3" in page and "Nothing was entered" in page
    assert not Player.objects.filter(family_name="Roe").exists()


def test_one_click_moves_a_cell_through_absent_and_bye(as_director, tournament, alice):
    (entry,) = enter(tournament, alice)
    url = reverse("games:checkin-toggle", args=[tournament.pk, entry.pk, 2])
    as_director.post(url)
    entry.refresh_from_db()
    assert entry.presence(2) == "a"
    as_director.post(url)
    entry.refresh_from_db()
    assert entry.presence(2) == "b"
    assert AuditEntry.objects.filter(action="entry.participation").count() == 2
    grid = as_director.get(reverse("games:checkin", args=[tournament.pk])).content.decode()
    assert "csrfmiddlewaretoken" in grid and ">bye<" in grid


def test_a_player_withdraws_from_round_r_in_one_action(as_director, tournament, alice):
    (entry,) = enter(tournament, alice)
    url = reverse("games:checkin-withdraw", args=[tournament.pk, entry.pk])
    page = as_director.post(url, {"from_round": "2"}, follow=True).content.decode()
    entry.refresh_from_db()
    assert [entry.presence(n) for n in range(1, tournament.number_of_rounds + 1)] == [
        "p",
        *["a"] * (tournament.number_of_rounds - 1),
    ]
    assert "withdraws from round 2 on" in page
    assert AuditEntry.objects.filter(action="entry.withdrawn").count() == 1
    for bad in ("", "²", "0", "99"):  # a message, never a 500 nor a change
        page = as_director.post(url, {"from_round": bad}, follow=True)
        assert page.status_code == 200 and 'class="error"' in page.content.decode(), bad
    assert AuditEntry.objects.filter(action="entry.withdrawn").count() == 1


def test_the_check_in_refuses_a_get_and_a_missing_csrf_token(director, tournament, alice):
    (entry,) = enter(tournament, alice)
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    url = reverse("games:checkin-toggle", args=[tournament.pk, entry.pk, 1])
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 403


def test_the_close_button_waits_for_results(as_director, game):
    url = reverse("games:close", args=[game.tournament_id])
    page = as_director.post(url, follow=True).content.decode()
    assert "no final result yet" in page
    # The blocking game is named, with links to it and to its round's results.
    assert f'href="{reverse("games:game", args=[game.pk])}"' in page
    results = reverse("games:round-results", args=[game.tournament_id, 1])
    assert f'href="{results}#game-{game.pk}"' in page and "round 1, table 1" in page
    game.tournament.refresh_from_db()
    assert game.tournament.closed_at is None


def test_a_rank_change_during_the_event_does_not_rewrite_the_rounds(client, director, game):

    people.player_update(actor=director, player=game.black, rank="1d")
    page = client.get(reverse("games:round", args=[game.tournament_id, 1])).content.decode()
    assert '<span class="muted">3k</span>' in page and "1d" not in page


def test_a_csv_links_returning_players_and_carries_ratings_and_ids(as_director, tournament):
    from tests.factories import PlayerFactory

    known = PlayerFactory(family_name="Ono", given_name="Ai", declared_rank=-10)
    pinned = PlayerFactory(family_name="Nagy", given_name="Bela", egd_pin="12345678")
    url = reverse("games:entries", args=[tournament.pk])
    data = (
        b"family_name,given_name,rank,rating,egd_pin,ffg_licence,aga_id\n"
        b"ONO,Ai,3k,1820,,,\n"  # promoted since: the same person
        b"Nagy,B.,2d,2230,12345678,,\n"  # his PIN, a shorter given name
        b"Park,Min,2d,,,1234567,\n"  # new, with his FFG licence
    )
    page = as_director.post(
        url, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)}, follow=True
    ).content.decode()
    assert "3 players entered from the file: 2 linked, 1 created, 0 queued" in page, page[
        page.find("<main") : page.find("<table")
    ]
    assert tournament.entries.get(player=known).rank == -3
    assert tournament.entries.get(player=known).rating == 1820
    assert tournament.entries.get(player=pinned).rating == 2230
    assert Player.objects.get(family_name="Park").ffg_licence == "1234567"


def test_the_entries_page_finds_list_players_enters_one_and_edits_an_entry(
    as_director, tournament, tmp_path
):
    from io import StringIO

    from django.core.management import call_command

    from tests.ratings.test_rating_lists import EGD_SAMPLE

    egd = tmp_path / "egd.txt"
    egd.write_bytes(EGD_SAMPLE)
    call_command("import_rating_list", str(egd), stdout=StringIO())
    search = reverse("games:entry-search", args=[tournament.pk])
    found = as_director.get(search, {"q": "mül"}).json()
    (hit,) = found["listed"]
    assert hit["federation"] == "EGD" and hit["rank"] == "3d" and hit["rating"] == 2310
    url = reverse("games:entries", args=[tournament.pk])
    page = as_director.post(url, {"action": "list", "list_entry": hit["id"]}, follow=True)
    assert "entered from the EGD list (added to goref)" in page.content.decode()
    entry = tournament.entries.get(player__egd_pin="10234567")
    assert (entry.rank, entry.rating, entry.club, entry.country) == (2, 2310, "Berl", "DE")
    form = {"action": "update", "entry": entry.pk, "rank": "2d", "rating": "2250"}
    form |= {"club": "Hamb", "country": "de", "smms_correction": "1"}
    as_director.post(url, form)
    entry.refresh_from_db()
    assert (entry.rank, entry.rating, entry.club, entry.country) == (1, 2250, "Hamb", "DE")
    assert entry.smms_correction == 1
    page = as_director.post(url, {**form, "rating": "lots"}, follow=True).content.decode()
    assert "is not a whole number" in page
    page = as_director.post(url, {"action": "list", "list_entry": "x"}, follow=True)
    assert "Choose a player from the lists" in page.content.decode()


def test_the_csvs_email_column_lets_invite_every_entrant_reach_them(
    as_director, tournament, mailoutbox, django_capture_on_commit_callbacks
):
    other = PlayerFactory(family_name="Else", given_name="Where", email="")
    from tests.factories import TournamentFactory

    enter(TournamentFactory(name="Elsewhere Open"), other)  # another event's player
    url = reverse("games:entries", args=[tournament.pk])
    data = (
        b"family_name,given_name,rank,email,egd_pin\n"
        b"Ono,Ai,3k,ai@example.org,\n"
        b"Park,Min,2d,,\n"
        b"Else,Where,1d,else@example.org,\n"
    )
    page = as_director.post(
        url, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)}, follow=True
    )
    text = page.content.decode()
    assert "1 e-mail address(es) put on file, 1 left" in text
    assert Player.objects.get(family_name="Ono").email == "ai@example.org"
    assert Player.objects.get(pk=other.pk).email == ""  # his own directors write it
    assert AuditEntry.objects.filter(action="player.updated").count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        as_director.post(url, {"action": "invite"})
    assert [m.to for m in mailoutbox] == [["ai@example.org"]]


def test_a_bad_address_in_the_csv_names_its_line_and_enters_nothing(as_director, tournament):
    url = reverse("games:entries", args=[tournament.pk])
    data = b"family_name,given_name,rank,email\nOno,Ai,3k,ai@example.org\nRoe,Jo,5k,not-mail\n"
    page = as_director.post(
        url, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)}, follow=True
    )
    assert "Line 3: &#x27;not-mail&#x27; is not an e-mail address." in page.content.decode()
    assert tournament.entries.count() == 0


def test_the_check_in_grid_toggles_in_place_and_stays_small(
    as_director, tournament, alice, bob, game
):
    """A click asks for JSON: the cell's new state (and a refusal's words), no reload;
    the grid carries one token for every cell, not a form each."""
    entry = tournament.entries.get(player=alice)
    url = reverse("games:checkin-toggle", args=[tournament.pk, entry.pk, 2])
    answer = as_director.post(url, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    assert answer.json() == {"presence": "a", "label": "absent", "error": ""}
    # Round 1 has his game: he stays playing, and the cell says why.
    refused = as_director.post(
        reverse("games:checkin-toggle", args=[tournament.pk, entry.pk, 1]),
        HTTP_ACCEPT="application/json",
    )
    assert refused.status_code == 409 and refused.json()["presence"] == "p"
    assert refused.json()["error"]
    for i in range(40):
        enter(tournament, PlayerFactory(family_name=f"Many{i}"))
    grid = as_director.get(reverse("games:checkin", args=[tournament.pk])).content.decode()
    cells = 42 * tournament.number_of_rounds
    assert grid.count("formaction=") == cells
    # One token for the cells, one per row's withdraw form, a few for the page's frame.
    assert grid.count("csrfmiddlewaretoken") < 42 + 10 < cells
