"""The games side of a dispute: the game's state, result and record while it is disputed.

The referee app decides (who may rule, what a ruling does) and calls these functions
inside its own transaction; they check the game's state, never the official's
authority, and audit every change with the old and new values (docs/referee.md).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine.rules import get_rules
from games.models import Game, GameState, Player, ResultSubmission, SubmissionKind
from games.services import outbound, records
from games.services.common import RULING_FINAL_MESSAGES
from games.services.results import game_lock, result_changed, result_store
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, validate_and_save


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
        game = game_lock(game)
        before = str(game.state)
        game.state = GameState.DISPUTED
        validate_and_save(game, update_fields=["state", "updated_at"])
    return game, before


def game_ruling_apply(*, actor: Actor, game: Game, after: dict[str, Any], reason: str) -> Game:
    """The game takes what a ruling decided: ``after`` is a ``game_snapshot`` (result,
    record, dead stones).  Audited as a replaced record when only the record changes,
    else as a ruled result; nothing is written when nothing changes."""
    now = game_snapshot(game)
    if now == after:
        return game
    if now["result"] == after["result"] and now["dead_stones"] == after["dead_stones"]:
        action = AuditAction.GAME_RECORD_REPLACED
    else:
        action = AuditAction.GAME_RESULT_RULED
    parsed = records.parse_result(after["result"]) if after["result"] else None
    size = game.tournament.board_size
    warnings: list[str] = []
    if after["sgf"]:
        read = records.read_record(
            after["sgf"],
            board_size=size,
            rules=get_rules(game.rules),
            komi=Decimal(game.komi),
            handicap=game.handicap,
            result=parsed,
        )
        warnings = read.warnings
    dead = records.parse_dead_stones(after["dead_stones"], board_size=size)
    with transaction.atomic():
        game = game_lock(game)
        if game.state != GameState.DISPUTED:
            raise StateConflict("Only a disputed game's result or record is changed by a ruling.")
        old = game_snapshot(game)
        result_store(
            game,
            result=parsed,
            sgf=after["sgf"],
            warnings=warnings,
            dead_stones=records.points_to_labels(dead, size),
            by=None,
        )
        new = game_snapshot(game)
        if new != old:
            audit_record(
                actor=actor, action=action, obj=game, old=old, new={**new, "reason": reason}
            )
            result_changed(game)
    return game


def game_dispute_settle(
    *, actor: Actor, game: Game, submitted_by: Player | None, reason: str, final: str = ""
) -> Game:
    """The dispute is closed: ``submitted`` again (``scheduled`` without a result).

    ``submitted_by`` is the player whose claim the result is again when the
    rulings left it as he claimed it (his opponent may then confirm), else
    ``None``: an official's result, which a director finalises.  ``final``: why
    the result is locked at once (one of ``RULING_FINAL_MESSAGES``: the arbitration
    committee ruled, or both players accepted the ruling), kept on the finalising
    submission and given to whoever tries to change it.
    """
    if final and final not in RULING_FINAL_MESSAGES:
        raise ValueError(f"Not a reason for a final result: {final!r}")
    with transaction.atomic():
        game = game_lock(game)
        if game.state != GameState.DISPUTED:
            raise StateConflict("This game is not disputed.")
        old = {"state": game.state}
        game.state = GameState.SUBMITTED if game.result_reason else GameState.SCHEDULED
        game.result_submitted_by = submitted_by if game.result_reason else None
        fields = ["state", "result_submitted_by", "updated_at"]
        if final and game.result_reason:
            game.state = GameState.FINAL
            game.result_submitted_by = None
            game.locked_at = timezone.now()
            fields.append("locked_at")
        validate_and_save(game, update_fields=fields)
        if game.state == GameState.FINAL:
            ResultSubmission.objects.create(
                game=game,
                kind=SubmissionKind.FINALISE,
                submitted_by=None,
                result=game.result_display,
                comment=final,
            )
            outbound.result_locked(game)
        new: dict[str, Any] = {"state": game.state, "reason": reason}
        if game.state == GameState.FINAL:
            new.update(result=game.result_display, final=final)
        audit_record(
            actor=actor, action=AuditAction.GAME_DISPUTE_SETTLED, obj=game, old=old, new=new
        )
    return game
