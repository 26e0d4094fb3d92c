"""A rectangular record (SGF ``SZ[w:h]``): the engine counts it, but a tournament
plays on one square size, so the upload refuses it by name and saves nothing."""

from __future__ import annotations

from games.models import Game, GameState, ResultSubmission
from tests.games.api_helpers import assert_error

RECTANGLE = "(;FF[4]GM[1]SZ[19:13]KM[6.5];B[pd];W[dj];B[];W[])"


def test_a_rectangular_record_is_refused_naming_its_shape_and_nothing_is_saved(api_as, game, alice):
    before = (
        Game.objects.filter(state=GameState.SCHEDULED).count(),
        ResultSubmission.objects.count(),
    )
    response = api_as(alice).post(
        f"/api/v1/games/{game.pk}/result/",
        {"result": "B+R", "sgf": RECTANGLE},
        format="json",
    )
    body = assert_error(response, 400, "sgf")
    assert "rectangular 19x13 board" in body["extra"]["fields"]["sgf"]
    assert (
        Game.objects.filter(state=GameState.SCHEDULED).count(),
        ResultSubmission.objects.count(),
    ) == before
