"""Request limits: an oversized body is refused with 413 before it is read, deep JSON and
NUL characters with 400, and oversized or binary uploads with a clear error."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from games import services
from games.models import Game, Player
from games.people.services.grants import director_grant_admin
from games.people.services.imports import players_import_csv
from tests.games.api_helpers import assert_error

TOKEN_URL = "/api/v1/auth/token/"


class Exploding(io.BytesIO):
    """A request body that fails the test if anything reads it."""

    def read(self, *args: Any) -> bytes:
        raise AssertionError("the body was read")

    readline = read


def test_the_default_limit_is_a_few_megabytes(settings: Any) -> None:
    assert settings.GOREF_SGF_MAX_BYTES < settings.GOREF_MAX_REQUEST_BYTES < 30_000_000


def test_a_body_over_the_limit_is_a_413_before_it_is_read(db: Any, client: Client) -> None:
    response = client.generic(
        "POST",
        TOKEN_URL,
        content_type="application/json",
        CONTENT_LENGTH=str(100_000_000),
        **{"wsgi.input": Exploding()},
    )
    assert response.status_code == 413
    assert "larger than 4 MB" in response.json()["message"]


@override_settings(GOREF_MAX_REQUEST_BYTES=2_000)
def test_a_chunked_body_without_a_length_is_cut_at_the_limit(db: Any, client: Client) -> None:
    body = json.dumps({"username": "x" * 5000, "password": "y"}).encode()
    response = client.generic(
        "POST",
        TOKEN_URL,
        data=b"",
        content_type="application/json",
        CONTENT_LENGTH="",
        CONTENT_TYPE="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(body)},
    )
    assert response.status_code == 413


@override_settings(GOREF_MAX_REQUEST_BYTES=2_000)
def test_a_chunked_body_under_the_limit_is_read(db: Any, client: Client) -> None:
    body = json.dumps({"username": "nobody", "password": "y"}).encode()
    response = client.generic(
        "POST",
        TOKEN_URL,
        data=b"",
        content_type="application/json",
        CONTENT_LENGTH="",
        CONTENT_TYPE="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(body)},
    )
    assert response.status_code == 400  # read and judged: wrong credentials
    assert "Unable to log in" in response.json()["message"]


@pytest.mark.parametrize("depth", [40, 1_000, 100_000])
def test_deeply_nested_json_is_a_400_for_anyone(db: Any, api: Any, depth: int) -> None:
    body = "[" * depth + "]" * depth
    response = api.post(TOKEN_URL, body, content_type="application/json")
    assert_error(response, 400)
    assert "nested deeper than 32" in response.json()["message"]


def test_json_nested_within_the_limit_still_parses(db: Any, api: Any) -> None:
    body = {"username": "x", "password": "y", "extra": [[[[1]]]]}
    assert (
        api.post(TOKEN_URL, body, format="json").status_code == 400
    )  # bad login, not a parse error


def test_a_nul_character_in_json_is_a_400(game: Game, api_as: Any, alice: Any) -> None:
    response = api_as(alice).post(
        f"/api/v1/games/{game.pk}/result/", {"result": "B+R", "comment": "a\x00b"}, format="json"
    )
    assert_error(response, 400)
    assert "NUL" in response.json()["message"]
    assert ResultCount.of(game) == 0


class ResultCount:
    @staticmethod
    def of(game: Game) -> int:
        return game.submissions.count()


SGF = b"(;GM[1]FF[4]SZ[19]KM[6.5];B[pd];W[dp])"


def test_an_uploaded_sgf_with_a_nul_byte_is_a_form_error(
    game: Game, client: Client, alice: Any
) -> None:
    client.force_login(alice.user)
    upload = SimpleUploadedFile("game.sgf", SGF.replace(b";W[dp]", b";W[dp]C[\x00]"))
    response = client.post(
        reverse("games:game-submit", args=[game.pk]), {"result": "B+R", "sgf_file": upload}
    )
    assert response.status_code == 200
    assert b"contains a NUL byte" in response.content
    assert ResultCount.of(game) == 0


def test_an_sgf_with_a_nul_byte_is_refused_by_the_service(game: Game, alice: Any) -> None:
    with pytest.raises(Exception) as caught:
        services.game_result_submit(
            actor=alice.user, game=game, result="B+R", sgf=SGF.replace(b"KM", b"\x00KM")
        )
    assert "NUL" in str(caught.value)


HEADER = "family_name,given_name,rank\n"


def test_a_csv_cell_over_the_csv_modules_limit_is_a_row_error(db: Any) -> None:
    data = HEADER + "Kim,Ji,4d\n" + '"' + "x" * 140_000 + '",Su,1k\n'
    report = players_import_csv(actor=None, data=data.encode())
    assert not report.ok
    assert [(e.row, e.field) for e in report.errors] == [(3, "file")]
    assert "cannot be read as CSV" in str(report.errors[0])
    assert not Player.objects.exists()


def test_a_csv_with_a_nul_byte_is_refused_naming_its_line(db: Any) -> None:
    data = HEADER + "Kim,Ji,4d\nLee,S\x00u,1k\n"
    report = players_import_csv(actor=None, data=data.encode())
    assert [(e.row, e.field) for e in report.errors] == [(3, "file")]
    assert "NUL" in str(report.errors[0])


def test_an_oversized_upload_is_refused_before_it_is_read(director: Any, client: Client) -> None:
    director_grant_admin(user=director)
    client.force_login(director)
    upload = SimpleUploadedFile("p.csv", HEADER.encode() + b"Kim,Ji,4d\n" * 250_000)
    assert upload.size > 2_000_000
    response = client.post(reverse("admin:games_player_import"), {"file": upload})
    assert response.status_code == 200
    assert b"larger than 2 MB" in response.content
    assert not Player.objects.exists()
