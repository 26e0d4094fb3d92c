"""Corrections during an event: an entry's rank, rating and McMahon correction after the
start (with the rounds already paired named), ratings from the current lists, and the
bulk changes of a selection, through the API, the entries page and the admin."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import TournamentEntry
from games.people.services.grants import director_grant_admin
from ops.models import AuditEntry
from tests.factories import PlayerFactory, TournamentFactory, enter

URL = "/api/v1/tournaments/"
EGD_LIST = """\
 European Go Database
 (25 Nov 2026)
  10234567  Müller Jörg_Peter                     DE  Berl    3d   --   2310    41  T261101A
  19574643  Abad Jahin                            FR  38GJ   20k   --     15     2  T200202B
""".encode()


def _entry(game: Any) -> TournamentEntry:
    return TournamentEntry.objects.get(tournament=game.tournament, player=game.black)


def test_a_rank_corrected_after_the_start_names_the_rounds_paired(api_as, director, game):
    entry = _entry(game)
    answer = api_as(director).patch(
        f"{URL}{game.tournament_id}/entries/{entry.pk}/", {"rank": "1k"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["rank"] == "1k"
    correction = body["correction"]
    assert correction["paired_rounds"] == [1]
    assert "mcmahon_start" in correction["changes"] and "handicaps" in correction["changes"]
    assert "Round(s) 1 already paired" in correction["warning"]
    row = AuditEntry.objects.filter(action="entry.changed").latest("pk")
    assert row.old_value == {"rank": -3}
    assert row.new_value == {
        "rank": -1,
        "paired_rounds": [1],
        "changes": correction["changes"],
    }
    # The club is the entry's own: no correction to warn about.
    answer = api_as(director).patch(
        f"{URL}{game.tournament_id}/entries/{entry.pk}/", {"club": "Elsewhere"}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["correction"] is None


def test_the_entries_page_warns_what_a_correction_changes(client, director, game):
    entry = _entry(game)
    client.force_login(director)
    page = client.post(
        reverse("games:entries", args=[game.tournament_id]),
        {
            "action": "update",
            "entry": entry.pk,
            "rank": "3k",
            "rating": "",
            "club": "",
            "country": "NZ",
            "final": "on",
            "smms_correction": "2",
        },
        follow=True,
    ).content.decode()
    assert "entry is saved" in page and "Round(s) 1 already paired" in page
    assert _entry(game).smms_correction == 2


def test_ratings_come_from_the_current_list_for_all_or_some(api_as, director, game, tmp_path):
    path = tmp_path / "egd.txt"
    path.write_bytes(EGD_LIST)
    call_command("import_rating_list", str(path), stdout=StringIO())
    game.black.egd_pin = "10234567"
    game.black.save()
    listed_not = PlayerFactory(family_name="Nobody", egd_pin="11111111")
    enter(game.tournament, listed_not)
    url = f"{URL}{game.tournament_id}/entries/bulk/"
    answer = api_as(director).post(url, {"action": "ratings_from_list"}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["changed"], body["unchanged"]) == (1, 2)
    assert body["correction"]["paired_rounds"] == [1]
    entry = _entry(game)
    assert (entry.rating, entry.rating_origin) == (2310, "EGF")
    row = AuditEntry.objects.filter(action="entry.changed", object_id=str(entry.pk)).get()
    assert row.old_value == {"rating": None, "rating_origin": ""}
    assert row.new_value["rating"] == 2310 and row.new_value["paired_rounds"] == [1]
    # Again: nothing changes.
    again = api_as(director).post(url, {"action": "ratings_from_list"}, format="json").json()
    assert again["changed"] == 0


def test_bulk_rank_and_registration_changes_need_a_selection_and_a_director(
    api_as, director, outsider, game
):
    url = f"{URL}{game.tournament_id}/entries/bulk/"
    ids = list(
        TournamentEntry.objects.filter(tournament=game.tournament).values_list("pk", flat=True)
    )
    client = api_as(director)
    assert client.post(url, {"action": "raise"}, format="json").status_code == 400
    answer = client.post(url, {"action": "raise", "entries": ids, "by": 2}, format="json")
    assert answer.status_code == 200 and answer.json()["changed"] == 2
    ranks = dict(TournamentEntry.objects.filter(pk__in=ids).values_list("player_id", "rank"))
    assert ranks == {game.black_id: -1, game.white_id: 0}
    answer = client.post(url, {"action": "preliminary", "entries": ids[:1]}, format="json")
    assert answer.json()["changed"] == 1 and answer.json()["correction"] is None
    assert not TournamentEntry.objects.get(pk=ids[0]).final
    other = enter(TournamentFactory(), PlayerFactory())[0]
    answer = client.post(url, {"action": "final", "entries": [other.pk]}, format="json")
    assert answer.status_code == 400
    assert (
        api_as(outsider).post(url, {"action": "ratings_from_list"}, format="json").status_code
        == 403
    )
    assert (
        client.post(f"{URL}999999/entries/bulk/", {"action": "final"}, format="json").status_code
        == 404
    )


def test_the_admin_actions_change_a_selection(director, game):
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    ids = list(
        TournamentEntry.objects.filter(tournament=game.tournament).values_list("pk", flat=True)
    )
    url = reverse("admin:games_tournamententry_changelist")
    listing = client.get(url)
    assert (
        listing.status_code == 200
        and "Update ratings from the current rating lists" in listing.content.decode()
    )
    page = client.post(
        url, {"action": "lower_rank", "_selected_action": ids}, follow=True
    ).content.decode()
    assert "2 entries changed" in page and "Round(s) 1 already paired" in page
    ranks = dict(TournamentEntry.objects.filter(pk__in=ids).values_list("player_id", "rank"))
    assert ranks == {game.black_id: -4, game.white_id: -3}
    client.post(url, {"action": "make_preliminary", "_selected_action": ids})
    assert not TournamentEntry.objects.filter(pk__in=ids, final=True).exists()
    assert AuditEntry.objects.filter(action="entry.changed").count() == 4


def test_the_entries_page_updates_every_rating_from_the_lists(client, director, game, tmp_path):
    path = tmp_path / "egd.txt"
    path.write_bytes(EGD_LIST)
    call_command("import_rating_list", str(path), stdout=StringIO())
    game.white.egd_pin = "19574643"
    game.white.save()
    client.force_login(director)
    url = reverse("games:entries", args=[game.tournament_id])
    assert "Update ratings from the current lists" in client.get(url).content.decode()
    page = client.post(url, {"action": "ratings"}, follow=True).content.decode()
    assert "1 entries changed, 1 unchanged." in page and "Round(s) 1 already paired" in page
    white = TournamentEntry.objects.get(tournament=game.tournament, player=game.white)
    assert (white.rating, white.rating_origin) == (15, "EGF")
