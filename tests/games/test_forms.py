"""Result forms on the web: submit, confirm, contest, enter, finalise; errors on their fields."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase
from django.urls import reverse

from games import services
from games.models import Game, GameState
from games.services.results import current_claim
from games.tournament import services as tournament_services
from tests.factories import entered_player
from tests.games import sgf_samples

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def as_alice(alice: Any) -> Client:
    return _client(alice.user)


@pytest.fixture
def as_bob(bob: Any) -> Client:
    return _client(bob.user)


@pytest.fixture
def as_director(director: Any) -> Client:
    return _client(director)


@pytest.fixture
def as_outsider(outsider: Any) -> Client:
    return _client(outsider)


def submit_url(game: Game) -> str:
    return reverse("games:game-submit", args=[game.pk])


def _errors(response: Any, field: str) -> list[str]:
    return list(response.context["form"].errors.get(field, []))


# --------------------------------------------------------------------------- submitting


def test_a_player_sees_the_submit_form_for_his_game(as_alice: Client, game: Game) -> None:
    response = as_alice.get(submit_url(game))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="result"' in body and 'name="sgf_file"' in body and 'name="dead_stones"' in body
    assert 'enctype="multipart/form-data"' in body and "csrfmiddlewaretoken" in body


def test_outsider_gets_404_for_the_submit_form(as_outsider: Client, game: Game) -> None:
    assert as_outsider.get(submit_url(game)).status_code == 404
    assert as_outsider.post(submit_url(game), {"result": "B+R"}).status_code == 404
    game.refresh_from_db()
    assert game.state == GameState.SCHEDULED


def test_anonymous_is_sent_to_log_in(client: Client, game: Game) -> None:
    response = client.get(submit_url(game))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_director_is_sent_to_the_enter_form(as_director: Client, game: Game) -> None:
    response = as_director.get(submit_url(game))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game-enter", args=[game.pk])


def test_it_submits_a_result_and_the_opponent_sees_confirm_and_contest(
    as_alice: Client, as_bob: Client, game: Game
) -> None:
    response = as_alice.post(submit_url(game), {"result": "B+6.5", "comment": "good game"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED and game.result_display == "B+6.5"
    page = as_bob.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:game-confirm", args=[game.pk]) in page
    assert reverse("games:game-contest", args=[game.pk]) in page
    mine = as_alice.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:game-confirm", args=[game.pk]) not in mine
    assert "Waiting for your opponent" in mine


def test_it_submits_an_uploaded_sgf_file(as_alice: Client, game: Game) -> None:
    upload = SimpleUploadedFile("game.sgf", sgf_samples.SIMPLE.encode(), "application/x-go-sgf")
    response = as_alice.post(submit_url(game), {"result": "B+R", "sgf_file": upload})
    assert response.status_code == 302
    game.refresh_from_db()
    assert "pd" in game.sgf


def test_a_bad_result_string_is_an_error_on_the_result_field(as_alice: Client, game: Game) -> None:
    response = as_alice.post(submit_url(game), {"result": "X+banana"})
    assert response.status_code == 200
    assert _errors(response, "result")
    assert "X+banana" in " ".join(_errors(response, "result"))
    game.refresh_from_db()
    assert game.state == GameState.SCHEDULED


def test_an_empty_result_is_required(as_alice: Client, game: Game) -> None:
    response = as_alice.post(submit_url(game), {"result": ""})
    assert response.status_code == 200 and _errors(response, "result")


def test_a_broken_pasted_sgf_names_line_and_property(as_alice: Client, game: Game) -> None:
    response = as_alice.post(submit_url(game), {"result": "B+R", "sgf": sgf_samples.BROKEN})
    assert response.status_code == 200
    message = " ".join(_errors(response, "sgf"))
    assert "line 3" in message and "W" in message
    game.refresh_from_db()
    assert game.state == GameState.SCHEDULED and game.sgf == ""


def test_a_broken_uploaded_sgf_is_an_error_on_the_upload_field(
    as_alice: Client, game: Game
) -> None:
    upload = SimpleUploadedFile("game.sgf", sgf_samples.BROKEN.encode())
    response = as_alice.post(submit_url(game), {"result": "B+R", "sgf_file": upload})
    assert response.status_code == 200
    assert "line 3" in " ".join(_errors(response, "sgf_file"))


def test_a_file_and_pasted_text_together_are_refused(as_alice: Client, game: Game) -> None:
    upload = SimpleUploadedFile("game.sgf", sgf_samples.SIMPLE.encode())
    response = as_alice.post(
        submit_url(game), {"result": "B+R", "sgf_file": upload, "sgf": sgf_samples.SIMPLE}
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()


def test_a_bad_dead_stone_point_is_an_error_on_dead_stones(as_alice: Client, game: Game) -> None:
    response = as_alice.post(submit_url(game), {"result": "B+6.5", "dead_stones": "D4 Z99"})
    assert response.status_code == 200
    assert "Z99" in " ".join(_errors(response, "dead_stones"))


def test_a_record_with_an_illegal_move_is_accepted_with_a_warning_naming_the_move(
    as_alice: Client, game: Game
) -> None:
    response = as_alice.post(
        submit_url(game), {"result": "B+R", "sgf": sgf_samples.ILLEGAL}, follow=True
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "About the record" in body and "move 2" in body


def test_a_player_cannot_submit_for_someone_elses_game(as_alice: Client, tournament: Any) -> None:
    other = tournament_services.game_create(
        actor=None,
        tournament=tournament,
        round_number=1,
        black=entered_player(tournament),
        white=entered_player(tournament),
    )
    assert as_alice.get(submit_url(other)).status_code == 404
    assert as_alice.post(submit_url(other), {"result": "B+R"}).status_code == 404
    other.refresh_from_db()
    assert other.state == GameState.SCHEDULED


def test_a_result_for_a_final_game_is_refused_and_nothing_changes(
    as_alice: Client, game: Game, director: Any
) -> None:
    services.game_result_enter(actor=director, game=game, result="W+R")
    services.game_finalise(actor=director, game=game)
    assert as_alice.get(submit_url(game)).status_code == 403
    response = as_alice.post(submit_url(game), {"result": "B+R"})
    assert response.status_code == 200
    assert "final" in " ".join(response.context["form"].non_field_errors())
    game.refresh_from_db()
    assert game.state == GameState.FINAL and game.result_display == "W+R"


# --------------------------------------------------------------------------- answering


@pytest.fixture
def submitted(game: Game, alice: Any) -> Game:
    return services.game_result_submit(actor=alice.user, game=game, result="B+R")


def _claim(game: Game) -> dict[str, Any]:
    return {"claim": current_claim(game)}


def test_the_opponent_confirms(as_bob: Client, submitted: Game) -> None:
    response = as_bob.post(reverse("games:game-confirm", args=[submitted.pk]), _claim(submitted))
    assert response.status_code == 302
    submitted.refresh_from_db()
    assert submitted.state == GameState.CONFIRMED


def test_the_submitter_cannot_confirm_his_own_claim(as_alice: Client, submitted: Game) -> None:
    response = as_alice.post(reverse("games:game-confirm", args=[submitted.pk]), _claim(submitted))
    assert response.status_code == 403
    assert "yourself" in response.content.decode()
    submitted.refresh_from_db()
    assert submitted.state == GameState.SUBMITTED


def test_outsider_gets_404_for_confirm_and_contest(as_outsider: Client, submitted: Game) -> None:
    assert as_outsider.post(reverse("games:game-confirm", args=[submitted.pk])).status_code == 404
    assert as_outsider.post(reverse("games:game-contest", args=[submitted.pk])).status_code == 404


def test_confirm_is_post_only(as_bob: Client, submitted: Game) -> None:
    assert as_bob.get(reverse("games:game-confirm", args=[submitted.pk])).status_code == 405


def test_confirm_needs_the_csrf_token(bob: Any, submitted: Game) -> None:
    c = Client(enforce_csrf_checks=True)
    c.force_login(bob.user)
    assert c.post(reverse("games:game-confirm", args=[submitted.pk])).status_code == 403
    submitted.refresh_from_db()
    assert submitted.state == GameState.SUBMITTED


def test_the_opponent_contests_with_a_reason(as_bob: Client, submitted: Game) -> None:
    response = as_bob.post(
        reverse("games:game-contest", args=[submitted.pk]),
        {"reason": "I won on time", **_claim(submitted)},
    )
    assert response.status_code == 302
    submitted.refresh_from_db()
    assert submitted.state == GameState.DISPUTED
    assert submitted.submissions.filter(comment="I won on time").exists()


def test_confirming_when_nothing_was_submitted_is_403(as_bob: Client, game: Game) -> None:
    assert as_bob.post(reverse("games:game-confirm", args=[game.pk])).status_code == 403


# --------------------------------------------------------------------------- directors


def test_a_director_enters_and_finalises(as_director: Client, game: Game) -> None:
    page = as_director.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:game-enter", args=[game.pk]) in page
    response = as_director.post(reverse("games:game-enter", args=[game.pk]), {"result": "W+T"})
    assert response.status_code == 302
    page = as_director.get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:game-finalise", args=[game.pk]) in page
    assert as_director.post(reverse("games:game-finalise", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.state == GameState.FINAL and game.result_display == "W+T"


def test_the_form_offers_a_jigo_only_with_a_whole_number_komi(
    as_director: Client, game: Game
) -> None:
    url = reverse("games:game-enter", args=[game.pk])
    assert game.komi % 1 != 0  # 6.5
    assert "0" not in [v for v, _ in as_director.get(url).context["suggestions"]]
    Game.objects.filter(pk=game.pk).update(komi=7)
    assert "0" in [v for v, _ in as_director.get(url).context["suggestions"]]


def test_a_director_correction_shows_errors_on_the_form(as_director: Client, game: Game) -> None:
    response = as_director.post(reverse("games:game-enter", args=[game.pk]), {"result": "B+6.3"})
    assert response.status_code == 200 and _errors(response, "result")


def test_players_get_404_for_the_director_forms(as_alice: Client, submitted: Game) -> None:
    assert as_alice.get(reverse("games:game-enter", args=[submitted.pk])).status_code == 404
    assert as_alice.post(reverse("games:game-finalise", args=[submitted.pk])).status_code == 404
    submitted.refresh_from_db()
    assert submitted.state == GameState.SUBMITTED


def test_a_referee_is_not_a_director(referee: Any, game: Game) -> None:
    c = _client(referee)
    assert c.get(reverse("games:game-enter", args=[game.pk])).status_code == 404
    assert c.get(submit_url(game)).status_code == 404


@pytest.mark.django_db(transaction=True)  # commits as in production: the publish runs first
def test_a_record_submitted_while_the_job_queue_is_down_is_kept_and_the_player_told(
    as_alice: Client, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.models import ScoringRun
    from tests.games.rescore_helpers import Broker

    broker = Broker()
    broker.patch(monkeypatch)
    broker.down = True
    upload = SimpleUploadedFile("game.sgf", sgf_samples.SIMPLE.encode())
    response = as_alice.post(submit_url(game), {"result": "B+R", "sgf_file": upload}, follow=True)
    assert "The record will be checked when the job queue is back." in response.content.decode()
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED and game.sgf
    run = ScoringRun.objects.get(game=game)
    assert run.waiting_for_queue


def test_a_confirm_is_bound_to_the_claim_the_opponent_saw(
    as_bob: Client, submitted: Game, alice: Any, bob: Any
) -> None:
    """The attack: Bob loads the page showing W+R... Alice replaces it by B+R before his
    click; the click must not lock B+R."""
    page = as_bob.get(reverse("games:game", args=[submitted.pk])).content.decode()
    seen = current_claim(submitted)
    assert f'name="claim" value="{seen}"' in page
    bob.user.email = "bob@example.org"
    bob.user.save()
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.game_result_submit(actor=alice.user, game=submitted, result="W+R")
    response = as_bob.post(reverse("games:game-confirm", args=[submitted.pk]), {"claim": seen})
    assert response.status_code == 409
    assert "The claim changed: look again." in response.content.decode()
    submitted.refresh_from_db()
    assert submitted.state == GameState.SUBMITTED and submitted.locked_at is None
    # Bob was told, and the claim he now sees can be answered.
    assert mail.outbox and "changed the result claimed" in mail.outbox[-1].body
    assert "from Black wins by resignation to White wins by resignation" in mail.outbox[-1].body
    fresh = current_claim(submitted)
    assert fresh != seen
    response = as_bob.post(reverse("games:game-confirm", args=[submitted.pk]), {"claim": fresh})
    assert response.status_code == 302


def test_a_contest_is_bound_to_the_claim_too(as_bob: Client, submitted: Game, alice: Any) -> None:
    seen = current_claim(submitted)
    services.game_result_submit(actor=alice.user, game=submitted, result="W+R")
    response = as_bob.post(
        reverse("games:game-contest", args=[submitted.pk]), {"claim": seen, "reason": "x"}
    )
    assert response.status_code == 409
    submitted.refresh_from_db()
    assert submitted.state == GameState.SUBMITTED


def test_the_opponent_sees_that_the_claim_was_changed(
    as_bob: Client, submitted: Game, alice: Any
) -> None:
    page = as_bob.get(reverse("games:game", args=[submitted.pk])).content.decode()
    assert 'id="claim-changed"' not in page
    services.game_result_submit(actor=alice.user, game=submitted, result="W+R")
    page = as_bob.get(reverse("games:game", args=[submitted.pk])).content.decode()
    assert 'id="claim-changed"' in page and "before, Black wins by resignation" in page
