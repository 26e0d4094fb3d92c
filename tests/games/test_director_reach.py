"""A director's reach, each attack re-run through the API or the
admin: entering another director's players in his own tournament gives him no hold on
them, invitations go only to the address on file, and a rated tournament cannot be
dated back to force a recompute or slip games into histories already rated."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameState, Player, Tournament
from games.people import services as people
from games.people.services.grants import director_grant_admin, federation_official_grant
from games.people.services.invitations import player_invite
from games.tournament import services as tournament_services
from ops.models import AuditAction, AuditEntry, Job
from ratings import services as ratings_services
from ratings.models import RatingHistory
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, enter

pytestmark = pytest.mark.django_db


def _as(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _rated_event(player: Player, tournament: Tournament) -> None:
    """``player`` rated in ``tournament``, on its last day: the last rated event."""
    RatingHistory.objects.create(
        player=player,
        tournament=tournament,
        event_date=tournament.end_date,
        rating_before=1000,
        rating_after=1010,
        change=10,
        games=1,
        wins=1,
        total_games=1,
        algorithm="egf2021",
        version="1",
    )


@pytest.fixture
def rival(db: Any) -> Any:
    """Director A: staff in the admin, may create tournaments, directs "Rival Open"."""
    user = UserFactory(username="rival", email="rival@example.org")
    director_grant_admin(user=user)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    TournamentFactory(
        name="Rival Open", start_date=timezone.localdate(), end_date=timezone.localdate()
    ).directors.add(user)
    return user


@pytest.fixture
def rival_open(rival: Any) -> Tournament:
    return Tournament.objects.get(name="Rival Open")


@pytest.fixture
def b_director(db: Any) -> Any:
    return UserFactory(username="bdirector", email="b@example.org")


@pytest.fixture
def b_players(b_director: Any) -> tuple[Player, Player]:
    """Two players of tournament B without accounts, paired in round 1."""
    cup_b = TournamentFactory(
        name="Cup B", start_date=timezone.localdate(), end_date=timezone.localdate()
    )
    cup_b.directors.add(b_director)
    kim = PlayerFactory(family_name="Kim", given_name="Ji", user=None, declared_rank=-2)
    lee = PlayerFactory(family_name="Lee", given_name="Su", user=None, declared_rank=-1)
    enter(cup_b, kim, lee)
    tournament_services.game_create(
        actor=None, tournament=cup_b, round_number=1, black=kim, white=lee, table=1
    )
    return kim, lee


def test_entering_bs_players_in_his_own_gives_a_director_no_hold_on_them(
    rival: Any, rival_open: Tournament, b_players: tuple[Player, Player], api_as: Any
) -> None:
    """Entered in A's tournament (allowed), B's players still cannot be given A's
    address, invited to his mailbox, nor, therefore, act in B's game."""
    kim, lee = b_players
    api = api_as(rival)
    for p in (kim, lee):
        entered = api.post(
            f"/api/v1/tournaments/{rival_open.pk}/entries/", {"player": p.pk}, format="json"
        )
        assert entered.status_code == 201
        refused = api.patch(
            f"/api/v1/players/{p.pk}/", {"email": "rival@example.org"}, format="json"
        )
        assert refused.status_code in (400, 403)
        invite = _as(rival).post(reverse("admin:games_player_invite", args=[p.pk]))
        assert invite.status_code == 403
    assert not Player.objects.filter(pk__in=[kim.pk, lee.pk], email__gt="").exists()
    assert not mail.outbox
    game = Game.objects.get(tournament__name="Cup B")
    assert game.state == GameState.SCHEDULED and game.black.user_id is None


def test_entering_bs_player_gives_no_right_to_rename_him_or_change_rank_or_pin(
    rival: Any, rival_open: Tournament, b_players: tuple[Player, Player], api_as: Any
) -> None:
    """Nobody else's players to edit: rename, change the official rank and EGD PIN, in the
    API and the admin."""
    kim, _ = b_players
    enter(rival_open, kim)
    api = api_as(rival)
    for change in ({"family_name": "Forged"}, {"rank": "9d"}, {"egd_pin": "12345678"}):
        assert api.patch(f"/api/v1/players/{kim.pk}/", change, format="json").status_code == 403
    url = reverse("admin:games_player_change", args=[kim.pk])
    posted = _as(rival).post(url, {"family_name": "Forged", "rank": "9d", "egd_pin": "12345678"})
    assert posted.status_code == 403
    kim.refresh_from_db()
    assert (kim.family_name, kim.declared_rank, kim.egd_pin) == ("Kim", -2, None)


def test_bs_own_director_and_a_federation_official_still_edit_and_invite(
    rival: Any,
    rival_open: Tournament,
    b_director: Any,
    b_players: tuple[Player, Player],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """An invitation goes to the address on file, and A, who entered him too, hears of it."""

    kim, _ = b_players
    enter(rival_open, kim)
    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    people.player_update(actor=official, player=kim, given_name="Jihoon")
    people.player_update(actor=b_director, player=kim, email="kim@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        player_invite(actor=b_director, player=kim, accept_url=lambda t: f"http://x/{t}/")
    assert mail.outbox[0].to == ["kim@example.org"]
    told = [m for m in mail.outbox[1:] if m.to == ["rival@example.org"]]
    assert told and "kim@example.org" in told[0].body


def test_an_invitation_link_works_once_and_never_again_after_the_account_is_deleted(
    b_director: Any, b_players: tuple[Player, Player], client: Client
) -> None:
    """An invitation link is used once: the nonce is consumed on accept; a newer link
    replaces an older one."""

    kim, _ = b_players
    people.player_update(actor=b_director, player=kim, email="kim@example.org")
    old = player_invite(actor=b_director, player=kim, accept_url=str)
    token = player_invite(actor=b_director, player=kim, accept_url=str)
    assert client.get(f"/accounts/invitation/{old}/").status_code == 400
    url = f"/accounts/invitation/{token}/"
    data = {
        "username": "kim",
        "password": "a-long-pass-phrase",
        "password_again": "a-long-pass-phrase",
    }
    assert client.post(url, data).status_code == 302
    kim.refresh_from_db()
    kim.user.delete()
    kim.refresh_from_db()
    assert kim.user_id is None
    again = Client().get(url)
    assert again.status_code == 400 and b"used" in again.content


# ----------------------------------------------------------------- the date rule


def test_a_rated_tournament_dated_1900_is_refused_on_the_api(rival: Any, api_as: Any) -> None:
    body = {
        "name": "Old times",
        "start_date": "1900-01-01",
        "end_date": "1900-01-02",
        "rules": "japanese",
        "rated": True,
    }
    response = api_as(rival).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    assert "federation official" in str(response.json())
    assert not Tournament.objects.filter(name="Old times").exists()


def test_his_own_rated_tournament_cannot_be_moved_back(
    rival: Any, rival_open: Tournament, api_as: Any
) -> None:
    response = api_as(rival).patch(
        f"/api/v1/tournaments/{rival_open.pk}/",
        {"start_date": "1900-01-01", "end_date": "1900-01-02"},
        format="json",
    )
    assert response.status_code == 400
    rival_open.refresh_from_db()
    assert rival_open.end_date.year > 1900


def test_another_directors_close_today_never_stops_his_event_of_yesterday(
    rival: Any, rival_open: Tournament, b_players: tuple[Player, Player], api_as: Any
) -> None:
    """The floor is each player's own last rated event, never a site-wide date: B's event
    rated today does not stop the rival's event of yesterday with his own players."""
    kim, _ = b_players
    today = timezone.localdate()
    rated = TournamentFactory(name="Rated", start_date=today, end_date=today)
    _rated_event(kim, rated)
    yesterday = str(today - dt.timedelta(days=1))
    response = api_as(rival).patch(
        f"/api/v1/tournaments/{rival_open.pk}/",
        {"start_date": yesterday, "end_date": yesterday},
        format="json",
    )
    assert response.status_code == 200, response.content
    ann, bob = PlayerFactory(user=None), PlayerFactory(user=None)
    enter(rival_open, ann, bob)
    _finished(rival_open, ann, bob)
    response = api_as(rival).post(f"/api/v1/tournaments/{rival_open.pk}/close/")
    assert response.status_code == 200, response.content


def test_a_federation_official_dates_one_earlier(rival: Any) -> None:
    official = UserFactory(username="official", is_staff=True)
    federation_official_grant(actor=None, user=official)
    t = tournament_services.tournament_create(
        actor=official,
        name="Archive 1990",
        start_date=dt.date(1990, 5, 1),
        end_date=dt.date(1990, 5, 2),
        rules="japanese",
    )
    assert t.rated


def test_a_director_cannot_recompute_from_a_tournament_far_back(rival: Any, api_as: Any) -> None:
    """The date rule closes his old tournament (made before this rule, or dated by an official)."""
    old = TournamentFactory(
        name="Old", start_date=dt.date(1900, 1, 1), end_date=dt.date(1900, 1, 2)
    )
    old.directors.add(rival)
    response = api_as(rival).post(
        "/api/v1/ratings/recompute/", {"from_tournament": old.pk}, format="json"
    )
    assert response.status_code == 403
    assert not Job.objects.exists()
    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    assert ratings_services.ratings_recompute_start(actor=official, from_tournament=old)


def test_an_unrated_tournament_may_be_dated_back(rival: Any, api_as: Any) -> None:
    body = {
        "name": "Club history",
        "start_date": "1999-01-01",
        "end_date": "1999-01-02",
        "rules": "japanese",
        "rated": False,
    }
    assert api_as(rival).post("/api/v1/tournaments/", body, format="json").status_code == 201


def test_an_invitation_link_is_not_reused_after_the_address_on_file_changes(
    b_director: Any, b_players: tuple[Player, Player], client: Client
) -> None:

    kim, _ = b_players
    people.player_update(actor=b_director, player=kim, email="kim@example.org")
    token = player_invite(actor=b_director, player=kim, accept_url=str)
    people.player_update(actor=b_director, player=kim, email="kim2@example.org")
    assert client.get(f"/accounts/invitation/{token}/").status_code == 400
    assert re.search("kim@example.org", mail.outbox[0].to[0])


def test_the_address_on_file_is_not_shown_to_a_director_who_entered_him_later(
    rival: Any, rival_open: Tournament, b_director: Any, b_players: tuple[Player, Player]
) -> None:

    kim, _ = b_players
    enter(rival_open, kim)
    people.player_update(actor=b_director, player=kim, email="kim@example.org")
    page = _as(rival).get(reverse("admin:games_player_change", args=[kim.pk]))
    assert page.status_code == 200 and b"kim@example.org" not in page.content
    response = _as(rival).post(
        reverse("admin:games_player_change", args=[kim.pk]),
        {"family_name": "Kim", "given_name": "Ji", "rank": "2k", "email": "rival@example.org"},
    )
    assert response.status_code == 403
    assert Player.objects.get(pk=kim.pk).email == "kim@example.org"


def test_an_unrated_tournament_dated_back_cannot_be_turned_rated(rival: Any, api_as: Any) -> None:
    body = {
        "name": "Quiet past",
        "start_date": "1900-01-01",
        "end_date": "1900-01-02",
        "rules": "japanese",
        "rated": False,
    }
    created = api_as(rival).post("/api/v1/tournaments/", body, format="json")
    assert created.status_code == 201
    pk = created.json()["id"]
    response = api_as(rival).patch(f"/api/v1/tournaments/{pk}/", {"rated": True}, format="json")
    assert response.status_code == 400
    assert not Tournament.objects.get(pk=pk).rated


def test_the_own_director_puts_the_address_on_file_over_the_api_and_it_is_never_shown(
    b_director: Any, b_players: tuple[Player, Player], api_as: Any
) -> None:
    kim, _ = b_players
    response = api_as(b_director).patch(
        f"/api/v1/players/{kim.pk}/", {"email": "kim@example.org"}, format="json"
    )
    assert response.status_code == 200 and "email" not in response.json()
    assert Player.objects.get(pk=kim.pk).email == "kim@example.org"
    assert (
        "kim@example.org"
        not in api_as(b_director).get(f"/api/v1/players/{kim.pk}/").content.decode()
    )


def test_a_director_cannot_create_a_player_with_an_address_on_file(rival: Any, api_as: Any) -> None:
    body = {"family_name": "Fresh", "rank": "3k", "email": "rival@example.org"}
    response = api_as(rival).post("/api/v1/players/", body, format="json")
    assert response.status_code == 403
    assert not Player.objects.filter(family_name="Fresh").exists()


def test_a_mail_server_that_refuses_the_invitation_leaves_nothing_behind(
    b_director: Any, b_players: tuple[Player, Player], monkeypatch: Any
) -> None:
    import smtplib

    from games.people.services import invitations

    kim, _ = b_players
    people.player_update(actor=b_director, player=kim, email="kim@example.org")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPException("421 try later")

    monkeypatch.setattr(invitations, "send_mail", refuse)
    with pytest.raises(ValidationError, match="could not be sent"):
        player_invite(actor=b_director, player=kim, accept_url=str)
    assert Player.objects.get(pk=kim.pk).invitation_nonce == ""


def test_a_federation_official_creates_a_player_with_an_address_and_invites_him(
    db: Any,
) -> None:

    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    newcomer = people.player_create(
        actor=official, family_name="Newcomer", rank="20k", email="new@example.org"
    )
    player_invite(actor=official, player=newcomer, accept_url=lambda t: f"http://x/{t}/")
    assert mail.outbox[0].to == ["new@example.org"]


def test_an_event_rated_with_a_future_date_does_not_lock_everyone_else_out(
    rival: Any, rival_open: Tournament, b_players: tuple[Player, Player], api_as: Any
) -> None:
    """A rated tournament dated 2100 and closed early must not push the limit to 2100."""
    kim, _ = b_players
    future = TournamentFactory(
        name="Far future", start_date=dt.date(2100, 1, 1), end_date=dt.date(2100, 1, 1)
    )
    _rated_event(kim, future)
    today = str(timezone.localdate())
    body = {"name": "Today", "start_date": today, "end_date": today, "rules": "japanese"}
    assert api_as(rival).post("/api/v1/tournaments/", body, format="json").status_code == 201


def _finished(t: Tournament, black: Player, white: Player) -> None:
    game = tournament_services.game_create(
        actor=None, tournament=t, round_number=1, black=black, white=white, table=1
    )
    Game.objects.filter(pk=game.pk).update(
        state=GameState.FINAL, locked_at=timezone.now(), result_winner="B", result_reason="score"
    )


def test_an_open_tournament_dated_back_before_the_rule_is_closed_by_an_official_only(
    rival: Any, api_as: Any
) -> None:
    """The date rule: a rated tournament dated 1900 (made before the date rule, or by an official)
    and still open: its director's close is refused naming who may close it."""
    old = TournamentFactory(
        name="Old", start_date=dt.date(1900, 1, 1), end_date=dt.date(1900, 1, 2), rated=True
    )
    old.directors.add(rival)
    kim, lee = PlayerFactory(user=None), PlayerFactory(user=None)
    enter(old, kim, lee)
    _finished(old, kim, lee)
    response = api_as(rival).post(f"/api/v1/tournaments/{old.pk}/close/")
    assert response.status_code == 403
    assert "Only a federation official can close it" in response.json()["message"]
    page = _as(rival).post(reverse("games:close", args=[old.pk]), follow=True)
    assert b"Only a federation official can close it" in page.content
    old.refresh_from_db()
    assert old.closed_at is None and not Job.objects.exists()

    official = UserFactory(username="official")
    federation_official_grant(actor=None, user=official)
    response = api_as(official).post(f"/api/v1/tournaments/{old.pk}/close/")
    assert response.status_code == 200, response.content
    old.refresh_from_db()
    assert old.closed_at is not None
    closed = AuditEntry.objects.get(action=AuditAction.TOURNAMENT_CLOSED, object_id=str(old.pk))
    assert closed.actor == official and closed.new_value["backdated"] is True


def test_an_open_tournament_dated_before_the_last_rated_event_needs_an_official(
    rival: Any, b_players: tuple[Player, Player]
) -> None:
    kim, lee = b_players
    today = timezone.localdate()
    _rated_event(kim, TournamentFactory(name="Rated", start_date=today, end_date=today))
    yesterday = today - dt.timedelta(days=1)
    t = TournamentFactory(name="Late", start_date=yesterday, end_date=yesterday, rated=True)
    t.directors.add(rival)
    enter(t, kim, lee)
    _finished(t, kim, lee)
    with pytest.raises(
        PermissionDenied, match=f"before the last rated event of Kim Ji \\(last rated on {today}\\)"
    ):
        tournament_services.tournament_close(actor=rival, tournament=t)


def test_a_recent_or_unrated_tournament_is_closed_by_its_director(rival: Any) -> None:
    today = timezone.localdate()
    recent = TournamentFactory(name="Recent", start_date=today, end_date=today, rated=True)
    unrated = TournamentFactory(
        name="History", start_date=dt.date(1990, 1, 1), end_date=dt.date(1990, 1, 1), rated=False
    )
    for t in (recent, unrated):
        t.directors.add(rival)
        assert tournament_services.tournament_close(actor=rival, tournament=t).closed_at
