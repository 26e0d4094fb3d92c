"""Inviting the whole entry list in one action from the entries page: every entrant with
an address on file and no account whom the director may invite, under the single
invitation's rules, the mails sent after commit, the rest counted by reason."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Player, Tournament
from games.people.services.invitations import entry_list_invite
from ops.models import AuditAction, AuditEntry
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def rival(db: Any) -> Any:
    return UserFactory(username="rival", email="rival@example.org")


@pytest.fixture
def entry_list(tournament: Tournament, rival: Any, alice: Player) -> dict[str, Player]:
    """Two players to invite, one without an address, one with an account (alice), one
    entered first in the rival's tournament; one of the two also plays in the rival's."""
    rivals = TournamentFactory(name="Rival Open")
    rivals.directors.add(rival)
    theirs = PlayerFactory(family_name="Theirs", email="theirs@example.org")
    enter(rivals, theirs)  # first entered there: the rival's player
    players = {
        "ann": PlayerFactory(family_name="Ann", email="ann@example.org"),
        "ben": PlayerFactory(family_name="Ben", email="ben@example.org"),
        "cat": PlayerFactory(family_name="Cat", email=""),
        "theirs": theirs,
    }
    alice.email = "alice@example.org"
    alice.save()
    enter(tournament, *players.values(), alice)
    enter(rivals, players["ben"])  # also plays in the rival's event: he is told
    return players


def _post(client: Client, tournament: Tournament, captured: Any) -> tuple[Any, list[str]]:
    with captured(execute=True):
        response = client.post(reverse("games:entries", args=[tournament.pk]), {"action": "invite"})
    said = [str(m) for m in get_messages(response.wsgi_request)]
    client.get(reverse("games:entries", args=[tournament.pk]))  # shown, so read
    return response, said


def test_the_director_invites_the_entry_list_in_one_action(
    director: Any,
    tournament: Tournament,
    entry_list: dict[str, Player],
    django_capture_on_commit_callbacks: Any,
) -> None:
    client = Client()
    client.force_login(director)
    page = client.get(reverse("games:entries", args=[tournament.pk])).content.decode()
    assert 'name="action" value="invite"' in page
    response, said = _post(client, tournament, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert said == ["2 invited, 3 skipped (1 no address / 1 already has an account / 1 not yours)."]
    invited = sorted(m.to[0] for m in mail.outbox if m.subject == "Your goref account")
    assert invited == ["ann@example.org", "ben@example.org"]
    notices = [m for m in mail.outbox if m.to == ["rival@example.org"]]
    assert len(notices) == 1 and "Ben" in notices[0].body and "Ann" not in notices[0].body
    audited = AuditEntry.objects.filter(action=AuditAction.PLAYER_INVITED)
    assert sorted(audited.values_list("object_id", flat=True)) == sorted(
        str(entry_list[k].pk) for k in ("ann", "ben")
    )
    # Each link works once and opens an account for that player.
    ann_mail = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    link = re.search(r"http://testserver(/accounts/invitation/[^/\s]+/)", ann_mail.body)
    assert link
    form = {
        "username": "ann",
        "password": "a-long-pass-phrase",
        "password_again": "a-long-pass-phrase",
    }
    assert Client().post(link.group(1), form).status_code == 302
    entry_list["ann"].refresh_from_db()
    assert entry_list["ann"].user is not None
    assert Client().get(link.group(1)).status_code == 400
    # A second round invites only who is left (ben again: a new link replaces his first).
    mail.outbox.clear()
    _, said = _post(client, tournament, django_capture_on_commit_callbacks)
    assert said == [
        "1 invited, 4 skipped (1 no address / 2 already have an account / 1 not yours)."
    ]


def test_nothing_is_mailed_or_kept_when_the_transaction_rolls_back(
    director: Any,
    tournament: Tournament,
    entry_list: dict[str, Player],
    django_capture_on_commit_callbacks: Any,
) -> None:
    class Abort(Exception):
        pass

    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(Abort),
        transaction.atomic(),
    ):
        entry_list_invite(actor=director, tournament=tournament, accept_url=str)
        raise Abort
    assert mail.outbox == []
    assert not Player.objects.exclude(invitation_nonce="").exists()
    assert not AuditEntry.objects.filter(action=AuditAction.PLAYER_INVITED).exists()


def test_only_the_tournaments_directors_invite_its_list(
    rival: Any, outsider: Any, tournament: Tournament, entry_list: dict[str, Player]
) -> None:
    with pytest.raises(PermissionDenied):
        entry_list_invite(actor=rival, tournament=tournament, accept_url=str)
    client = Client()
    client.force_login(outsider)
    response = client.post(reverse("games:entries", args=[tournament.pk]), {"action": "invite"})
    assert response.status_code == 404
    assert mail.outbox == [] and not Player.objects.exclude(invitation_nonce="").exists()


def test_the_list_costs_the_same_queries_for_5_or_60_entrants(
    tournament: Tournament,
    director: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A congress's list is a thousand players: the checks, nonces, audit rows and the
    other directors' notices are read and written in bulk, never per player."""
    counts = []
    for n in (5, 60):
        t = TournamentFactory(name=f"Open {n}")
        t.directors.add(director)
        enter(t, *(PlayerFactory(email=f"p{n}-{i}@example.org") for i in range(n)))
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            done = entry_list_invite(actor=director, tournament=t, accept_url=str)
        assert len(done.invited) == n
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
