"""Named personas, as pytest fixtures shared by every app's tests.

``director`` runs ``tournament`` (19x19, japanese rules) and ``referee`` referees it;
``alice`` (Black, 3k) and ``bob`` (White, 2k), with accounts, play ``game`` (round 1,
table 1); ``outsider`` has an account and nothing else; ``superuser`` is the admin.
Password: ``tests.factories.PASSWORD``; variants come from ``tests.factories``.
"""

from __future__ import annotations

import pytest

from tests.factories import PASSWORD, PlayerFactory, TournamentFactory, UserFactory, enter


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def director(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="director", first_name="Dana")


@pytest.fixture
def referee(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="referee", first_name="Rex")


@pytest.fixture
def outsider(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="outsider", first_name="Oscar")


@pytest.fixture
def superuser(db):  # type: ignore[no-untyped-def]
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    return user


@pytest.fixture
def tournament(director, referee):  # type: ignore[no-untyped-def]
    t = TournamentFactory(name="Wellington Open", rules="japanese", board_size=19)
    t.directors.add(director)
    t.referees.add(referee)
    return t


@pytest.fixture
def alice(db):  # type: ignore[no-untyped-def]
    user = UserFactory(username="alice", first_name="Alice")
    return PlayerFactory(family_name="Liddell", given_name="Alice", declared_rank=-3, user=user)


@pytest.fixture
def bob(db):  # type: ignore[no-untyped-def]
    user = UserFactory(username="bob", first_name="Bob")
    return PlayerFactory(family_name="Builder", given_name="Bob", declared_rank=-2, user=user)


@pytest.fixture
def game(tournament, alice, bob):  # type: ignore[no-untyped-def]
    from games.tournament.services import game_create

    enter(tournament, alice, bob)
    return game_create(
        actor=None, tournament=tournament, round_number=1, black=alice, white=bob, table=1
    )


@pytest.fixture
def api():  # type: ignore[no-untyped-def]
    """A DRF test client; ``api.force_authenticate(user)`` to act as someone."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def api_as(api):  # type: ignore[no-untyped-def]
    """``api_as(user)``: the client, authenticated as ``user`` (a User or a Player with one)."""

    def login(who):  # type: ignore[no-untyped-def]
        user = getattr(who, "user", who)
        api.force_authenticate(user=user)
        return api

    return login
