"""The referee desk (web): queue, dispute page, ruling form per kind, appeal, raise form."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services as games
from games.tournament import services as tournament_services
from ops.models import AuditEntry
from referee import services
from tests.factories import TournamentFactory, UserFactory
from tests.referee.conftest import sgf
from tests.referee.test_kinds import DEAD, KO


@pytest.fixture
def as_(client: Client):  # type: ignore[no-untyped-def]
    def login(user):  # type: ignore[no-untyped-def]
        client.force_login(getattr(user, "user", user))
        return client

    return login


def test_the_queue_lists_open_disputes_of_the_referees_tournaments_only(
    as_, nz_game, alice, referee, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    elsewhere = TournamentFactory(name="Elsewhere")
    desk = as_(referee)
    desk.get(reverse("referee:queue"))  # his header is cached from here on (config.navigation)
    with CaptureQueriesContext(connection) as one:
        body = desk.get(reverse("referee:queue")).content.decode()
    assert "Auckland Champs" in body and "time" in body and elsewhere.name not in body
    # A second dispute costs no query: the rows come joined.
    second = tournament_services.game_create(
        actor=None,
        tournament=nz_game.tournament,
        round_number=2,
        black=nz_game.white,
        white=nz_game.black,
        table=1,
    )
    services.dispute_open(actor=alice.user, game=second, kind="conduct", claim="noise")
    with django_assert_num_queries(len(one.captured_queries)):
        assert "conduct" in desk.get(reverse("referee:queue")).content.decode()
    other = UserFactory(username="otherref")
    elsewhere.referees.add(other)
    assert "No open disputes" in as_(other).get(reverse("referee:queue")).content.decode()


def test_the_dispute_page_shows_the_board_at_the_move_the_report_and_only_the_kinds_options(
    as_, nz_game, bob, referee
):
    dispute = services.dispute_open(actor=bob.user, game=nz_game, kind="repetition", sgf=sgf(*KO))
    body = as_(referee).get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "<svg" in body and "Position after move 7" in body
    assert "move 7, Black A1: ko" in body
    assert 'name="decision"' in body and 'name="moves"' not in body
    assert "Optional: the result once play has finished" in body


def test_the_dead_stones_form_asks_for_the_continuation_and_the_result_form_for_an_re(
    as_, nz_game, alice, bob, referee
):
    games.game_result_submit(
        actor=alice.user, game=nz_game, result="W+9", sgf=sgf(*DEAD), dead_stones=["B5"]
    )
    dead = services.dispute_open(actor=bob.user, game=nz_game, kind="dead-stones")
    body = as_(referee).get(reverse("referee:dispute", args=[dead.pk])).content.decode()
    assert 'name="moves"' in body and 'name="result"' not in body
    assert 'id="count"' in body and "W+7" in body


def test_the_referee_rules_from_the_page_and_errors_stay_on_the_form(as_, nz_game, alice, referee):
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    url = reverse("referee:dispute-rule", args=[dispute.pk])
    client = as_(referee)
    response = client.post(url, {"decision": "upheld", "reasons": "flag"})
    assert response.status_code == 400 and "names the result" in response.content.decode()
    response = client.post(url, {"decision": "upheld", "reasons": "flag", "result": "W+T"})
    assert response.status_code == 302
    nz_game.refresh_from_db()
    assert nz_game.result_display == "W+T"


def test_a_party_may_not_rule_and_an_outsider_gets_404(as_, nz_game, alice, outsider):
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    url = reverse("referee:dispute-rule", args=[dispute.pk])
    assert as_(alice).post(url, {"decision": "dismissed", "reasons": "x"}).status_code == 403
    assert as_(outsider).post(url, {"decision": "dismissed", "reasons": "x"}).status_code == 404
    assert as_(outsider).get(reverse("referee:dispute", args=[dispute.pk])).status_code == 404


def test_a_party_appeals_from_the_page(as_, nz_game, alice, referee):
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="no")
    page = as_(alice).get(reverse("referee:dispute", args=[dispute.pk])).content.decode()
    assert "Appeal to the chief referee" in page
    response = as_(alice).post(reverse("referee:dispute-appeal", args=[dispute.pk]))
    assert response.status_code == 302
    again = as_(alice).post(reverse("referee:dispute-appeal", args=[dispute.pk]))
    assert again.status_code == 403 and "appealed already" in again.content.decode()


def test_a_player_raises_a_dispute_from_his_game_page(as_, nz_game, alice, outsider):
    page = as_(alice).get(reverse("games:game", args=[nz_game.pk])).content.decode()
    url = reverse("referee:dispute-open", args=[nz_game.pk])
    assert url in page
    response = as_(alice).post(url, {"kind": "conduct", "claim": "Talking during play"})
    assert response.status_code == 302
    assert AuditEntry.objects.filter(action="dispute.opened").count() == 1
    assert as_(outsider).get(url).status_code == 404


def test_a_late_repetition_claim_is_refused_on_the_form_with_the_reason(as_, nz_game, bob):
    url = reverse("referee:dispute-open", args=[nz_game.pk])
    response = as_(bob).post(
        url, {"kind": "repetition", "claim": "ko", "move_number": 7, "sgf": sgf(*KO, "W pass")}
    )
    assert response.status_code == 400 and "Too late" in response.content.decode()


def test_a_referee_takes_an_open_dispute(as_, nz_game, alice, referee):
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    as_(referee).post(reverse("referee:dispute-take", args=[dispute.pk]))
    dispute.refresh_from_db()
    assert dispute.assigned_referee == referee and dispute.state == "assigned"


def test_directors_see_the_audit_of_their_tournaments_disputes_only_in_the_admin(
    as_, nz_game, alice, director, referee
):
    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=director)
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="f", result="W+T"
    )
    stranger = TournamentFactory(name="Stranger Open")
    from ops.audit import audit_record

    audit_record(actor=None, action="tournament.elsewhere", obj=stranger)
    body = as_(director).get(reverse("admin:ops_auditentry_changelist")).content.decode()
    assert "dispute.ruled" in body and "game.result_ruled" in body
    assert "tournament.elsewhere" not in body
