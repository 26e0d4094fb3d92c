"""The games side of a referee's dispute: the game's state, result and record.

``referee.services`` decides (who may rule, what a ruling does, seed 001) and
calls these functions, inside its own transaction, to change the game: this
module is the one place those game fields are written for a dispute, with
an audit row holding the old and the new values.  They check the game's
state, never the official's authority: that is the referee service's job
(chief referee and committee are referee-app roles).

* ``game_dispute_open``: the game becomes ``disputed`` (refused once locked).
* ``game_result_rule`` / ``game_record_replace``: a ruling sets the result
  and/or the record while the game is disputed.  The result is then an
  official's (``result_submitted_by`` is null), so a player cannot overwrite
  it by submitting again.
* ``game_dispute_settle``: the dispute is closed; the game goes back to
  ``submitted`` (or ``scheduled`` when it has no result: play goes on) so a
  director can finalise it, or the opponent confirm when the claim stood.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games.engine.rules import get_rules
from games.models import Game, GameState, Player
from games.services import records
from games.services.common import GameLockedError, GameStateError, validate_and_save
from games.services.results import _after_result_changed, _lock
from referee.audit import audit_record

_FIELDS = [
    "result_winner", "result_margin", "result_reason", "result_submitted_by", "sgf",
    "sgf_warnings", "dead_stones", "updated_at",
]  # fmt: skip


def game_snapshot(game: Game) -> dict[str, Any]:
    """What a ruling may change, as JSON: the result (RE), the record, the dead stones."""
    return {
        "result": game.result_display,
        "sgf": game.sgf,
        "dead_stones": list(game.dead_stones or []),
    }


def game_dispute_open(*, game: Game) -> tuple[Game, str]:
    """Lock the game row and mark it disputed; returns it and the state it had."""
    with transaction.atomic():
        game = _lock(game)
        if game.is_locked:
            raise GameLockedError()
        before = str(game.state)
        game.state = GameState.DISPUTED
        validate_and_save(game, update_fields=["state", "updated_at"])
    return game, before


def _apply(
    *, actor: Any, game: Game, result: str, sgf: str, dead_stones: list[str], action: str,
    reason: str,
) -> Game:  # fmt: skip
    parsed = records.parse_result(result) if result else None
    size = game.tournament.board_size
    rules = get_rules(game.rules)
    warnings: list[str] = []
    if sgf:
        read = records.read_record(
            sgf, board_size=size, rules=rules, komi=Decimal(game.komi), handicap=game.handicap,
            result=parsed,
        )  # fmt: skip
        warnings = read.warnings
    dead = records.parse_dead_stones(dead_stones, board_size=size)
    with transaction.atomic():
        game = _lock(game)
        if game.is_locked:
            raise GameLockedError()
        if game.state != GameState.DISPUTED:
            raise GameStateError("Only a disputed game's result or record is changed by a ruling.")
        old = game_snapshot(game)
        game.result_winner = parsed.winner.letter if parsed and parsed.winner else ""
        game.result_margin = parsed.margin if parsed else None
        game.result_reason = parsed.reason.value if parsed else ""
        game.result_submitted_by = None
        game.sgf = sgf
        game.sgf_warnings = warnings
        game.dead_stones = records.points_to_labels(dead, size)
        validate_and_save(game, update_fields=_FIELDS)
        new = game_snapshot(game)
        if new != old:
            audit_record(
                actor=actor, action=action, obj=game, old=old, new={**new, "reason": reason}
            )
            _after_result_changed(game)
    return game


def game_result_rule(
    *,
    actor: Any,
    game: Game,
    result: str,
    sgf: str | None = None,
    dead_stones: list[str] | None = None,
    reason: str,
) -> Game:
    """A ruling sets the result (an RE string, ``""`` for none) and, when given,
    the record and the dead stones; audited with old and new values."""
    if not isinstance(result, str) or (result and not result.strip()):
        raise ValidationError({"result": "Enter a result such as B+5.5, W+R, B+T or B+F."})
    return _apply(
        actor=actor, game=game, result=result.strip(),
        sgf=game.sgf if sgf is None else sgf,
        dead_stones=list(game.dead_stones or []) if dead_stones is None else dead_stones,
        action="game.result_ruled", reason=reason,
    )  # fmt: skip


def game_record_replace(*, actor: Any, game: Game, sgf: str, reason: str) -> Game:
    """A ruling replaces the record (the result stays); audited with both records."""
    return _apply(
        actor=actor, game=game, result=game.result_display, sgf=sgf,
        dead_stones=list(game.dead_stones or []), action="game.record_replaced", reason=reason,
    )  # fmt: skip


def game_dispute_settle(
    *, actor: Any, game: Game, submitted_by: Player | None, reason: str
) -> Game:
    """The dispute is closed: ``submitted`` again (``scheduled`` without a result).

    ``submitted_by`` is the player whose claim the result is again when the
    rulings left it as he claimed it (his opponent may then confirm), else
    ``None``: an official's result, which a director finalises.
    """
    with transaction.atomic():
        game = _lock(game)
        if game.is_locked:
            raise GameLockedError()
        if game.state != GameState.DISPUTED:
            raise GameStateError("This game is not disputed.")
        old = {"state": game.state}
        game.state = GameState.SUBMITTED if game.result_reason else GameState.SCHEDULED
        game.result_submitted_by = submitted_by if game.result_reason else None
        validate_and_save(game, update_fields=["state", "result_submitted_by", "updated_at"])
        audit_record(
            actor=actor, action="game.dispute_settled", obj=game, old=old,
            new={"state": game.state, "reason": reason},
        )  # fmt: skip
    return game
