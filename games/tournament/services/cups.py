"""A cup's options (seeding, third place, consolation) and the director's choice of who
goes through a game without a winner.  The draw itself is pure (``engine/cup.py``) and
computed again from these and the results; docs/tournaments.md, "Cups"."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import Game, ResultReason, Tournament
from games.tournament.engine.cup import SEEDINGS
from games.tournament.engine.model import System
from games.tournament.selectors import standings_of
from games.tournament.services.entries import check_open
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import UNSET, Actor, StateConflict, Unset, require

NO_WINNER = (ResultReason.DRAW, ResultReason.VOID, ResultReason.BOTH_WIN)


def _check(actor: Actor, tournament: Tournament) -> None:
    require(permissions.is_director(actor, tournament), "Only its directors can change its cup.")
    check_open(tournament, "This tournament is closed: its cup cannot change.")
    if tournament.system != System.CUP:
        raise ValidationError({"system": "This tournament is not a cup."})


def _seeds_from(previous: Tournament) -> list[int]:
    """Player ids in the order of ``previous``'s standings after its last round."""
    return [row.player.pk for row in standings_of(previous).rows]


@transaction.atomic
def tournament_cup_set(
    *,
    actor: Actor,
    tournament: Tournament,
    seeding: str | Unset = UNSET,
    seeds_from: Tournament | Unset | None = UNSET,
    third_place: bool | Unset = UNSET,
    consolation: bool | Unset = UNSET,
) -> Tournament:
    """Set the cup's options.  ``seeds_from``: seed by that earlier event's standings
    (``seeding`` becomes "list").  The seeding cannot change once round 1 is paired: it
    would redraw a cup under way."""
    _check(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    old: dict[str, Any] = dict(tournament.cup or {})
    new = dict(old)
    if seeds_from is not UNSET and seeds_from is not None:
        new["seeding"], new["seeds"] = "list", _seeds_from(seeds_from)
        new["seeds_from"] = seeds_from.pk
    elif seeding is not UNSET:
        if seeding not in SEEDINGS:
            raise ValidationError({"seeding": f"Seed by {', '.join(SEEDINGS)}."})
        new["seeding"] = seeding
        if seeding != "list":
            new.pop("seeds", None)
            new.pop("seeds_from", None)
    for name, value in (("third_place", third_place), ("consolation", consolation)):
        if value is not UNSET:
            new[name] = bool(value)
    draw_keys = ("seeding", "seeds")
    if any(old.get(k) != new.get(k) for k in draw_keys) and tournament.games.exists():
        raise StateConflict("The cup is under way: its seeding can no longer change.")
    if new == old:
        return tournament
    tournament.cup = new
    tournament.save(update_fields=["cup"])
    audit_record(
        actor=actor, action=AuditAction.TOURNAMENT_CUP_SET, obj=tournament, old=old, new=new
    )
    return tournament


@transaction.atomic
def cup_through_choose(*, actor: Actor, game: Game, player_id: int) -> Tournament:
    """After a jigo, a both-win or a both-lose in a cup, the director says which of the
    two players goes through; it can be changed until the next round is paired."""
    tournament = game.tournament
    _check(actor, tournament)
    game = Game.objects.select_related("round").get(pk=game.pk)
    if game.result_reason not in NO_WINNER:
        raise ValidationError({"game": "Only a game without a winner needs a choice."})
    if player_id not in (game.black_id, game.white_id):
        raise ValidationError({"player": "Choose one of the game's two players."})
    if tournament.games.filter(round__number__gt=game.round.number).exists():
        raise StateConflict("The next round is paired: who went through can no longer change.")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    old = dict(tournament.cup or {})
    through = dict(old.get("through") or {})
    a, b = sorted((game.black_id, game.white_id))
    key = f"{game.round.number}:{a}:{b}"
    if through.get(key) == player_id:
        return tournament
    before = through.get(key)
    through[key] = player_id
    tournament.cup = {**old, "through": through}
    tournament.save(update_fields=["cup"])
    audit_record(
        actor=actor,
        action=AuditAction.TOURNAMENT_CUP_THROUGH,
        obj=tournament,
        old={"game": game.pk, "through": before},
        new={"game": game.pk, "through": player_id},
    )
    return tournament
