"""POST /api/v1/auth/token/ and token authentication."""

from __future__ import annotations

from tests.games.api_helpers import assert_error

URL = "/api/v1/auth/token/"


def test_a_player_gets_a_token_and_uses_it(api, alice, password, game):
    response = api.post(URL, {"username": "alice", "password": password}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api.post(f"/api/v1/games/{game.pk}/result/", {"result": "B+R"}, format="json")
    assert response.status_code == 200


def test_each_login_gets_a_new_token_with_an_expiry(api, alice, password):
    first = api.post(URL, {"username": "alice", "password": password}, format="json").json()
    again = api.post(URL, {"username": "alice", "password": password}, format="json").json()
    assert first["token"] != again["token"]
    assert first["expiry"] and again["expiry"]


def test_bad_credentials_are_a_400_in_the_error_shape(api, alice):
    response = api.post(URL, {"username": "alice", "password": "nope"}, format="json")
    assert_error(response, 400, "non_field_errors")


def test_missing_fields_are_named(api, db):
    assert_error(api.post(URL, {}, format="json"), 400, "username", "password")


def test_a_bad_token_is_a_401(api, game):
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert_error(api.get("/api/v1/games/"), 401)
