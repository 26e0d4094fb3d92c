"""Finalising in bulk (a round's known results, a result sheet): every game locked in
one transaction, except the games a dispute or the stone-removal step holds, which are
left and named (docs/games.md, "A dispute holds its game")."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.models import DeadStoneReview, Game, ReviewState
from games.services.common import GameHeldError
from games.services.results import game_finalise
from ops.services import Actor


@dataclass(frozen=True)
class Finalised:
    """What a bulk finalise did: the games it locked, and those it left with why
    (``GameHeldError.why``: ``"disputed"`` or ``"marking"``), in the order given."""

    games: list[Game]
    held: list[tuple[Game, str]]


def games_finalise(*, actor: Actor, games: list[Game]) -> Finalised:
    """``game_finalise`` for several games in one transaction (a round's known results, a
    result sheet): every game or none, except the games a dispute or the stone-removal
    step holds, which are left as they are and named in the answer."""
    done: list[Game] = []
    held: list[tuple[Game, str]] = []
    # One read for the round: only a game with an open stone-removal step asks again.
    marking = set(
        DeadStoneReview.objects.filter(
            game__in=[g.pk for g in games], state=ReviewState.OPEN
        ).values_list("game_id", flat=True)
    )
    with transaction.atomic():
        for game in games:
            try:
                held_by_marking = game.pk in marking
                done.append(game_finalise(actor=actor, game=game, marking_holds=held_by_marking))
            except GameHeldError as e:  # its savepoint is rolled back, nothing written
                held.append((e.game, e.why))
    return Finalised(done, held)
