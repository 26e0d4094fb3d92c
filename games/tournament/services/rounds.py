"""Pairing a whole round: goref's pure pairing (``games.tournament.engine.pairing``, OpenGotha
3.52's weights) turned into games, and undoing a round that has no result yet.

docs/tournaments.md, "Pairing", has the rules; this module only checks, converts and
writes through ``game_create``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from django.core.exceptions import ValidationError
from django.db import transaction

from games import permissions
from games.models import Game, GameState, Player, Presence, Tournament
from games.services import outbound
from games.tournament.engine.model import Entrant
from games.tournament.engine.pairing import UNSET as PAIRING_UNSET
from games.tournament.engine.pairing import PairCost, PairingError, PairingParams, pair_round
from games.tournament.selectors import event_of
from games.tournament.services.entries import check_open, entry_participation_set
from games.tournament.services.lifecycle import refuse_unfinished
from games.tournament.services.pairings import games_create_round
from games.tournament.services.settings import as_komi, komi_for_game
from games.tournament.services.tournaments import rules_named
from ops.audit import audit_record
from ops.models import AuditAction
from ops.services import UNSET, Actor, StateConflict, Unset, require

Explain = bool | Literal["all"]
MAX_PAIRS = 2000  # explain "all": pairs costed per request (a page of them)
# A game as a director edited it: (black, white, handicap) or (black, white, handicap, komi).
EditedGame = tuple[int, int, int] | tuple[int, int, int, Decimal | None]


@dataclass(frozen=True)
class PlannedGame:
    table: int
    black: int
    white: int
    handicap: int
    komi: Decimal
    costs: dict[str, int]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class RoundPairing:
    round: int
    bye: int | None
    games: list[PlannedGame]
    total_cost: int
    pairs: list[PairCost] | None
    created: list[Game]
    pairs_total: int = 0


def _round_number(tournament: Tournament, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValidationError({"round": "A round number is a whole number from 1."})
    if value > tournament.number_of_rounds:
        raise ValidationError(
            {"round": f"This tournament has {tournament.number_of_rounds} rounds."}
        )
    return value


def _ids(value: object, field_name: str) -> list[int]:
    if not isinstance(value, list | tuple) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in value
    ):
        raise ValidationError({field_name: "A list of player ids."})
    if len(set(value)) != len(value):
        raise ValidationError({field_name: "A player is listed twice."})
    return list(value)


def _with_results(tournament: Tournament, number: int) -> list[Game]:
    return list(
        Game.objects.filter(tournament=tournament, round__number=number).exclude(
            state=GameState.SCHEDULED
        )
    )


def handicap_rule(
    tournament: Tournament, players: dict[int, Player], entered: dict[int, tuple[int, int | None]]
) -> Callable[[Entrant, Entrant], int] | None:
    """The tournament's handicap policy as the pairing reads it (> 0: the first player
    gives stones).  The komi is the tournament's, not the advice's (``komi_for_game``)."""
    kind = tournament.handicap_policy
    if kind == "mcmahon":
        return None  # OpenGotha's rule, from the tournament's handicap settings
    if kind == "none":
        return lambda a, b: 0
    preset = rules_named(tournament.rules)
    cache: dict[tuple[int, int], int] = {}

    def advised(a: Entrant, b: Entrant) -> int:
        key = (a.id, b.id)
        if key not in cache:
            advice = outbound.handicap_advice(
                tournament=tournament,
                a=players[a.id],
                b=players[b.id],
                rules=preset,
                entered=(entered[a.id], entered[b.id]),
            )
            a_white = getattr(advice.black, "pk", None) == b.id
            signed = advice.handicap if a_white else -advice.handicap
            cache[key], cache[(b.id, a.id)] = signed, -signed
        return cache[key]

    return advised


def round_pair(
    *,
    actor: Actor,
    tournament: Tournament,
    round_number: int,
    players: Sequence[int] | Unset = UNSET,
    bye: int | Unset | None = UNSET,
    dry_run: bool = False,
    explain: Explain = False,
    accept_unfinished: bool = False,
    pairs_of: Sequence[int] | None = None,
    pairs_offset: int = 0,
    pairs_limit: int = MAX_PAIRS,
) -> RoundPairing:
    """Pair round ``round_number``: ``players`` (default: everyone entered and playing
    in it), ``bye`` (left out: the one recorded for the round, else the rule's choice;
    ``None``: nobody).  ``dry_run`` answers without writing; otherwise the round's
    games are created in one transaction, replacing any it had without results (409
    when one has a result), and over earlier games without a final result only when
    ``accept_unfinished`` says the director saw them (409 naming them otherwise).
    ``explain="all"``: the cost of at most ``pairs_limit`` pairs from ``pairs_offset``,
    of every pair or of those with a player of ``pairs_of``."""
    require(permissions.is_director(actor, tournament), "Only its directors can pair a round.")
    check_open(tournament, "This tournament is closed: no more rounds can be paired.")
    number = _round_number(tournament, round_number)
    if _with_results(tournament, number):
        raise StateConflict(
            f"Round {number} already has results: it can no longer be paired again."
        )
    chosen = None if players is UNSET else _ids(players, "players")
    if bye is not UNSET and bye is not None and (isinstance(bye, bool) or not isinstance(bye, int)):
        raise ValidationError({"bye": "A player id, or null for no bye."})
    data = event_of(tournament)
    entered = set(data.entries)
    for field_name, ids in (
        ("players", chosen or []),
        ("bye", [bye] if isinstance(bye, int) else []),
    ):
        strangers = [i for i in ids if i not in entered]
        if strangers:
            raise ValidationError(
                {field_name: f"Not entered in this tournament: {', '.join(map(str, strangers))}."}
            )
    if chosen is not None and isinstance(bye, int) and bye in chosen:
        raise ValidationError({"bye": "The bye cannot be among the players to pair."})
    # A re-pairing starts from the round without its games.
    event = replace(data.event, games=tuple(g for g in data.event.games if g.round != number))
    policy = handicap_rule(
        tournament,
        data.players,
        {pid: (e.rank, e.rating) for pid, e in data.entries.items()},
    )
    try:
        result = pair_round(
            event,
            number,
            players=chosen,
            bye=PAIRING_UNSET if bye is UNSET else bye,
            explain=explain,
            handicap=policy,
            pairs_of=None if pairs_of is None else frozenset(pairs_of),
            pairs_window=(max(pairs_offset, 0), min(max(pairs_limit, 1), MAX_PAIRS)),
        )
    except (PairingError, ValueError) as error:
        raise ValidationError({"players": str(error)}) from None
    planned = [
        PlannedGame(
            table=g.table,
            black=g.black,
            white=g.white,
            handicap=g.handicap,
            komi=komi_for_game(tournament, g.handicap),
            costs=g.costs,
            reasons=g.reasons,
        )
        for g in result.games
    ]
    created: list[Game] = []
    if not dry_run:
        created = _write(actor, tournament, number, planned, result.bye, accept_unfinished)
    return RoundPairing(
        round=number,
        bye=result.bye,
        games=planned,
        total_cost=result.total_cost,
        pairs=list(result.pairs) if explain == "all" else None,
        created=created,
        pairs_total=result.pairs_total,
    )


@transaction.atomic
def _write(
    actor: Actor,
    tournament: Tournament,
    number: int,
    planned: list[PlannedGame],
    bye: int | None,
    accept_unfinished: bool,
) -> list[Game]:
    # Checked again under the transaction: a result may have come in meanwhile.
    if _with_results(tournament, number):
        raise StateConflict(f"Round {number} already has results.")
    if not accept_unfinished:
        check_earlier_rounds_final(tournament, number)
    old = list(Game.objects.filter(tournament=tournament, round__number=number))
    for game in old:
        audit_record(actor=actor, action=AuditAction.GAME_UNPAIRED, obj=game, old=_game_value(game))
        game.delete()
    _set_bye(actor, tournament, number, bye)
    created = games_create_round(
        actor=actor,
        tournament=tournament,
        round_number=number,
        games=[(g.black, g.white, g.handicap, g.komi, g.table) for g in planned],
    )
    audit_record(
        actor=actor,
        action=AuditAction.ROUND_PAIRED,
        obj=tournament,
        old={"round": number, "games": [_game_value(g) for g in old]} if old else None,
        new={"round": number, "bye": bye, "games": [_game_value(g) for g in created]},
    )
    return created


def check_earlier_rounds_final(tournament: Tournament, number: int) -> None:
    """409 naming the earlier rounds' games without a final result: pairing over them
    would score them as they stand, and once round ``number`` has a result it can no
    longer be paired again."""
    refuse_unfinished(
        Game.objects.filter(tournament=tournament, round__number__lt=number),
        what="earlier rounds",
        then=f"Pair round {number} over them only if you accept that (accept_unfinished).",
    )


def _set_bye(actor: Actor, tournament: Tournament, number: int, bye: int | None) -> None:
    for entry in tournament.entries.select_related("player"):
        presence = entry.presence(number)
        if entry.player_id == bye and presence != Presence.BYE:
            entry_participation_set(
                actor=actor, entry=entry, round_number=number, presence=Presence.BYE
            )
        elif entry.player_id != bye and presence == Presence.BYE:
            entry_participation_set(
                actor=actor, entry=entry, round_number=number, presence=Presence.PLAY
            )


def _game_value(game: Game) -> dict[str, object]:
    return {
        "table": game.table,
        "black": game.black_id,
        "white": game.white_id,
        "handicap": game.handicap,
        "komi": str(game.komi),
    }


@transaction.atomic
def round_unpair(*, actor: Actor, tournament: Tournament, round_number: int) -> int:
    """Undo round ``round_number``'s pairing while none of its results is entered: its
    games go, and its bye with them.  Returns the number of games removed."""
    require(permissions.is_director(actor, tournament), "Only its directors can unpair a round.")
    check_open(tournament, "This tournament is closed: its rounds cannot change.")
    number = _round_number(tournament, round_number)
    if _with_results(tournament, number):
        raise StateConflict(f"Round {number} already has results: it cannot be unpaired.")
    games = list(Game.objects.filter(tournament=tournament, round__number=number))
    for game in games:
        audit_record(actor=actor, action=AuditAction.GAME_UNPAIRED, obj=game, old=_game_value(game))
        game.delete()
    _set_bye(actor, tournament, number, None)
    return len(games)


def round_games_set(
    *,
    actor: Actor,
    tournament: Tournament,
    round_number: int,
    games: Sequence[EditedGame],
    bye: int | None = None,
    accept_unfinished: bool = False,
) -> list[Game]:
    """Set round ``round_number`` to ``games`` — (black, white, handicap) or (black, white,
    handicap, komi), table 1 first — as a director edited them from a preview (swapped,
    unpaired, paired by hand, komi changed; a komi of ``None``: the tournament's for that
    handicap).  Replaces the round's games while none has a result, and over earlier games
    without a final result only with ``accept_unfinished``; the other warnings are the
    preview's business."""
    require(permissions.is_director(actor, tournament), "Only its directors can pair a round.")
    check_open(tournament, "This tournament is closed: no more rounds can be paired.")
    number = _round_number(tournament, round_number)
    if _with_results(tournament, number):
        raise StateConflict(f"Round {number} already has results: it can no longer be paired.")
    entered = set(tournament.entries.values_list("player_id", flat=True))
    seen: set[int] = set()
    for black, white, *_rest in games:
        for p in (black, white):
            if p not in entered:
                raise ValidationError({"games": f"Player {p} is not entered in this tournament."})
            if p in seen or p == bye:
                raise ValidationError({"games": f"Player {p} is paired twice."})
            seen.add(p)
        if black == white:
            raise ValidationError({"games": "A player cannot play himself."})
    if bye is not None and bye not in entered:
        raise ValidationError({"bye": f"Player {bye} is not entered in this tournament."})
    planned = []
    for i, (black, white, handicap, *komi) in enumerate(games, start=1):
        given = komi[0] if komi else None
        planned.append(
            PlannedGame(
                table=i,
                black=black,
                white=white,
                handicap=handicap,
                komi=komi_for_game(tournament, handicap)
                if given is None
                else as_komi(given, field_name="games"),
                costs={},
                reasons=(),
            )
        )
    return _write(actor, tournament, number, planned, bye, accept_unfinished)


@transaction.atomic
def tournament_pairing_params_set(
    *, actor: Actor, tournament: Tournament, params: dict[str, str] | None
) -> Tournament:
    """Store the tournament's pairing parameters (OpenGotha's ``PairingParameterSet``
    attributes); ``None`` restores OpenGotha's defaults for the tournament's system."""
    require(
        permissions.is_director(actor, tournament), "Only its directors can change its settings."
    )
    try:
        value = (
            PairingParams.for_system(tournament.system)
            if params is None
            else PairingParams.from_opengotha(params, tournament.system)
        )
    except ValueError as error:
        raise ValidationError({"pairing_params": str(error)}) from None
    old = dict(tournament.pairing_params or {})
    new = value.to_opengotha()
    if old == new:
        return tournament
    tournament.pairing_params = new
    tournament.save(update_fields=["pairing_params"])
    audit_record(
        actor=actor, action=AuditAction.TOURNAMENT_PAIRING_PARAMS, obj=tournament, old=old, new=new
    )
    return tournament
