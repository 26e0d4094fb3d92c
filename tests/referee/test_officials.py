"""Naming a tournament's officials: the service, the API (GET public, PUT directors only)
and the desk page (directors; 403 for the tournament's other people, 404 for outsiders)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from ops.models import AuditEntry
from referee import services
from referee.models import TournamentOfficials
from tests.factories import TournamentFactory, UserFactory
from tests.games.api_helpers import assert_error


def url(tournament):  # type: ignore[no-untyped-def]
    return f"/api/v1/tournaments/{tournament.pk}/officials/"


def page(tournament):  # type: ignore[no-untyped-def]
    return reverse("referee:tournament-officials", args=[tournament.pk])


@pytest.fixture
def people(db):  # type: ignore[no-untyped-def]
    return [UserFactory(username=n) for n in ("ann", "ben", "cal", "dee")]


@pytest.fixture
def as_(client):  # type: ignore[no-untyped-def]
    def login(user):  # type: ignore[no-untyped-def]
        client.force_login(getattr(user, "user", user))
        return client

    return login


# --------------------------------------------------------------------------- service


def test_the_service_refuses_a_committee_of_two_and_the_chief_on_it(tournament, director, people):
    ann, ben, cal, _ = people
    with pytest.raises(ValidationError) as e:
        services.tournament_officials_set(
            actor=director, tournament=tournament, chief_referee=ann, committee=[ben, cal]
        )
    assert "committee" in e.value.message_dict
    with pytest.raises(ValidationError):
        services.tournament_officials_set(
            actor=director, tournament=tournament, chief_referee=ann, committee=[ann, ben, cal]
        )
    with pytest.raises(ValidationError):
        services.tournament_officials_set(
            actor=director, tournament=tournament, chief_referee=None, committee=[ben, ben, cal]
        )
    assert not TournamentOfficials.objects.exists()


def test_only_a_director_names_officials(tournament, referee, people):
    with pytest.raises(PermissionDenied):
        services.tournament_officials_set(
            actor=referee, tournament=tournament, chief_referee=people[0], committee=[]
        )


# --------------------------------------------------------------------------- API


def test_anyone_reads_the_officials_by_username_in_two_queries(api, nz, django_assert_num_queries):
    with django_assert_num_queries(2):
        response = api.get(url(nz))
    assert response.status_code == 200
    assert response.json() == {
        "tournament": nz.pk,
        "chief_referee": "chief",
        "committee": ["member1", "member2", "member3"],
        "referees": ["referee"],
    }


def test_a_tournament_with_no_officials_reads_as_none(api, tournament):
    body = api.get(url(tournament)).json()
    assert body["chief_referee"] is None and body["committee"] == []
    assert not TournamentOfficials.objects.exists()  # reading creates nothing


def test_an_unknown_tournament_is_404(api, db):
    assert_error(api.get("/api/v1/tournaments/987654/officials/"), 404)


def test_a_director_names_officials_by_username_or_id_and_it_is_audited(
    api_as, tournament, director, people, django_assert_max_num_queries
):
    ann, ben, cal, dee = people
    body = {"chief_referee": "ann", "committee": [ben.pk, "cal", dee.pk]}
    client = api_as(director)
    # A fixed cost: the four users are found in one query (not one per reference);
    # the rest is the permission, the lock, the model's validation, the check that no
    # appeal is before the seats being changed, the audit, the answer.
    with django_assert_max_num_queries(21):
        response = client.put(url(tournament), body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["chief_referee"] == "ann"
    assert response.json()["committee"] == ["ben", "cal", "dee"]
    officials = TournamentOfficials.objects.get(tournament=tournament)
    assert officials.chief_referee == ann and officials.committee_ids == [ben.pk, cal.pk, dee.pk]
    entry = AuditEntry.objects.get(action="tournament.officials_set")
    assert entry.actor == director and entry.object_id == str(tournament.pk)
    assert entry.old_value == {"chief_referee": None, "committee": []}
    assert entry.new_value == {"chief_referee": ann.pk, "committee": [ben.pk, cal.pk, dee.pk]}


def test_a_director_clears_the_officials_with_null_and_an_empty_list(api_as, nz, director):
    response = api_as(director).put(
        url(nz), {"chief_referee": None, "committee": []}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["chief_referee"] is None and response.json()["committee"] == []
    assert AuditEntry.objects.filter(action="tournament.officials_set").count() == 2  # + fixture


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"chief_referee": "ann", "committee": ["ben", "cal"]}, "committee"),
        ({"chief_referee": "ann", "committee": ["ann", "ben", "cal"]}, "committee"),
        ({"chief_referee": "ann", "committee": ["ben", "ben", "cal"]}, "committee"),
        ({"chief_referee": "nobody", "committee": []}, "chief_referee"),
        ({"chief_referee": None, "committee": ["ben", "cal", "nobody"]}, "committee"),
        ({"chief_referee": None, "committee": ["ben", "cal", 987654]}, "committee"),
        ({"chief_referee": True, "committee": []}, "chief_referee"),
        ({"chief_referee": ["ann"], "committee": []}, "chief_referee"),
        ({"chief_referee": "ann"}, "committee"),
        ({"committee": []}, "chief_referee"),
        ({"chief_referee": "ann", "committee": "ben"}, "committee"),
    ],
)
def test_bad_input_is_a_400_in_the_error_shape_and_nothing_is_saved(
    api_as, tournament, director, people, body, field
):
    response = api_as(director).put(url(tournament), body, format="json")
    assert_error(response, 400, field)
    assert not TournamentOfficials.objects.exists()
    assert not AuditEntry.objects.filter(action="tournament.officials_set").exists()


def test_a_json_list_body_is_a_400(api_as, tournament, director):
    assert_error(api_as(director).put(url(tournament), ["ann"], format="json"), 400)


def test_an_unknown_user_is_named_in_the_message(api_as, tournament, director):
    body = assert_error(
        api_as(director).put(
            url(tournament), {"chief_referee": "nobody", "committee": []}, format="json"
        ),
        400,
        "chief_referee",
    )
    assert "nobody" in body["message"]


def test_anonymous_may_not_write(api, tournament):
    assert_error(
        api.put(url(tournament), {"chief_referee": None, "committee": []}, format="json"), 401
    )


@pytest.mark.parametrize("who", ["referee", "chief", "member1", "alice", "outsider"])
def test_no_one_but_a_director_names_officials_403(api_as, nz, nz_game, who, request, people):
    user = (
        request.getfixturevalue("members")[0] if who == "member1" else request.getfixturevalue(who)
    )
    body = {"chief_referee": "ann", "committee": ["ben", "cal", "dee"]}
    assert_error(api_as(user).put(url(nz), body, format="json"), 403)
    assert TournamentOfficials.objects.get(tournament=nz).chief_referee.username == "chief"


def test_a_director_of_another_tournament_gets_403(api_as, nz, people):
    other = UserFactory(username="otherdirector")
    TournamentFactory().directors.add(other)
    body = {"chief_referee": "ann", "committee": []}
    assert_error(api_as(other).put(url(nz), body, format="json"), 403)


def test_put_on_an_unknown_tournament_is_404(api_as, director):
    body = {"chief_referee": None, "committee": []}
    assert_error(
        api_as(director).put("/api/v1/tournaments/987654/officials/", body, format="json"), 404
    )


def test_the_user_lookup_is_one_query_however_named(api_as, tournament, director, people):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api_as(director)
    body = {"chief_referee": "ann", "committee": ["ben", "cal", "dee"]}
    with CaptureQueriesContext(connection) as ctx:
        assert client.put(url(tournament), body, format="json").status_code == 200
    lookups = [q for q in ctx.captured_queries if '"auth_user"."username" IN' in q["sql"]]
    assert len(lookups) == 1


# --------------------------------------------------------------------------- desk page


def test_the_desk_page_shows_the_directors_form_with_the_current_officials(as_, nz, director):
    response = as_(director).get(page(nz))
    body = response.content.decode()
    assert response.status_code == 200 and 'id="officials-form"' in body
    assert 'value="chief"' in body and 'value="member3"' in body and "referee" in body


def test_a_director_names_the_officials_on_the_desk_page(as_, tournament, director, people):
    form = {
        "chief_referee": "ann",
        "committee_1": "ben",
        "committee_2": "cal",
        "committee_3": "dee",
    }
    response = as_(director).post(page(tournament), form)
    assert response.status_code == 302
    officials = TournamentOfficials.objects.get(tournament=tournament)
    assert officials.chief_referee.username == "ann" and officials.has_committee
    assert AuditEntry.objects.filter(action="tournament.officials_set", actor=director).exists()


@pytest.mark.parametrize(
    ("form", "message"),
    [
        (
            {"chief_referee": "ann", "committee_1": "ben", "committee_2": "cal"},
            "three different members",
        ),
        (
            {
                "chief_referee": "ann",
                "committee_1": "ann",
                "committee_2": "ben",
                "committee_3": "cal",
            },
            "cannot sit on the committee",
        ),
        ({"chief_referee": "nobody"}, "No user with that username"),
    ],
)
def test_the_desk_page_shows_the_services_refusal_and_saves_nothing(
    as_, tournament, director, people, form, message
):
    response = as_(director).post(page(tournament), form)
    assert response.status_code == 400 and message in response.content.decode()
    assert not TournamentOfficials.objects.exists()


@pytest.mark.parametrize("who", ["referee", "chief", "member1", "alice", "bob"])
def test_the_tournaments_other_people_get_403_on_the_page(as_, nz, nz_game, who, request):
    user = (
        request.getfixturevalue("members")[0] if who == "member1" else request.getfixturevalue(who)
    )
    assert as_(user).get(page(nz)).status_code == 403
    form = {"chief_referee": "outsider"}
    assert as_(user).post(page(nz), form).status_code == 403
    assert TournamentOfficials.objects.get(tournament=nz).chief_referee.username == "chief"


def test_outsiders_get_404_and_anonymous_the_login_page(as_, client, nz, outsider):
    response = client.get(page(nz))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert as_(outsider).get(page(nz)).status_code == 404
    assert as_(outsider).post(page(nz), {"chief_referee": "outsider"}).status_code == 404
    assert as_(outsider).get("/referee/tournaments/987654/officials/").status_code == 404


def test_the_desk_lists_the_directors_tournaments_officials_pages(as_, nz, director, referee):
    body = as_(director).get(reverse("referee:queue")).content.decode()
    assert page(nz) in body
    assert page(nz) not in as_(referee).get(reverse("referee:queue")).content.decode()
