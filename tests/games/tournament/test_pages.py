"""Directors' pages: no buttons that can only be refused, komi that follows the rules, a
result sheet that knows which margins a count can give, warnings about a record that
does not fit its game."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, GameState
from games.people.services.grants import director_grant_admin
from games.tournament import services as tournament_services
from tests.factories import entered_player
from tests.games.rescore_helpers import FINISHED, count

pytestmark = pytest.mark.django_db

# The finished 19x19 record of the re-scoring tests, with other players' names.
NAMED = FINISHED.replace("KM[6.5]", "KM[6.5]PB[Someone Else]PW[Builder Bob]")


@pytest.fixture
def as_director(director: Any) -> Client:
    director_grant_admin(user=director)
    c = Client()
    c.force_login(director)
    return c


def test_a_locked_game_offers_the_director_no_correction_or_finalising(
    as_director: Client, game: Game, alice: Any, bob: Any
) -> None:
    services.game_result_submit(actor=alice.user, game=game, result="B+R")
    body = as_director.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Correct the result" in body and 'name="finalise"' in body
    services.game_result_confirm(actor=bob.user, game=game)
    body = as_director.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Correct the result" not in body and 'name="finalise"' not in body
    assert "Raise a dispute" not in body


def test_komi_follows_the_rules_when_they_change(director: Any, tournament: Any) -> None:
    assert tournament.komi == Decimal("6.5")  # japanese
    tournament_services.tournament_update(actor=director, tournament=tournament, rules="nz")
    tournament.refresh_from_db()
    assert tournament.komi == Decimal(7)
    tournament_services.tournament_update(
        actor=director, tournament=tournament, komi="5", rules="nz"
    )
    tournament_services.tournament_update(actor=director, tournament=tournament, rules="japanese")
    tournament.refresh_from_db()
    assert tournament.komi == Decimal(5)  # set apart from the rules: it stays


def test_the_admin_change_of_rules_alone_moves_komi_too(as_director: Client, tournament: Any):  # type: ignore[no-untyped-def]
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    page = as_director.get(url)
    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    for formset in page.context["inline_admin_formsets"]:
        prefix = formset.formset.prefix
        data[f"{prefix}-TOTAL_FORMS"] = "0"
        data[f"{prefix}-INITIAL_FORMS"] = "0"
    data.update({"rules": "nz", "komi": "6.5"})  # the rules change, komi left as it was
    response = as_director.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert (tournament.rules, tournament.komi) == ("nz", Decimal(7))


def test_the_result_sheet_refuses_a_margin_the_komi_cannot_give(
    as_director: Client, game: Game, tournament: Any
) -> None:
    whole = tournament_services.game_create(
        actor=None,
        tournament=tournament,
        round_number=1,
        black=entered_player(tournament),
        white=entered_player(tournament),
        table=2,
        komi="7",
    )
    url = reverse("admin:games_round_results", args=[game.round_id])
    response = as_director.post(url, {f"game_{game.pk}": "B+3", f"game_{whole.pk}": "W+2.5"})
    body = response.content.decode()
    assert response.status_code == 200
    assert f"game {game.pk}: with komi 6.5 a count ends in half points" in body
    assert f"game {whole.pk}: with komi 7 a count ends in whole points" in body
    game.refresh_from_db()
    assert game.state == GameState.SCHEDULED
    response = as_director.post(url, {f"game_{game.pk}": "B+3.5", f"game_{whole.pk}": "W+2"})
    assert response.status_code == 302


def test_a_record_naming_other_players_is_kept_with_a_warning(
    client: Client, game: Game, alice: Any
) -> None:
    client.force_login(alice.user)
    response = client.post(
        reverse("games:game-submit", args=[game.pk]),
        {"result": "B+R", "sgf": NAMED},
        follow=True,
    )
    body = response.content.decode()
    assert "the record names Black &#x27;Someone Else&#x27;" in body
    assert "names White" not in body  # Builder Bob is White
    game.refresh_from_db()
    assert any("Someone Else" in w for w in game.sgf_warnings)


def test_a_resignation_on_a_record_ending_in_two_passes_is_warned(
    game: Game, alice: Any, director: Any
) -> None:
    stored = services.game_result_enter(actor=director, game=game, result="W+R", sgf=FINISHED)
    assert any("both players passing" in w for w in stored.sgf_warnings)
    counted = services.game_result_enter(actor=director, game=game, result=count(FINISHED))
    assert not any("both players passing" in w for w in counted.sgf_warnings)


def test_both_pages_show_one_standings_table(client, tournament, game) -> None:
    """The tournament page and the standings page include the same table: Club column,
    the by-default mark and the shared-place note on both."""
    for url in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/standings/"):
        page = client.get(url).content.decode()
        assert "<th>Club</th>" in page, url
        assert "(! by default)" in page and "share a place" in page, url
