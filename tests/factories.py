"""factory_boy factories for variants the personas do not cover.

Rows are built directly (factories are test fixtures, not a write path);
tests of behaviour go through ``games.services``.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from games.models import Club, Game, Player, Round, Tournament, TournamentEntry

PASSWORD = "correct horse battery staple"


@functools.cache
def password_hash() -> str:
    """Hashed once per test run: the real hasher is slow on purpose."""
    return make_password(PASSWORD)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.LazyFunction(password_hash)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Go Club {n}")
    country = "NZ"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    family_name = factory.Sequence(lambda n: f"Family{n}")
    given_name = factory.Sequence(lambda n: f"Given{n}")
    country = "NZ"
    declared_rank = -5  # 5k


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Open {n}")
    start_date = dt.date(2026, 3, 7)
    end_date = dt.date(2026, 3, 8)
    rules = "japanese"
    board_size = 19
    komi = Decimal("6.5")


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round
        django_get_or_create = ("tournament", "number")

    tournament = factory.SubFactory(TournamentFactory)
    number = 1


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    tournament = factory.SubFactory(TournamentFactory)
    round = factory.LazyAttribute(
        lambda g: Round.objects.get_or_create(tournament=g.tournament, number=1)[0]
    )
    black = factory.SubFactory(PlayerFactory)
    white = factory.SubFactory(PlayerFactory)
    handicap = 0
    komi = factory.LazyAttribute(lambda g: g.tournament.komi)
    rules = factory.LazyAttribute(lambda g: g.tournament.rules)


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentEntry
        django_get_or_create = ("tournament", "player")

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    rank = factory.LazyAttribute(lambda e: e.player.declared_rank)
    country = factory.LazyAttribute(lambda e: e.player.country)
    family_name = factory.LazyAttribute(lambda e: e.player.family_name)
    given_name = factory.LazyAttribute(lambda e: e.player.given_name)


def enter(tournament: Tournament, *players: Player) -> list[TournamentEntry]:
    """Enter ``players`` in ``tournament`` (a fixture: only entered players are paired)."""
    return [EntryFactory(tournament=tournament, player=p) for p in players]


def entered_player(tournament: Tournament, **kwargs: object) -> Player:
    """A new player, entered in ``tournament``."""
    player = PlayerFactory(**kwargs)
    enter(tournament, player)
    return player
