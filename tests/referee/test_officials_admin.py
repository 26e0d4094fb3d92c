"""The admin for directors: naming officials (through the service), and the Directors
group's view of disputes and rulings, scoped to the director's tournaments."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.people.services.grants import (
    DIRECTORS_GROUP,
    director_grant_admin,
    ensure_directors_group,
)
from ops.models import AuditEntry
from referee import services
from referee.models import TournamentOfficials
from tests.factories import TournamentFactory, UserFactory, entered_player

CHANGELIST = "admin:referee_tournamentofficials_changelist"
ADD = "admin:referee_tournamentofficials_add"
CHANGE = "admin:referee_tournamentofficials_change"


@pytest.fixture
def people(db):  # type: ignore[no-untyped-def]
    return [UserFactory(username=n) for n in ("ann", "ben", "cal", "dee")]


@pytest.fixture
def staff_director(client, director):  # type: ignore[no-untyped-def]
    director_grant_admin(user=director)
    client.force_login(director)
    return client


@pytest.fixture
def elsewhere(db, people):  # type: ignore[no-untyped-def]
    """A tournament someone else directs, with officials."""
    t = TournamentFactory(name="Stranger Open")
    boss = UserFactory(username="boss")
    t.directors.add(boss)
    ann, ben, cal, dee = people
    services.tournament_officials_set(
        actor=boss, tournament=t, chief_referee=dee, committee=[ann, ben, cal]
    )
    return t


def test_the_directors_group_may_view_disputes_and_rulings_and_name_officials(db):
    group = ensure_directors_group()
    codenames = set(
        Permission.objects.filter(group=group, content_type__app_label="referee").values_list(
            "codename", flat=True
        )
    )
    assert {
        "view_dispute",
        "view_ruling",
        "view_tournamentofficials",
        "add_tournamentofficials",
        "change_tournamentofficials",
    } <= codenames
    assert not {"change_dispute", "delete_tournamentofficials", "add_ruling"} & codenames
    assert group.name == DIRECTORS_GROUP


def test_a_director_sees_only_his_tournaments_officials(
    staff_director, nz, elsewhere, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):  # one query for the rows, however many
        response = staff_director.get(reverse(CHANGELIST))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Auckland Champs" in body and "member1, member2, member3" in body
    assert "Stranger Open" not in body
    other = TournamentOfficials.objects.get(tournament=elsewhere)
    response = staff_director.get(reverse(CHANGE, args=[other.pk]))
    assert response.status_code == 302  # the admin's "does not exist" redirect
    assert response["Location"] == reverse("admin:index")


def test_the_changelist_costs_the_same_however_many_tournaments(
    staff_director, director, people, django_assert_num_queries
):
    ann, ben, cal, dee = people
    for k in range(4):
        t = TournamentFactory(name=f"Cup {k}")
        t.directors.add(director)
        services.tournament_officials_set(
            actor=director, tournament=t, chief_referee=ann, committee=[ben, cal, dee]
        )
    staff_director.get(reverse(CHANGELIST))  # warm the session and content types
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        staff_director.get(reverse(CHANGELIST))
    t = TournamentFactory(name="Cup 9")
    t.directors.add(director)
    services.tournament_officials_set(
        actor=director, tournament=t, chief_referee=ann, committee=[ben, cal, dee]
    )
    with django_assert_num_queries(len(few.captured_queries)):
        body = staff_director.get(reverse(CHANGELIST)).content.decode()
    assert body.count("ann") >= 5


def test_the_add_form_offers_only_the_directors_tournaments_without_officials(
    staff_director, director, nz, elsewhere
):
    mine = TournamentFactory(name="Fresh Cup")
    mine.directors.add(director)
    body = staff_director.get(reverse(ADD)).content.decode()
    assert "Fresh Cup" in body
    assert "Auckland Champs" not in body  # has its officials already: change them
    assert "Stranger Open" not in body


def test_adding_officials_in_the_admin_goes_through_the_service(staff_director, director, people):
    ann, ben, cal, dee = people
    mine = TournamentFactory(name="Fresh Cup")
    mine.directors.add(director)
    form = {
        "tournament": mine.pk,
        "chief_referee": "ann",
        "committee_1": "ben",
        "committee_2": "cal",
        "committee_3": "dee",
        "_save": "Save",
    }
    response = staff_director.post(reverse(ADD), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    officials = TournamentOfficials.objects.get(tournament=mine)
    assert officials.chief_referee == ann
    assert officials.committee_ids == [ben.pk, cal.pk, dee.pk]
    entry = AuditEntry.objects.get(action="tournament.officials_set", object_id=str(mine.pk))
    assert entry.actor == director


def test_changing_officials_shows_the_current_usernames_and_saves_through_the_service(
    staff_director, director, nz, people
):
    officials = TournamentOfficials.objects.get(tournament=nz)
    body = staff_director.get(reverse(CHANGE, args=[officials.pk])).content.decode()
    assert 'value="chief"' in body and 'value="member2"' in body
    form = {
        "chief_referee": "ann",
        "committee_1": "ben",
        "committee_2": "cal",
        "committee_3": "dee",
        "_save": "Save",
    }
    assert staff_director.post(reverse(CHANGE, args=[officials.pk]), form).status_code == 302
    officials.refresh_from_db()
    assert officials.chief_referee.username == "ann" and officials.tournament == nz
    assert AuditEntry.objects.filter(action="tournament.officials_set").count() == 2


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
        (
            {
                "chief_referee": "ann",
                "committee_1": "ben",
                "committee_2": "ben",
                "committee_3": "cal",
            },
            "three different members",
        ),
        ({"chief_referee": "nobody"}, "No user with that username"),
    ],
)
def test_a_refusal_shows_on_the_admin_form_and_nothing_is_saved(
    staff_director, nz, people, form, message
):
    officials = TournamentOfficials.objects.get(tournament=nz)
    response = staff_director.post(reverse(CHANGE, args=[officials.pk]), {**form, "_save": "Save"})
    assert response.status_code == 200 and message in response.content.decode()
    officials.refresh_from_db()
    assert officials.chief_referee.username == "chief"
    assert AuditEntry.objects.filter(action="tournament.officials_set").count() == 1  # fixture


def test_a_refusal_the_form_missed_is_rolled_back_and_shown(
    staff_director, nz, people, monkeypatch
):
    import referee.forms

    monkeypatch.setattr(referee.forms, "officials_check", lambda **kw: [])  # the form lets it by
    officials = TournamentOfficials.objects.get(tournament=nz)
    form = {
        "chief_referee": "ann",
        "committee_1": "ann",
        "committee_2": "ben",
        "committee_3": "cal",
        "_save": "Save",
    }
    response = staff_director.post(reverse(CHANGE, args=[officials.pk]), form, follow=True)
    assert "cannot sit on the committee" in response.content.decode()
    officials.refresh_from_db()
    assert officials.chief_referee.username == "chief"
    assert AuditEntry.objects.filter(action="tournament.officials_set").count() == 1


def test_officials_are_not_deleted_in_the_admin(staff_director, nz):
    officials = TournamentOfficials.objects.get(tournament=nz)
    response = staff_director.post(
        reverse("admin:referee_tournamentofficials_delete", args=[officials.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert TournamentOfficials.objects.filter(pk=officials.pk).exists()


def test_a_staff_member_outside_the_directors_group_has_no_officials_admin(client, nz):
    staff = UserFactory(username="clerk", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse(CHANGELIST)).status_code == 403


def test_the_dispute_admin_lists_only_the_directors_tournaments_disputes(
    staff_director, nz_game, alice, elsewhere
):
    mine = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="mine")
    from games.tournament.services import game_create

    foreign_game = game_create(
        actor=None,
        tournament=elsewhere,
        round_number=1,
        black=entered_player(elsewhere),
        white=entered_player(elsewhere),
    )
    boss = elsewhere.directors.get()
    theirs = services.dispute_open(actor=boss, game=foreign_game, kind="time", claim="theirs")
    response = staff_director.get(reverse("admin:referee_dispute_changelist"))
    assert response.status_code == 200
    body = response.content.decode()
    assert reverse("admin:referee_dispute_change", args=[mine.pk]) in body
    assert reverse("admin:referee_dispute_change", args=[theirs.pk]) not in body
    detail = staff_director.get(reverse("admin:referee_dispute_change", args=[mine.pk]))
    assert detail.status_code == 200 and "mine" in detail.content.decode()
    hidden = staff_director.get(reverse("admin:referee_dispute_change", args=[theirs.pk]))
    assert hidden.status_code == 302  # not found for him


def test_the_dispute_admin_shows_the_rulings_read_only(staff_director, nz_game, alice, referee):
    dispute = services.dispute_open(actor=alice.user, game=nz_game, kind="time", claim="flag")
    services.dispute_rule(
        actor=referee, dispute=dispute, decision="upheld", reasons="Flag fell", result="B+T"
    )
    body = staff_director.get(
        reverse("admin:referee_dispute_change", args=[dispute.pk])
    ).content.decode()
    assert "Flag fell" in body and "B+T" in body
    form = {"claim": "changed"}
    response = staff_director.post(reverse("admin:referee_dispute_change", args=[dispute.pk]), form)
    assert response.status_code == 403
