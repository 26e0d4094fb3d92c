"""validate_and_save with update_fields checks what the update can break, and only that."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from games.models import Game, GameState
from ops.services import validate_and_save


def test_a_changed_field_that_breaks_a_check_constraint_is_refused_before_the_database(
    game: Game, django_assert_num_queries: Any
) -> None:
    game.result_margin = Decimal("-1")
    with django_assert_num_queries(0), pytest.raises(ValidationError) as refused:
        validate_and_save(game, update_fields=["result_margin"])
    assert "game_margin_positive" in str(refused.value)


def test_a_locked_state_without_its_time_is_refused(game: Game) -> None:
    game.state = GameState.CONFIRMED
    with pytest.raises(ValidationError):
        validate_and_save(game, update_fields=["state"])


def test_a_constraint_on_an_expression_is_still_asked_of_the_database(game: Game) -> None:
    game.komi = Decimal("6.3")
    with pytest.raises(ValidationError, match="half points"):
        validate_and_save(game, update_fields=["komi"])


def test_a_unique_check_on_a_changed_field_still_runs(game: Game, tournament: Any) -> None:
    from tests.factories import GameFactory

    other = GameFactory(tournament=tournament, round=game.round, table=game.table + 1)
    other.table = game.table
    with pytest.raises(ValidationError):
        validate_and_save(other, update_fields=["table"])


def test_unchanged_foreign_keys_and_constraints_cost_nothing(
    game: Game, django_assert_num_queries: Any
) -> None:
    game.table = 7
    # the conditional unique constraint on (round, table): one check in a
    # savepoint (three statements); then the UPDATE
    with django_assert_num_queries(4):
        validate_and_save(game, update_fields=["table"])
