"""Players report from the board: each slip carries a code per
player; the code's page on a phone reports, confirms or contests through the result
services, a locked game's codes are refused, wrong codes are 404 and limited per game
and per code, never per address."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, GameState, ResultSubmission
from games.people.services.grants import director_grant_admin
from games.services.codes import CodeHolder, code_holder, code_read, code_shaped, report_code
from games.services.results import current_claim
from games.tournament.services import game_create
from ops.models import AuditAction, AuditEntry
from tests.factories import GameFactory, PlayerFactory, enter

pytestmark = pytest.mark.django_db

PHONE = {"HTTP_USER_AGENT": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile"}


def url_of(game: Game, player: Any, code: str | None = None) -> str:
    code = code or report_code(game, player.pk)
    return reverse("games:report", kwargs={"game_id": game.pk, "code": code})


def phone(address: str = "198.51.100.7") -> Client:
    return Client(REMOTE_ADDR=address, **PHONE)


def test_a_player_reports_from_his_code_on_a_phone_sized_page(game, alice):
    client = phone()
    page = client.get(url_of(game, alice))
    body = page.content.decode()
    assert page.status_code == 200
    assert '<meta name="viewport" content="width=device-width' in body
    assert "This page is for <strong>Liddell Alice</strong> (Black)" in body
    assert 'value="B+R"' in body and 'value="0"' not in body  # komi 6.5: no jigo to offer
    assert "no-cache" in page["Cache-Control"]

    answer = client.post(url_of(game, alice), {"action": "report", "result": "B+R"})
    assert answer.status_code == 302 and answer["Location"] == url_of(game, alice)
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED and game.result_display == "B+R"
    assert game.result_submitted_by_id == alice.pk
    claim = ResultSubmission.objects.get(game=game)
    assert claim.player_id == alice.pk and claim.submitted_by_id is None  # no account used
    audit = AuditEntry.objects.get(action=AuditAction.GAME_RESULT_BY_CODE)
    assert audit.new_value["step"] == "submit" and audit.new_value["player"] == alice.pk
    assert audit.new_value["address"] == "198.51.100.7"
    assert (
        "You reported <strong>Black wins by resignation</strong> (B+R)"
        in client.get(url_of(game, alice)).content.decode()
    )


def test_a_counted_score_is_reported_and_a_bad_one_is_a_clear_error(game, alice):
    client = phone()
    bad = client.post(url_of(game, alice), {"action": "report", "score": "B+banana"})
    assert bad.status_code == 400 and 'id="report-errors"' in bad.content.decode()
    assert Game.objects.get(pk=game.pk).state == GameState.SCHEDULED
    good = client.post(url_of(game, alice), {"action": "report", "score": "w+3.5"})
    assert good.status_code == 302
    assert Game.objects.get(pk=game.pk).result_display == "W+3.5"


def test_the_opponent_confirms_with_his_own_code(game, alice, bob):
    phone().post(url_of(game, alice), {"action": "report", "result": "W+R"})
    claim = current_claim(Game.objects.get(pk=game.pk))
    client = phone("203.0.113.9")
    page = client.get(url_of(game, bob)).content.decode()
    assert "Liddell Alice reported <strong>White wins by resignation</strong> (W+R)" in page
    answer = client.post(url_of(game, bob), {"action": "confirm", "claim": claim})
    assert answer.status_code == 302 and answer["Location"] == reverse("games:game", args=[game.pk])
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED and game.result_display == "W+R"
    steps = AuditEntry.objects.filter(action=AuditAction.GAME_RESULT_BY_CODE)
    assert sorted(e.new_value["step"] for e in steps) == ["confirm", "submit"]


def test_the_reporter_cannot_confirm_his_own_report_with_his_code(game, alice):
    client = phone()
    client.post(url_of(game, alice), {"action": "report", "result": "B+R"})
    claim = current_claim(Game.objects.get(pk=game.pk))
    answer = client.post(url_of(game, alice), {"action": "confirm", "claim": claim})
    assert answer.status_code == 409
    assert "your opponent must confirm it" in answer.content.decode()
    assert Game.objects.get(pk=game.pk).state == GameState.SUBMITTED


def test_the_opponent_contests_and_a_dispute_opens(game, alice, bob):
    from referee.models import Dispute

    phone().post(url_of(game, alice), {"action": "report", "result": "B+R"})
    claim = current_claim(Game.objects.get(pk=game.pk))
    answer = phone().post(
        url_of(game, bob), {"action": "contest", "claim": claim, "reason": "I won on time."}
    )
    assert answer.status_code == 302
    assert Game.objects.get(pk=game.pk).state == GameState.DISPUTED
    dispute = Dispute.objects.get(game=game)
    # The code acts for Bob: the dispute is his, by his account, as from the game page.
    assert dispute.claim == "I won on time." and dispute.raised_by == bob.user


def test_a_contest_by_a_player_without_an_account_names_him(game, alice, bob, referee):
    from referee.models import Dispute

    bob.user = None
    bob.save(update_fields=["user"])
    phone().post(url_of(game, alice), {"action": "report", "result": "B+R"})
    claim = current_claim(Game.objects.get(pk=game.pk))
    phone().post(url_of(game, bob), {"action": "contest", "claim": claim, "reason": "No."})
    dispute = Dispute.objects.get(game=game)
    assert dispute.raised_by is None
    assert dispute.evidence["raised_with_code"] == {"player": bob.pk, "name": "Builder Bob"}
    desk = Client()
    desk.force_login(referee)
    page = desk.get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "raised by Builder Bob (a slip code)" in page


def test_a_stale_claim_is_a_409(game, alice, bob):
    client = phone()
    client.post(url_of(game, alice), {"action": "report", "result": "B+R"})
    old = current_claim(Game.objects.get(pk=game.pk))
    client.post(url_of(game, alice), {"action": "report", "result": "B+T"})
    answer = client.post(url_of(game, bob), {"action": "confirm", "claim": old})
    assert answer.status_code == 409
    assert Game.objects.get(pk=game.pk).state == GameState.SUBMITTED


def test_a_final_games_codes_are_refused(game, alice, bob, director):
    services.game_result_enter(actor=director, game=game, result="B+R")
    services.game_finalise(actor=director, game=game)
    for player in (alice, bob):
        page = phone().get(url_of(game, player))
        assert page.status_code == 403
        assert "the slip&#x27;s codes no longer work" in page.content.decode()
        posted = phone().post(url_of(game, player), {"action": "report", "result": "W+R"})
        assert posted.status_code == 403
    game.refresh_from_db()
    assert game.state == GameState.FINAL and game.result_display == "B+R"


def test_wrong_codes_are_limited_per_game_never_per_address(game, alice, bob, settings):
    settings.GOREF_CODE_GUESS_LIMIT = 3
    hall = phone("192.0.2.66")  # the venue's one shared address
    for guess in ("AAAAAAAA", "BBBB-BBBB", "CCCCCCCC"):
        assert hall.get(url_of(game, alice, guess)).status_code == 404
    # The game has had its fill: further wrong codes on it are refused...
    refused = hall.get(url_of(game, alice, "DDDDDDDD"))
    assert refused.status_code == 429 and "The right code still works" in refused.content.decode()
    assert phone("192.0.2.99").get(url_of(game, alice, "EEEEEEEE")).status_code == 429
    # ...but the right codes, from the same hall, are never refused for it.
    posted = hall.post(url_of(game, alice), {"action": "report", "result": "B+R"})
    assert posted.status_code == 302
    assert hall.get(url_of(game, bob)).status_code == 200
    assert Game.objects.get(pk=game.pk).state == GameState.SUBMITTED
    # Another game of the same hall is not affected.
    other = GameFactory()
    assert hall.get(url_of(other, other.black, "AAAAAAAA")).status_code == 404
    assert hall.get(url_of(other, other.black)).status_code == 200


def test_one_code_tried_on_many_games_is_limited(game, alice, settings):
    settings.GOREF_CODE_GUESS_LIMIT = 3
    games = [GameFactory() for _ in range(4)]
    answers = [phone().get(url_of(g, g.black, "ZZZZ-ZZZZ")).status_code for g in games]
    assert answers == [404, 404, 404, 429]
    # Text no code can be (too long, a U) fills no counter of its own: no key per junk.
    assert code_shaped("ZZZZZZZZ") and not code_shaped("ZZZZZZZZZ") and not code_shaped("UUUUUUUU")
    junk = [phone().get(url_of(g, g.black, "not-a-code-at-all")).status_code for g in games]
    assert junk == [404, 404, 404, 404]


def test_a_game_guessed_at_is_flagged_on_its_directors_round_page(game, alice, director, settings):
    settings.GOREF_CODE_GUESS_LIMIT = 3
    client = Client()
    client.force_login(director)
    page = reverse("games:round-results", args=[game.tournament_id, game.round.number])
    assert "codes guessed at" not in client.get(page).content.decode()
    for guess in ("AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE"):
        phone().get(url_of(game, alice, guess))
    # Reported once per window, not once per guess beyond the limit.
    report = AuditEntry.objects.get(action=AuditAction.GAME_CODES_GUESSED)
    assert report.object_id == str(game.pk) and report.actor is None
    assert report.new_value == {"wrong_guesses": 3, "minutes": 15}
    body = client.get(page).content.decode()
    assert "codes guessed at" in body and "slip codes of 1 game of this round" in body


def test_a_game_that_does_not_exist_is_the_same_404(game, alice):
    assert (
        phone().get(url_of(game, alice).replace(f"/r/{game.pk}/", "/r/999999/")).status_code == 404
    )


def test_a_code_of_game_a_cannot_act_on_game_b(game, alice, bob, tournament):
    carol, dave = PlayerFactory(family_name="Carol"), PlayerFactory(family_name="Dave")
    enter(tournament, carol, dave)
    other = game_create(
        actor=None, tournament=tournament, round_number=1, black=carol, white=dave, table=2
    )
    alice_code = report_code(game, alice.pk)
    wrong = reverse("games:report", kwargs={"game_id": other.pk, "code": alice_code})
    assert phone().post(wrong, {"action": "report", "result": "B+R"}).status_code == 404
    assert Game.objects.get(pk=other.pk).state == GameState.SCHEDULED
    # And the service refuses a holder of game A's code acting on game B.
    holder = CodeHolder(player=alice, game_id=game.pk, address=None)
    with pytest.raises(PermissionDenied):
        services.game_result_submit(actor=holder, game=other, result="B+R")


def test_codes_are_per_game_and_player_and_read_back_forgivingly(game, alice, bob):
    a, b = report_code(game, alice.pk), report_code(game, bob.pk)
    assert a != b and len(a) == len(b) == 8
    assert not set(a + b) & set("ILOU")  # Crockford's alphabet: nothing to misread
    typed = f"{a[:4].lower()}-{a[4:]}".replace("0", "o").replace("1", "l")
    assert code_read(typed) == a
    assert code_holder(game, typed, address=None).player == alice  # type: ignore[union-attr]
    assert code_holder(game, "", address=None) is None
    assert code_holder(game, "é" * 8, address=None) is None
    # A new key (a new game) gives other codes: the key is random per game.
    other = GameFactory()
    assert other.report_key and other.report_key != game.report_key
    assert report_code(Game(pk=game.pk, report_key="0" * 32), alice.pk) != a


def test_the_printed_slips_carry_each_players_code_as_url_and_qr(game, alice, bob, director):
    director_grant_admin(user=director)
    client = Client()
    client.force_login(director)
    page = client.get(
        reverse("admin:games_tournament_pairing_print", args=[game.tournament_id, 1]),
        {"by": "slips"},
    )
    body = page.content.decode()
    for player in (alice, bob):
        code = report_code(game, player.pk)
        printed = f"http://testserver/r/{game.pk}/{code[:4]}-{code[4:]}/"
        assert printed in body
        # The printed form (with its dash) opens the same page.
        assert phone().get(printed.removeprefix("http://testserver")).status_code == 200
    assert body.count('<svg width="') == 2 and 'class="segno"' in body


def test_the_code_page_reads_a_fixed_number_of_queries(game, alice, bob, django_assert_num_queries):
    client = phone()
    # The game with its event, round and players, and its latest dispute (none here).
    with django_assert_num_queries(2):
        assert client.get(url_of(game, alice)).status_code == 200
    client.post(url_of(game, alice), {"action": "report", "result": "B+R"})
    with django_assert_num_queries(4):  # and the claim to answer, and whether it replaced his
        assert client.get(url_of(game, bob)).status_code == 200


def test_a_phone_posts_with_the_pages_csrf_token(game, alice):
    import re

    client = Client(enforce_csrf_checks=True, REMOTE_ADDR="198.51.100.8", **PHONE)
    page = client.get(url_of(game, alice)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    data = {"action": "report", "result": "B+R", "csrfmiddlewaretoken": token.group(1)}
    assert client.post(url_of(game, alice), data).status_code == 302
    assert Game.objects.get(pk=game.pk).state == GameState.SUBMITTED


def test_a_counter_claim_is_a_visible_audited_step(game, alice, bob):
    """White, who should confirm or contest Black's claim, reports his own result: the
    claim is his now, audited, and Black's page says what happened."""
    phone().post(url_of(game, alice), {"action": "report", "result": "B+R"})
    services.game_result_submit(actor=bob.user, game=game, result="W+R")
    game.refresh_from_db()
    assert game.result_submitted_by_id == bob.pk and game.result_display == "W+R"
    entry = AuditEntry.objects.get(action=AuditAction.GAME_COUNTER_CLAIMED)
    assert entry.old_value == {"result": "B+R", "claimed_by": alice.pk}
    assert entry.new_value == {"result": "W+R", "claimed_by": bob.pk}
    page = phone().get(url_of(game, alice)).content.decode()
    assert (
        "You reported <strong>Black wins by resignation</strong> (B+R); your opponent reports "
        "<strong>White wins by resignation</strong> (W+R) instead: confirm it or contest it."
    ) in page
    assert "Yes: confirm White wins by resignation" in page
    # The same on Alice's game page when she is signed in.
    client = Client()
    client.force_login(alice.user)
    body = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="countered"' in body and "instead: confirm it or contest it" in body
