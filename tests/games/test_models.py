"""Invariants the database holds itself (run on SQLite locally and PostgreSQL in CI)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine.result import Reason
from games.engine.types import Color
from games.models import Game, GameState
from tests.factories import GameFactory, PlayerFactory, RoundFactory, TournamentFactory


def _integrity_error(**kwargs):  # type: ignore[no-untyped-def]
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(**kwargs)


def test_a_player_cannot_play_himself_in_the_database(db):
    p = PlayerFactory()
    _integrity_error(black=p, white=p)


def test_one_game_per_pairing_per_round_whatever_the_colours(db):
    game = GameFactory()
    _integrity_error(tournament=game.tournament, black=game.white, white=game.black)
    _integrity_error(tournament=game.tournament, black=game.black, white=game.white)
    other_round = RoundFactory(tournament=game.tournament, number=2)
    GameFactory(tournament=game.tournament, round=other_round, black=game.white, white=game.black)


def test_the_pairing_constraint_is_reported_by_full_clean(db):
    game = GameFactory()
    twin = Game(
        tournament=game.tournament,
        round=game.round,
        black=game.white,
        white=game.black,
        komi=Decimal("6.5"),
        rules="japanese",
    )
    with pytest.raises(ValidationError, match="already have a game in this round"):
        twin.full_clean()


@pytest.mark.parametrize("komi", ["6.3", "-0.7", "0.1"])
def test_komi_must_be_half_points(db, komi):
    _integrity_error(komi=Decimal(komi))
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentFactory(komi=Decimal(komi))


@pytest.mark.parametrize("komi", ["6.5", "7", "0", "-5.5", "0.5"])
def test_whole_and_half_komi_are_fine(db, komi):
    game = GameFactory(komi=Decimal(komi))
    game.full_clean()


def test_one_game_per_table_per_round(db):
    game = GameFactory(table=3)
    _integrity_error(tournament=game.tournament, table=3)
    GameFactory(tournament=game.tournament, table=None)
    GameFactory(tournament=game.tournament, table=None)


def test_a_locked_game_has_a_lock_time_and_only_a_locked_one(db):
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(state=GameState.CONFIRMED)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory(state=GameState.SUBMITTED, locked_at=timezone.now())
    assert GameFactory(state=GameState.FINAL, locked_at=timezone.now()).is_locked


def test_a_margin_is_positive(db):
    _integrity_error(result_reason="score", result_winner="B", result_margin=Decimal(0))


def test_the_result_reads_back_as_an_engine_value(db):
    game = GameFactory(result_winner="W", result_reason="score", result_margin=Decimal("3.5"))
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.margin) == (
        Color.WHITE,
        Reason.SCORE,
        Decimal("3.5"),
    )
    assert game.result_display == "W+3.5"
    assert GameFactory(result_reason="draw").result_display == "0"
    assert GameFactory().result is None
