"""``POST /api/v1/disputes/{id}/assign/``: a director assigns a referee of the tournament,
a referee takes the dispute himself."""

from __future__ import annotations

import pytest

from ops.models import AuditEntry
from referee import services
from tests.factories import UserFactory
from tests.games.api_helpers import assert_error


@pytest.fixture
def dispute(nz_game, alice):  # type: ignore[no-untyped-def]
    return services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")


@pytest.fixture
def second_referee(nz):  # type: ignore[no-untyped-def]
    user = UserFactory(username="ref2")
    nz.referees.add(user)
    return user


def assign(api, dispute, **body):  # type: ignore[no-untyped-def]
    return api.post(f"/api/v1/disputes/{dispute.pk}/assign/", body, format="json")


def test_a_director_assigns_a_referee_by_username_and_it_is_audited(
    api_as, dispute, director, referee
):
    response = assign(api_as(director), dispute, referee="referee")
    assert response.status_code == 200, response.content
    assert response.json()["assigned_referee"] == "referee"
    assert response.json()["state"] == "assigned"
    entry = AuditEntry.objects.get(action="dispute.assigned")
    assert entry.actor == director and entry.object_id == str(dispute.pk)
    assert entry.old_value == {"referee": None} and entry.new_value == {"referee": referee.pk}


def test_a_director_reassigns_by_user_id(api_as, dispute, director, referee, second_referee):
    assign(api_as(director), dispute, referee=referee.pk)
    response = assign(api_as(director), dispute, referee=second_referee.pk)
    assert response.status_code == 200 and response.json()["assigned_referee"] == "ref2"


def test_a_referee_takes_it_himself_named_or_by_default(api_as, dispute, referee, second_referee):
    response = assign(api_as(referee), dispute)
    assert response.status_code == 200 and response.json()["assigned_referee"] == "referee"
    assert assign(api_as(referee), dispute, referee="referee").status_code == 200  # again: his


def test_an_assigned_dispute_is_not_taken_by_another_referee(
    api_as, dispute, referee, second_referee, director
):
    assert assign(api_as(referee), dispute).status_code == 200
    assert_error(assign(api_as(second_referee), dispute, referee="ref2"), 403)
    dispute.refresh_from_db()
    assert dispute.assigned_referee == referee
    response = assign(api_as(director), dispute, referee="ref2")  # a director reassigns
    assert response.status_code == 200 and response.json()["assigned_referee"] == "ref2"


def test_a_referee_may_not_assign_someone_else(api_as, dispute, referee, second_referee):
    assert_error(assign(api_as(referee), dispute, referee="ref2"), 403)
    dispute.refresh_from_db()
    assert dispute.assigned_referee is None


@pytest.mark.parametrize("who", ["alice", "bob", "chief", "member1"])
def test_parties_and_the_higher_officials_get_403(api_as, dispute, who, request):
    user = (
        request.getfixturevalue("members")[0] if who == "member1" else request.getfixturevalue(who)
    )
    assert_error(assign(api_as(user), dispute, referee="referee"), 403)
    assert not AuditEntry.objects.filter(action="dispute.assigned").exists()


def test_an_outsider_gets_404_and_anonymous_401(api, api_as, dispute, outsider):
    assert_error(assign(api, dispute, referee="referee"), 401)
    assert_error(assign(api_as(outsider), dispute, referee="referee"), 404)
    assert_error(api_as(outsider).post("/api/v1/disputes/987654/assign/", {}, format="json"), 404)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"referee": "nobody"}, "nobody"),
        ({"referee": 987654}, "987654"),
        ({"referee": "outsider"}, "referees"),  # not a referee of the tournament
        ({"referee": "chief"}, "referees"),
        ({"referee": ["referee"]}, "username"),
        ({"referee": ""}, "username"),
        ({}, "referees"),  # the director himself is no referee
    ],
)
def test_bad_input_is_a_400_naming_the_referee(api_as, dispute, director, outsider, body, fragment):
    response = assign(api_as(director), dispute, **body)
    error = assert_error(response, 400, "referee")
    assert fragment in error["message"]
    dispute.refresh_from_db()
    assert dispute.assigned_referee is None


def test_a_ruled_dispute_is_not_assigned_409(api_as, dispute, director, referee):
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No")
    assert_error(assign(api_as(director), dispute, referee="referee"), 409)


def test_a_closed_dispute_is_visible_to_all_but_assigning_is_403_or_409(
    api_as, dispute, director, referee, outsider
):
    services.dispute_rule(actor=referee, dispute=dispute, decision="dismissed", reasons="No")
    services.dispute_close(actor=referee, dispute=dispute)
    assert_error(assign(api_as(outsider), dispute, referee="referee"), 403)
    assert_error(assign(api_as(director), dispute, referee="referee"), 409)
