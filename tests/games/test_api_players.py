"""/api/v1/players/: readable by all, written by directors and staff."""

from __future__ import annotations

from games.models import Club, Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.games.api_helpers import assert_error

URL = "/api/v1/players/"


def test_anyone_lists_players(api, alice, bob):
    response = api.get(URL)
    assert response.status_code == 200
    names = [p["name"] for p in response.json()["results"]]
    assert names == ["Builder Bob", "Liddell Alice"]
    assert response.json()["results"][1]["rank"] == "3k"


def test_players_list_costs_two_queries_however_long(api, django_assert_num_queries, db):
    club = ClubFactory()
    PlayerFactory.create_batch(15, club=club)
    with django_assert_num_queries(2):
        response = api.get(URL)
    assert response.json()["count"] == 15


def test_players_filter_by_search_club_and_country(api, db):
    wellington = ClubFactory(name="Wellington")
    PlayerFactory(family_name="Cho", given_name="Hun", club=wellington, country="NZ")
    PlayerFactory(family_name="Chong", given_name="Amy", country="AU")
    PlayerFactory(family_name="Smith", given_name="Cho")
    assert api.get(URL, {"search": "cho"}).json()["count"] == 3
    assert api.get(URL, {"search": "cho hun"}).json()["count"] == 1
    assert api.get(URL, {"club": "wellington"}).json()["count"] == 1
    assert api.get(URL, {"country": "au"}).json()["count"] == 1


def test_the_players_search_is_the_entries_pages_accents_order_and_ids_ignored(api, db):
    PlayerFactory(family_name="Müller", given_name="Jörg", egd_pin="12345678")
    PlayerFactory(family_name="Mull", given_name="Anna")
    for typed in ("muller", "jorg mull", "MÜLLER Jörg", "12345678"):
        found = api.get(URL, {"search": typed}).json()["results"]
        assert [p["family_name"] for p in found] == ["Müller"], typed
    assert api.get(URL, {"search": "mull"}).json()["count"] == 2


def test_a_player_detail_and_an_unknown_id(api, alice):
    assert api.get(f"{URL}{alice.pk}/").json()["family_name"] == "Liddell"
    assert_error(api.get(f"{URL}999999/"), 404)
    assert_error(api.get(f"{URL}abc/"), 404)


def test_a_director_creates_a_player(api_as, director, tournament):
    response = api_as(director).post(
        URL,
        {
            "family_name": "Cho",
            "given_name": "Hun",
            "rank": "2d",
            "club": "Wellington",
            "country": "NZ",
            "egd_pin": "12345678",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["rank"], body["club"], body["egd_pin"]) == ("2d", "Wellington", "12345678")
    assert Club.objects.filter(name="Wellington").exists()


def test_staff_create_players_too(api_as, db):
    staff = UserFactory(is_staff=True)
    response = api_as(staff).post(URL, {"family_name": "Cho", "rank": "9p+"}, format="json")
    assert response.status_code == 201
    assert response.json()["rank"] == "9p+"


def test_creating_players_needs_login(api, db):
    assert_error(api.post(URL, {"family_name": "Cho", "rank": "1k"}, format="json"), 401)


def test_a_player_cannot_create_players(api_as, alice, tournament):
    response = api_as(alice).post(URL, {"family_name": "Cho", "rank": "1k"}, format="json")
    assert_error(response, 403)
    assert Player.objects.count() == 1


def test_bad_player_input_names_the_fields(api_as, director, tournament):
    client = api_as(director)
    assert_error(client.post(URL, {"rank": "1k"}, format="json"), 400, "family_name")
    assert_error(client.post(URL, {"family_name": "X", "rank": "40k"}, format="json"), 400, "rank")
    assert_error(
        client.post(URL, {"family_name": "X", "rank": "1k", "egd_pin": "12ab"}, format="json"),
        400,
        "egd_pin",
    )
    assert_error(client.post(URL, {"family_name": ["X"], "rank": 3}, format="json"), 400)


def test_a_duplicate_egd_pin_is_a_400(api_as, director, tournament):
    PlayerFactory(egd_pin="12345678")
    response = api_as(director).post(
        URL, {"family_name": "X", "rank": "1k", "egd_pin": "12345678"}, format="json"
    )
    assert_error(response, 400, "egd_pin")


def test_a_director_updates_a_players_rank(api_as, director, tournament, alice):
    response = api_as(director).patch(f"{URL}{alice.pk}/", {"rank": "1d"}, format="json")
    assert response.status_code == 200
    alice.refresh_from_db()
    assert str(alice.rank) == "1d" and alice.family_name == "Liddell"


def test_a_player_cannot_update_players(api_as, alice, bob, tournament):
    assert_error(api_as(alice).patch(f"{URL}{bob.pk}/", {"rank": "9d"}, format="json"), 403)


def test_players_cannot_be_deleted_or_replaced(api_as, director, tournament, alice):
    assert api_as(director).delete(f"{URL}{alice.pk}/").status_code == 405
    assert api_as(director).put(f"{URL}{alice.pk}/", {}, format="json").status_code == 405
