"""Pair one round: choose the bye, weigh every pair, match, colour, number tables.

``pair_round`` is the one entry point; it reads an ``Event`` (the rounds before
and who is checked in) and returns the games with OpenGotha's cost of each, and,
on request, the cost of every possible pair and each game's reasons in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import islice
from typing import Literal

from games.tournament.engine.cup import CupError, round_pairs
from games.tournament.engine.model import Entrant, Event, Presence, System
from games.tournament.engine.pairing.berger import berger_rounds
from games.tournament.engine.pairing.bye import choose_bye
from games.tournament.engine.pairing.colours import colours
from games.tournament.engine.pairing.explain import reasons
from games.tournament.engine.pairing.matching import NoPerfectMatching, max_weight_perfect_matching
from games.tournament.engine.pairing.params import PairingParams
from games.tournament.engine.pairing.state import PlayerState, RoundState, round_state
from games.tournament.engine.pairing.weights import Costs, HandicapRule, costs, opengotha_handicap
from games.tournament.engine.tables import numbered

# OpenGotha pairs a field of more than 600 in slices of at least 200, top score down.
SLICE_MIN = 200
SLICE_MAX = 600


class _Unset(Enum):
    UNSET = "unset"


UNSET = _Unset.UNSET
"""``bye`` left out: the bye recorded for the round if any, else chosen by the rule."""


class PairingError(ValueError):
    """The round cannot be paired as asked; the message says why."""


@dataclass(frozen=True, slots=True)
class PairedGame:
    table: int
    black: int
    white: int
    handicap: int
    costs: dict[str, int]
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PairCost:
    a: int  # first in pairing-list order
    b: int
    costs: dict[str, int]


@dataclass(frozen=True, slots=True)
class Pairing:
    round: int
    bye: int | None
    games: tuple[PairedGame, ...]
    total_cost: int
    pairs: tuple[PairCost, ...] = ()
    pairs_total: int = 0  # with explain "all": how many pairs there are in all


SignedHandicap = Callable[[Entrant, Entrant], int]
"""A handicap policy: > 0 when the first player gives that many stones."""


def pair_round(
    event: Event,
    round_number: int,
    players: Iterable[int] | None = None,
    bye: int | _Unset | None = UNSET,
    explain: bool | Literal["all"] = False,
    *,
    params: PairingParams | None = None,
    handicap: SignedHandicap | None = None,
    pairs_of: frozenset[int] | None = None,
    pairs_window: tuple[int, int] = (0, 1000),
) -> Pairing:
    """Pair round ``round_number`` (1-based) of ``event``.

    ``players``: who to pair (default: everyone checked in to play the round);
    ``bye``: who sits out (see ``UNSET``; ``None`` for nobody); ``handicap``:
    goref's handicap policy, else OpenGotha's from the event's settings.
    ``explain="all"`` adds the cost of the pairs in ``pairs_window`` (offset, limit) of
    every pair in pairing-list order, or of those with a player of ``pairs_of``: a
    field of n players has n(n-1)/2 pairs, so only a window is ever computed.
    """
    s = event.settings
    if not 1 <= round_number <= max(s.rounds, 1):
        raise PairingError(f"round {round_number} is outside 1..{s.rounds}")
    if params is None:
        params = PairingParams.from_opengotha(event.pairing, s.system)
    known = {e.id: e for e in event.entrants}
    cup_pairs: list[tuple[int, int]] | None = None
    if s.system is System.CUP:
        cup_pairs = _cup_pairs(event, round_number)
        chosen, bye_id = [p for pair in cup_pairs for p in pair], None
    else:
        chosen, bye_id = _who_plays(event, round_number, players, bye, known)
    st = round_state(event, round_number, params, extra=[*chosen, *([bye_id] if bye_id else [])])
    if cup_pairs is None and bye_id is None and len(chosen) % 2 and (bye is UNSET):
        bye_id = choose_bye((st.players[p] for p in chosen), st.mcmahon).entrant.id
        chosen.remove(bye_id)
    if len(chosen) % 2:
        raise PairingError(f"{len(chosen)} players to pair: an odd number and no bye")

    rule: HandicapRule
    if handicap is None:
        rule = opengotha_handicap(s)
    else:
        policy = handicap

        def rule(a: PlayerState, b: PlayerState) -> int:
            return policy(a.entrant, b.entrant)

    position = {pid: i for i, pid in enumerate(st.order)}
    to_pair = sorted(chosen, key=lambda p: position[p])
    if cup_pairs is not None:
        matched = cup_pairs
    elif s.system is System.ROUND_ROBIN:
        matched = _round_robin(event, round_number, set(to_pair), position)
    else:
        matched = _match(st, to_pair, rule)

    games: list[PairedGame] = []
    total = 0
    for a_id, b_id in matched:
        a, b = st.players[a_id], st.players[b_id]
        c = costs(st, a, b, rule)
        total += c.total
        col = colours(a_id, b_id, rule(a, b), a.wb, b.wb, a.det_name, b.det_name)
        games.append(
            PairedGame(
                table=0,
                black=col.black,
                white=col.white,
                handicap=col.handicap,
                costs=c.as_dict(),
                reasons=tuple(reasons(st, a, b, c, col)) if explain else (),
            )
        )
    games = number_tables(st, games)
    pairs: tuple[PairCost, ...] = ()
    pairs_total = 0
    if explain == "all":
        n = len(to_pair)
        if pairs_of is None:
            pairs_total = n * (n - 1) // 2
        else:
            inside = sum(1 for p in to_pair if p in pairs_of)
            pairs_total = inside * (n - inside) + inside * (inside - 1) // 2
        candidates = (
            (a, b)
            for i, a in enumerate(to_pair)
            for b in to_pair[i + 1 :]
            if pairs_of is None or a in pairs_of or b in pairs_of
        )
        offset, limit = pairs_window
        pairs = tuple(
            PairCost(a=a, b=b, costs=costs(st, st.players[a], st.players[b], rule).as_dict())
            for a, b in islice(candidates, offset, offset + limit)
        )
    return Pairing(
        round=round_number,
        bye=bye_id,
        games=tuple(games),
        total_cost=total,
        pairs=pairs,
        pairs_total=pairs_total,
    )


def _who_plays(
    event: Event,
    round_number: int,
    players: Iterable[int] | None,
    bye: int | _Unset | None,
    known: dict[int, Entrant],
) -> tuple[list[int], int | None]:
    """Who to pair and who sits out, before the rule chooses a bye for an odd field."""
    if players is None:
        # Everyone checked in to play, less those the director already paired by hand.
        busy = {p for g in event.games if g.round == round_number for p in (g.black, g.white)}
        chosen = [
            e.id
            for e in event.entrants
            if e.presence_in(round_number) is Presence.PLAY and e.id not in busy
        ]
    else:
        chosen = list(dict.fromkeys(players))
        strangers = [p for p in chosen if p not in known]
        if strangers:
            raise PairingError(f"not entered in the tournament: {', '.join(map(str, strangers))}")
    recorded = [e.id for e in event.entrants if e.presence_in(round_number) is Presence.BYE]
    bye_id: int | None
    if bye is UNSET:
        bye_id = recorded[0] if recorded else None
    else:
        bye_id = bye
        if bye_id is not None and bye_id not in known:
            raise PairingError(f"the bye {bye_id} is not entered in the tournament")
    if bye_id is not None and bye_id in chosen:
        chosen.remove(bye_id)
    return chosen, bye_id


def _cup_pairs(event: Event, round_number: int) -> list[tuple[int, int]]:
    """A cup's round: the draw decides who plays; nobody else is paired."""
    if event.cup is None:
        raise PairingError("a cup needs its seeds")
    try:
        return round_pairs(event.cup, event.games, round_number)
    except CupError as error:
        raise PairingError(str(error)) from None


def _match(st: RoundState, to_pair: list[int], rule: HandicapRule) -> list[tuple[int, int]]:
    """OpenGotha's pairing: slices of a large field, each matched on its own."""
    result: list[tuple[int, int]] = []
    for part in opengotha_slices(st, to_pair):
        result.extend(_match_slice(st, part, rule))
    return result


def opengotha_slices(st: RoundState, to_pair: list[int]) -> list[list[int]]:
    """Split a field of more than 600 as OpenGotha 3.52 does (``makeAutomaticPairing``):
    from the top score down, gather players until a slice holds at least 200 and an
    even number (600 at most), while more than 600 remain."""
    remaining = list(to_pair)
    out: list[list[int]] = []
    players = st.players
    n_cat = st.number_of_categories
    last = st.round - 1
    if st.mcmahon:
        s = st.settings
        top, bottom = s.mm_bar + 2 + last + 30, s.mm_floor - 1 + 30
    else:
        top, bottom = last, 0
    while len(remaining) > SLICE_MAX:
        group: list[int] = []
        ready = False
        for cat in range(n_cat):
            for score in range(top, bottom - 1, -1):
                kept: list[int] = []
                for i, pid in enumerate(remaining):
                    p = players[pid]
                    if ready or p.category > cat or p.main < score:
                        kept.append(pid)
                        continue
                    group.append(pid)
                    if len(group) >= SLICE_MAX or len(remaining) - (i + 1 - len(kept)) <= SLICE_MIN:
                        ready = True
                remaining = kept
                if len(group) >= SLICE_MIN and len(group) % 2 == 0:
                    ready = True
                if ready:
                    break
            if ready:
                break
        out.append(group)
    out.append(remaining)
    return out


def _match_slice(st: RoundState, part: list[int], rule: HandicapRule) -> list[tuple[int, int]]:
    from games.tournament.engine.pairing.weights import weight_rows

    rows = weight_rows(st, part, rule)
    edges = [(i, j, w) for i, row in enumerate(rows) for j, w in enumerate(row, start=i + 1)]
    try:
        found = max_weight_perfect_matching(len(part), edges)
    except NoPerfectMatching as error:
        raise PairingError(str(error)) from None
    return [(part[i], part[j]) for i, j in found]


def _round_robin(
    event: Event, round_number: int, to_pair: set[int], position: dict[int, int]
) -> list[tuple[int, int]]:
    """Berger tables over every final entrant, strongest first; round R's pairs
    among the players to pair (an absent player's opponent waits)."""
    field = sorted(
        (e for e in event.entrants if e.final),
        key=lambda e: (-e.rank, -e.rating, e.family_name, e.given_name),
    )
    schedule = berger_rounds([e.id for e in field])
    if round_number > len(schedule):
        raise PairingError(
            f"a round robin of {len(field)} players has {len(schedule)} rounds, not {round_number}"
        )
    pairs = []
    for white, black in schedule[round_number - 1]:
        if white in to_pair and black in to_pair:
            a, b = sorted((white, black), key=lambda p: position.get(p, 0))
            pairs.append((a, b))
    return pairs


def number_tables(st: RoundState, games: list[PairedGame]) -> list[PairedGame]:
    """Table 1 for the game of the best player: by the standings before the round,
    then by rating (OpenGotha's "best score then rating"); a game with a player pinned
    to a table is played there."""
    ratings = {pid: p.entrant.rating for pid, p in st.players.items()}
    values = st.standing

    def strength(pid: int) -> tuple[tuple[int, ...], int]:
        return values.get(pid, ()), ratings.get(pid, 0)

    def key(game: PairedGame) -> tuple[object, ...]:
        best = max(strength(game.white), strength(game.black))
        return (tuple(-v for v in best[0]), -best[1], min(position_of(game)))

    order = {pid: i for i, pid in enumerate(st.order)}

    def position_of(game: PairedGame) -> tuple[int, int]:
        return order.get(game.white, 0), order.get(game.black, 0)

    ranked = sorted(games, key=key)
    pins = {}
    for i, g in enumerate(ranked):
        fixed = [
            pin
            for pid in (g.white, g.black)
            if pid in st.players and (pin := st.players[pid].entrant.table_pin) is not None
        ]
        if fixed:
            pins[i] = min(fixed)
    tables = numbered(range(len(ranked)), pins)
    return sorted(
        (
            PairedGame(
                table=tables[i],
                black=g.black,
                white=g.white,
                handicap=g.handicap,
                costs=g.costs,
                reasons=g.reasons,
            )
            for i, g in enumerate(ranked)
        ),
        key=lambda g: g.table,
    )


__all__ = [
    "UNSET",
    "Costs",
    "PairCost",
    "PairedGame",
    "Pairing",
    "PairingError",
    "pair_round",
]
