"""Referee personas on top of the shared ones: a 9x9 New Zealand-rules game
between alice (Black) and bob (White), the tournament's chief referee and its
arbitration committee of three (``member1`` ... ``member3``)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.engine.coords import parse_point
from games.engine.record import write_record
from games.engine.types import Color, GameRecord, Move
from referee import services
from tests.factories import TournamentFactory, UserFactory


def sgf(*moves: str, size: int = 9, komi: str = "7") -> str:
    """A record from moves such as "B A1", "W pass"."""
    actions = []
    for item in moves:
        colour, point = item.split()
        p = None if point == "pass" else parse_point(point, size)
        actions.append(Move(Color.from_letter(colour), p))
    return write_record(GameRecord(size=size, komi=Decimal(komi), actions=tuple(actions)))


@pytest.fixture
def chief(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="chief", first_name="Chen")


@pytest.fixture
def members(db):  # type: ignore[no-untyped-def]
    return [UserFactory(username=f"member{k}") for k in (1, 2, 3)]


@pytest.fixture
def nz(director, referee, chief, members):  # type: ignore[no-untyped-def]
    t = TournamentFactory(name="Auckland Champs", rules="nz", board_size=9, komi=Decimal(7))
    t.directors.add(director)
    t.referees.add(referee)
    services.tournament_officials_set(
        actor=director, tournament=t, chief_referee=chief, committee=members
    )
    return t


@pytest.fixture
def nz_game(nz, alice, bob):  # type: ignore[no-untyped-def]
    from games.tournament.services import game_create
    from tests.factories import enter

    enter(nz, alice, bob)
    return game_create(actor=None, tournament=nz, round_number=1, black=alice, white=bob, table=1)
