"""The players' part in finding dead stones: confirming a flipped estimate, and the
stone-removal step (each player marks the dead stones, both agree).

The order and what each step writes: docs/rules.md, "How dead stones are found".
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from games import permissions
from games.engine.coords import CoordinateError, parse_point, point_to_gtp
from games.engine.record import parse_record
from games.engine.replay import Replay, replay
from games.engine.rules import get_rules
from games.engine.scoring import score
from games.engine.types import Color, Point
from games.engine.verdict import Step, comparable
from games.models import DeadStoneReview, Game, ReviewState, ScoringRun
from games.services import outbound
from games.services.common import GameLockedError
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import Actor, StateConflict, validate_and_save


def _final_position(game: Game) -> Replay:
    return replay(parse_record(game.sgf), get_rules(game.rules), strict=False)


def final_stones(game: Game) -> tuple[int, dict[Point, Color]]:
    """The board size and the stones of the game's final position."""
    board = _final_position(game).board
    return board.size, board.stones()


def _labels(points: set[Point] | frozenset[Point], size: int) -> list[str]:
    return [point_to_gtp(p, size) for p in sorted(points, key=lambda p: (p[1], p[0]))]


# --------------------------------------------------------------------------- flipped


def flip_accept(*, game: Game, run: ScoringRun | None, actor: Actor) -> bool:
    """The opponent confirms a result that the engine counts only with some unsure chains
    flipped: confirming agrees to those dead stones, stored on the game.  The caller
    holds the game's lock; ``False`` when there is nothing to agree to."""
    if run is None or run.step != Step.CONFIRM or run.dead_stones is None:
        return False
    old = list(game.dead_stones or [])
    game.dead_stones = list(run.dead_stones)
    validate_and_save(game, update_fields=["dead_stones", "updated_at"])
    audit_record(
        actor=actor,
        action=AuditAction.GAME_DEAD_STONES_AGREED,
        obj=game,
        old={"dead_stones": old},
        new={"dead_stones": game.dead_stones, "how": "flipped", "flipped": run.flipped},
    )
    return True


# --------------------------------------------------------------------------- removal


def review_open(*, game: Game, run: ScoringRun) -> DeadStoneReview:
    """Start (or restart, after a new record) the stone-removal step with the estimate
    pre-filled.  Called by the re-scoring job inside its transaction."""
    review = DeadStoneReview.objects.select_for_update().filter(
        game=game, state=ReviewState.OPEN
    ).first() or DeadStoneReview(game=game)
    review.run = run
    review.estimate = list(run.dead_stones or [])
    review.unsure = list(run.unsure or [])
    review.black_marking = review.white_marking = None
    review.black_agreed_at = review.white_agreed_at = None
    validate_and_save(review)
    audit_record(
        actor=None,
        action=AuditAction.DEAD_STONES_REVIEW_OPENED,
        obj=review,
        new={"estimate": review.estimate, "unsure": review.unsure, "run": run.pk},
    )
    return review


def review_close(*, game: Game) -> None:
    """The opponent confirmed the claimed result: the players agree, no marking is needed."""
    review = (
        DeadStoneReview.objects.select_for_update()
        .filter(game=game, state=ReviewState.OPEN)
        .first()
    )
    if review is not None:
        review.state = ReviewState.AGREED
        validate_and_save(review)
        audit_record(
            actor=None,
            action=AuditAction.DEAD_STONES_REVIEW_CLOSED,
            obj=review,
            new={"by": "confirmation"},
        )


def open_review(game: Game) -> DeadStoneReview | None:
    return DeadStoneReview.objects.filter(game=game, state=ReviewState.OPEN).first()


def player_color(actor: Actor, game: Game) -> str:
    """``"B"`` or ``"W"``: the actor's colour in the game; refused to anyone else."""
    player = permissions.player_for(actor)
    if player is None or player.pk not in (game.black_id, game.white_id):
        raise PermissionDenied("Only the players of this game mark its dead stones.")
    return "B" if player.pk == game.black_id else "W"


def _locked_review(game: Game) -> tuple[Game, DeadStoneReview]:
    game = Game.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=game.pk)
    if game.is_locked:
        raise GameLockedError()
    review = (
        DeadStoneReview.objects.select_for_update()
        .filter(game=game, state=ReviewState.OPEN)
        .first()
    )
    if review is None:
        raise StateConflict("There is no stone removal open for this game.")
    return game, review


def dead_stones_toggle(*, actor: Actor, game: Game, point: str) -> DeadStoneReview:
    """A player marks the chain at ``point`` dead, or alive again, in his own marking;
    his agreement (if he had given it) is withdrawn.  Audited: the marking before and
    after, so a later dispute shows how each player got to his."""
    color = player_color(actor, game)
    with transaction.atomic():
        game, review = _locked_review(game)
        played = _final_position(game)
        size = played.board.size
        try:
            p = parse_point(point, size)
        except (CoordinateError, ValueError) as e:
            raise ValidationError({"point": str(e)}) from None
        if played.board.get(p) is None:
            raise ValidationError({"point": f"{point_to_gtp(p, size)} is empty: mark a stone."})
        chain = set(played.board.chain(p))
        before = review.marking(color)
        marking = {parse_point(s, size) for s in before}
        marking = marking - chain if chain & marking else marking | chain
        labels = _labels(marking, size)
        if color == "B":
            review.black_marking, review.black_agreed_at = labels, None
        else:
            review.white_marking, review.white_agreed_at = labels, None
        validate_and_save(review)
        audit_record(
            actor=actor,
            action=AuditAction.DEAD_STONES_MARKING_CHANGED,
            obj=review,
            old={"color": color, "marking": list(before)},
            new={"color": color, "marking": labels, "point": point_to_gtp(p, size)},
        )
    return review


def _points(marking: list[str], size: int) -> frozenset[Point]:
    """A marking as the points it names, whatever their order or spelling."""
    return frozenset(parse_point(s, size) for s in marking)


def same_marking(first: list[str], second: list[str], size: int) -> bool:
    """The two markings mark the same stones dead (``c5 H5`` is ``H5 C5``)."""
    return _points(first, size) == _points(second, size)


@dataclass(frozen=True)
class Resolution:
    """Where the stone removal stands after an agreement; ``same_marking``: both
    players marked the same stones (a dispute then is about the claim, not them)."""

    state: str
    result: str = ""
    dispute_id: int | None = None
    same_marking: bool = False


def dead_stones_agree(*, actor: Actor, game: Game) -> Resolution:
    """A player agrees to his marking.  Once both have: the same marking whose count
    bears out the claimed result becomes the game's dead stones (and it is re-scored);
    two markings, or one that contradicts the claim, open a dead-stone dispute."""
    from games.services.scoring import scoring_run_request

    color = player_color(actor, game)
    with transaction.atomic():
        game, review = _locked_review(game)
        now = timezone.now()
        if color == "B":
            review.black_agreed_at = now
        else:
            review.white_agreed_at = now
        if review.black_agreed_at is None or review.white_agreed_at is None:
            validate_and_save(review)
            return Resolution(state=ReviewState.OPEN)
        black, white = review.marking("B"), review.marking("W")
        played = _final_position(game)
        size = played.board.size
        counts = {
            name: score(played, dead=set(_points(marking, size)), komi=Decimal(game.komi)).result
            for name, marking in (("B", black), ("W", white))
        }
        agreed = same_marking(black, white, size)
        bears_out = comparable(game.result, counts["B"]) is not False
        if agreed and bears_out:
            review.state = ReviewState.AGREED
            validate_and_save(review)
            old = list(game.dead_stones or [])
            game.dead_stones = _labels(_points(black, size), size)
            validate_and_save(game, update_fields=["dead_stones", "updated_at"])
            audit_record(
                actor=actor,
                action=AuditAction.GAME_DEAD_STONES_AGREED,
                obj=game,
                old={"dead_stones": old},
                new={"dead_stones": game.dead_stones, "how": "stone removal", "review": review.pk},
            )
            scoring_run_request(game=game)
            return Resolution(
                state=ReviewState.AGREED, result=counts["B"].to_sgf(), same_marking=True
            )
        review.state = ReviewState.DISPUTED
        evidence: dict[str, Any] = {
            "dead_stones_review": review.pk,
            "estimate": review.estimate,
            "unsure": review.unsure,
            "markings": {"B": black, "W": white},
            "same_marking": agreed,
            "counts": {k: v.to_sgf() for k, v in counts.items()},
            "submitted_result": game.result_display,
            "rules": game.rules,
            "komi": str(game.komi),
        }
        if agreed:
            claim = (
                f"The players agree on the dead stones, but with them the record counts "
                f"{counts['B'].to_sgf()}, not the submitted {game.result_display}."
            )
        else:
            claim = (
                f"The players do not agree on the dead stones: Black's marking counts "
                f"{counts['B'].to_sgf()}, White's {counts['W'].to_sgf()}."
            )
        review.dispute_id = outbound.record_mismatch(
            game=game, kind="dead-stones", claim=claim, evidence=evidence
        )
        validate_and_save(review)
        audit_record(
            actor=actor,
            action=AuditAction.DEAD_STONES_DISPUTED,
            obj=review,
            new={"markings": evidence["markings"], "dispute": review.dispute_id},
        )
        return Resolution(
            state=ReviewState.DISPUTED,
            result=counts["B"].to_sgf() if agreed else "",
            dispute_id=review.dispute_id,
            same_marking=agreed,
        )


# --------------------------------------------------------------------------- pages


def review_page(game: Game, review: DeadStoneReview, viewer_color: str | None) -> dict[str, Any]:
    """What the stone-removal page shows: the final position, the viewer's marking (the
    estimate until he changes it), every chain with its state and whether the engine
    was unsure of it, the stones of the unsure chains, and for a player the stones his
    opponent's marking judges otherwise (none: the same marking)."""
    played = _final_position(game)
    board = played.board
    size = board.size
    marking = _points(review.marking(viewer_color or "B"), size)
    unsure = _points([label for group in review.unsure for label in group], size)
    chains: list[dict[str, Any]] = []
    seen: set[Point] = set()
    for p, c in sorted(board.stones().items(), key=lambda item: (item[0][1], item[0][0])):
        if p in seen:
            continue
        chain = board.chain(p)
        seen |= chain
        labels = _labels(set(chain), size)
        chains.append(
            {
                "point": labels[0],
                "color": "Black" if c is Color.BLACK else "White",
                "stones": labels,
                "dead": bool(chain & marking),
                "unsure": bool(chain & unsure),
            }
        )
    # Unsure and dead chains first: those are the ones to look at.
    chains.sort(key=lambda ch: (not ch["unsure"], not ch["dead"]))
    dead_points = set(marking)
    # The opponent's marking beside the viewer's, compared as the stones they name.
    other = {"B": "W", "W": "B"}.get(viewer_color or "")
    differ: list[str] = []
    if other is not None:
        differ = _labels(marking ^ _points(review.marking(other), size), size)
    return {
        "opponent_differs": differ,
        "size": size,
        "stones": board.stones(),
        "dead": dead_points,
        "unsure": {parse_point(s, size) for ch in chains if ch["unsure"] for s in ch["stones"]},
        "chains": chains,
        "count": score(played, dead=dead_points, komi=Decimal(game.komi)).result.to_sgf(),
    }
