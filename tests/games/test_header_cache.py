"""The signed-in header from the cache (config.navigation): no query on a warm cache, and
fresh on the next page after every write that changes it (officials named in the admin
or through the services, a claim, a confirmation, a contest, an account linked)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from config.navigation import header
from games import services
from games.models import Game
from games.people import services as people
from games.people.services.grants import director_grant_admin
from games.tournament import services as tournament_services
from referee import services as referee_services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _as(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _header(client: Client, url: str = "/") -> str:
    html = client.get(url).content.decode()
    match = re.search(r"<header>(.*?)</header>", html, re.S)
    assert match is not None
    return match.group(1)


def _desk(client: Client) -> bool:
    return 'href="/referee/"' in _header(client)


# --------------------------------------------------------------------------- queries


def test_a_warm_header_costs_no_query(game: Game, bob: Any, django_assert_num_queries: Any):  # type: ignore[no-untyped-def]
    services.game_result_submit(actor=game.black.user, game=game, result="B+R")
    request = RequestFactory().get("/")
    request.user = bob.user
    first = header(request)
    with django_assert_num_queries(0):
        again = header(request)
    assert again == first and again["nav_waiting"] == 1 and not again["nav_official"]
    assert again["nav_player"].pk == bob.pk and again["nav_player"].full_name == "Builder Bob"


@pytest.mark.parametrize(
    ("name", "most"),
    # nothing on the tournament page and the standings (the tournament's row and directors
    # are cached with them); the player page's player.  His session, his user
    # (ops.accounts), the header and the rest are cached (one query more each with the
    # database session engine, without REDIS_URL).
    [("games:tournament", 0), ("games:standings", 0), ("games:player", 1)],
)
def test_a_signed_in_warm_page_costs(  # type: ignore[no-untyped-def]
    name: str,
    most: int,
    game: Game,
    alice: Any,
    bob: Any,
    django_assert_num_queries: Any,
    settings: Any,
):
    settings.SESSION_ENGINE = "ops.sessions"  # as with REDIS_URL (config.settings)
    services.game_result_submit(actor=bob.user, game=game, result="B+R")
    url = reverse(name, args=[alice.pk if name == "games:player" else game.tournament_id])
    client = _as(alice.user)
    client.get(url)
    with django_assert_num_queries(most):
        page = client.get(url).content.decode()
    assert "1 to confirm" in page and f'href="/players/{alice.pk}/">Liddell Alice' in page


# --------------------------------------------------------------------------- officials


@pytest.mark.parametrize("field", ["directors", "referees"])
def test_an_official_named_in_the_admin_sees_the_referee_desk_on_his_next_page(  # type: ignore[no-untyped-def]
    field: str, tournament: Any, director: Any, referee: Any
):
    from tests.games.test_admin import _form_data

    director_grant_admin(user=director)
    newcomer = UserFactory(username="newcomer")
    his = _as(newcomer)
    assert not _desk(his)  # warm: cached without the desk
    admin = _as(director)
    url = reverse("admin:games_tournament_change", args=[tournament.pk])
    named = {
        "directors": [str(director.pk), str(newcomer.pk)],
        "referees": [str(referee.pk), str(newcomer.pk)],
    }
    response = admin.post(url, _form_data(admin.get(url), **{field: named[field]}), follow=True)
    assert response.status_code == 200
    assert getattr(tournament, field).filter(pk=newcomer.pk).exists()
    assert _desk(his)
    unnamed = {"directors": [str(director.pk)], "referees": [str(referee.pk)]}
    admin.post(url, _form_data(admin.get(url), **{field: unnamed[field]}), follow=True)
    assert not _desk(his)


def test_a_referee_dropped_through_the_service_loses_the_desk(  # type: ignore[no-untyped-def]
    tournament: Any, director: Any, referee: Any
):
    his = _as(referee)
    assert _desk(his)
    tournament_services.tournament_referees_set(actor=director, tournament=tournament, referees=[])
    assert not _desk(his)


def test_the_chief_referee_and_the_committee_see_the_desk_once_seated(  # type: ignore[no-untyped-def]
    tournament: Any, director: Any
):
    ann, ben, cal, dee = (UserFactory(username=n) for n in ("ann", "ben", "cal", "dee"))
    clients = {u.pk: _as(u) for u in (ann, ben, cal, dee)}
    assert not any(_desk(c) for c in clients.values())
    referee_services.tournament_officials_set(
        actor=director, tournament=tournament, chief_referee=ann, committee=[ben, cal, dee]
    )
    assert all(_desk(c) for c in clients.values())
    referee_services.tournament_officials_set(
        actor=director, tournament=tournament, chief_referee=ann, committee=[]
    )
    assert _desk(clients[ann.pk]) and not _desk(clients[ben.pk]) and not _desk(clients[dee.pk])


def test_whoever_creates_a_tournament_directs_it_from_his_next_page() -> None:
    import datetime as dt

    creator = UserFactory(username="creator")
    director_grant_admin(user=creator)
    his = _as(creator)
    assert not _desk(his)
    tournament_services.tournament_create(
        actor=creator,
        name="Night Cup",
        start_date=dt.date.today(),
        end_date=dt.date.today(),
        rules="japanese",
    )
    assert _desk(his)


# --------------------------------------------------------------------------- his games


def test_a_claim_shows_at_once_and_a_confirmation_clears_it(  # type: ignore[no-untyped-def]
    game: Game, alice: Any, bob: Any
):
    his = _as(alice.user)
    assert "to confirm" not in _header(his)  # warm, with nothing waiting
    services.game_result_submit(actor=bob.user, game=game, result="W+R")
    assert "1 to confirm" in _header(his)
    services.game_result_confirm(actor=alice.user, game=game)
    assert "to confirm" not in _header(his)


def test_a_contest_clears_the_count(game: Game, alice: Any, bob: Any) -> None:
    his = _as(alice.user)
    services.game_result_submit(actor=bob.user, game=game, result="W+R")
    assert "1 to confirm" in _header(his)
    services.game_result_contest(actor=alice.user, game=game, reason="I won on time")
    assert "to confirm" not in _header(his)


# --------------------------------------------------------------------------- his account


def test_an_account_linked_to_a_player_names_him_and_the_old_account_no_longer(  # type: ignore[no-untyped-def]
    superuser: Any, alice: Any, outsider: Any
):
    old, new = _as(alice.user), _as(outsider)
    assert "Liddell Alice" in _header(old) and "My games" not in _header(new)
    people.player_update(actor=superuser, player=alice, user=outsider)
    assert "Liddell Alice" in _header(new) and "My games" in _header(new)
    assert "Liddell Alice" not in _header(old) and "My games" not in _header(old)


def test_a_renamed_player_is_renamed_in_his_header(superuser: Any, bob: Any) -> None:
    his = _as(bob.user)
    assert "Builder Bob" in _header(his)
    people.player_update(actor=superuser, player=bob, family_name="Baumeister")
    assert "Baumeister Bob" in _header(his)


def test_a_merge_moves_the_account_and_its_waiting_game_to_the_kept_record(  # type: ignore[no-untyped-def]
    game: Game, alice: Any, bob: Any
):
    from games.models import PossibleDuplicate
    from games.people.services.duplicates import duplicate_merge
    from tests.factories import PlayerFactory

    kept = PlayerFactory(family_name="Liddell", given_name="Alicia")
    his = _as(alice.user)
    services.game_result_submit(actor=bob.user, game=game, result="W+R")
    assert f'href="/players/{alice.pk}/">Liddell Alice' in _header(his)
    dup = PossibleDuplicate.objects.create(player=alice, other=kept, reason="the same name")
    duplicate_merge(actor=None, duplicate=dup, keep=kept)
    header_now = _header(his)
    assert f'href="/players/{kept.pk}/">Liddell Alicia' in header_now
    assert "1 to confirm" in header_now


def test_a_tournament_deleted_in_the_admin_takes_the_desk_from_its_officials(  # type: ignore[no-untyped-def]
    superuser: Any,
):
    from tests.factories import TournamentFactory

    cup = TournamentFactory(name="Short-lived Cup")
    boss, ref = UserFactory(username="boss"), UserFactory(username="ref")
    cup.directors.add(boss)
    cup.referees.add(ref)
    clients = [_as(u) for u in (boss, ref)]
    assert all(_desk(c) for c in clients)
    url = reverse("admin:games_tournament_delete", args=[cup.pk])
    assert _as(superuser).post(url, {"post": "yes"}).status_code == 302
    assert not any(_desk(c) for c in clients)


def test_a_seated_chief_referee_loses_the_desk_with_his_tournament() -> None:
    # The admin refuses this delete (the seats have no admin); the shell's does not.
    from tests.factories import TournamentFactory

    cup = TournamentFactory(name="Short-lived Cup")
    chief = UserFactory(username="chief")
    referee_services.tournament_officials_set(
        actor=None, tournament=cup, chief_referee=chief, committee=[]
    )
    his = _as(chief)
    assert _desk(his)
    cup.delete()
    assert not _desk(his)


def test_a_player_deleted_in_the_admin_leaves_his_account_header(superuser: Any) -> None:
    from tests.factories import PlayerFactory

    loner = PlayerFactory(family_name="Loner", given_name="Lee", user=UserFactory(username="lee"))
    his = _as(loner.user)
    assert "Loner Lee" in _header(his)
    url = reverse("admin:games_player_delete", args=[loner.pk])
    assert _as(superuser).post(url, {"post": "yes"}).status_code == 302
    assert "Loner Lee" not in _header(his) and "My games" not in _header(his)


def test_an_accepted_invitation_names_the_player_in_the_accounts_header(  # type: ignore[no-untyped-def]
    superuser: Any, outsider: Any
):
    from games.people.services.invitations import player_invitation_accept, player_invite
    from tests.factories import PlayerFactory

    carol = PlayerFactory(family_name="Carroll", given_name="Carol", email="carol@example.org")
    tokens: list[str] = []
    player_invite(
        actor=superuser,
        player=carol,
        accept_url=lambda token: tokens.append(token) or f"http://testserver/{token}/",
    )
    his = _as(outsider)
    assert "My games" not in _header(his)
    player_invitation_accept(token=tokens[0], user=outsider)
    assert f'href="/players/{carol.pk}/">Carroll Carol' in _header(his)
