"""A cup: single elimination from a seeded draw, byes to the top seeds, an optional game
for third place and an optional consolation cup for the first round's losers.

Pure: the draw is computed again from the seeds and the games played, so nothing but the
seeds, the options and the director's choices for undecided games is ever stored.
docs/tournaments.md, "Cups".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.tournament.engine.model import Cup, Entrant, GameRec, Outcome

MAIN, THIRD, CONSOLATION = "main", "third", "consolation"


class CupError(ValueError):
    """A round the draw cannot pair yet (an undecided game before it) or at all."""


@dataclass(frozen=True)
class Match:
    round: int
    bracket: str
    slot: int  # its place in the bracket's round, top first
    a: int | None  # the side of the better seed; None: nobody (a bye), or not known yet
    b: int | None
    winner: int | None = None
    game: GameRec | None = None
    undecided: bool = False  # played, no winner, and the director has not chosen
    waiting: bool = False  # a side is the winner of a match not decided yet

    @property
    def pair(self) -> tuple[int, int] | None:
        return (self.a, self.b) if self.a is not None and self.b is not None else None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.pair is None:
            return None
        return self.b if self.winner == self.a else self.a


SEEDINGS = ("rank", "rating", "list")


def seeded(options: Mapping[str, Any], entrants: Sequence[Entrant]) -> Cup:
    """A cup from its stored options: ``seeding`` by rank (then rating), by rating (then
    rank), or by ``list`` (``seeds``: a previous event's standings, say; entrants it does
    not name follow by rank); only final entrants play.  ``through`` keys are
    ``"round:lower id:higher id"``."""
    final = [e for e in entrants if e.final]
    by = options.get("seeding", "rank")

    def order(e: Entrant) -> tuple[object, ...]:
        first = (-e.rating, -e.rank) if by == "rating" else (-e.rank, -e.rating)
        return (*first, e.family_name, e.given_name, e.id)

    ranked = [e.id for e in sorted(final, key=order)]
    if by == "list":
        present = set(ranked)
        listed = [i for i in dict.fromkeys(options.get("seeds", [])) if i in present]
        ranked = listed + [i for i in ranked if i not in set(listed)]
    through = {}
    for key, player in (options.get("through") or {}).items():
        r, a, b = (int(x) for x in str(key).split(":"))
        through[(r, a, b)] = int(player)
    return Cup(
        seeds=tuple(ranked),
        third_place=bool(options.get("third_place", False)),
        consolation=bool(options.get("consolation", False)),
        through=through,
    )


def draw_order(size: int) -> list[int]:
    """The seeds (1-based) down a bracket of ``size`` slots, so that seeds 1 and 2 can only
    meet in the final and every top seed meets the weakest possible: 8 gives
    1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, n - seed)]
    return order


def rounds_needed(players: int) -> int:
    """Rounds of a main cup of ``players``: 2 players 1 round, 3 to 4 two, 5 to 8 three."""
    return max(1, (max(players, 2) - 1).bit_length())


def _find(games: Sequence[GameRec], round_number: int, a: int, b: int) -> GameRec | None:
    for g in games:
        if g.round == round_number and {g.black, g.white} == {a, b}:
            return g
    return None


def _decide(
    cup: Cup, round_number: int, a: int, b: int, games: Sequence[GameRec]
) -> tuple[int | None, GameRec | None, bool]:
    """(winner, game, undecided) of a match between two players."""
    game = _find(games, round_number, a, b)
    if game is None or game.outcome is Outcome.UNKNOWN:
        return None, game, False
    if game.outcome is Outcome.BLACK:
        return game.black, game, False
    if game.outcome is Outcome.WHITE:
        return game.white, game, False
    chosen = cup.through.get((round_number, min(a, b), max(a, b)))
    return chosen, game, chosen is None


PENDING = 0  # a side that the match before it has not decided yet (ids start at 1)


def _bracket(
    cup: Cup, seeds: Sequence[int], first_round: int, name: str, games: Sequence[GameRec]
) -> list[Match]:
    """Every match of one bracket, round by round: sides not known yet are ``None`` with
    ``waiting`` set; a side that is empty for good (a bye) is ``None`` without it."""
    size = 1 << rounds_needed(len(seeds))
    slots: list[int | None] = [seeds[s - 1] if s <= len(seeds) else None for s in draw_order(size)]
    matches: list[Match] = []
    r = first_round
    while len(slots) > 1:
        next_slots: list[int | None] = []
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            slot = i // 2
            if a == PENDING or b == PENDING:
                matches.append(Match(r, name, slot, a or None, b or None, waiting=True))
                next_slots.append(PENDING)
            elif a is None or b is None:
                if a is not None or b is not None:  # a bye: through unplayed
                    matches.append(Match(r, name, slot, a, b, winner=a or b))
                next_slots.append(a or b)
            else:
                winner, game, undecided = _decide(cup, r, a, b, games)
                matches.append(Match(r, name, slot, a, b, winner, game, undecided))
                next_slots.append(PENDING if winner is None else winner)
        slots, r = next_slots, r + 1
    return matches


def draw(cup: Cup, games: Sequence[GameRec]) -> list[Match]:
    """The whole draw as far as it goes: the main cup, the game for third place once the
    semi-finals are decided, and the consolation cup of the first round's losers."""
    matches = _bracket(cup, cup.seeds, 1, MAIN, games)
    last = rounds_needed(len(cup.seeds))
    seed = {p: i for i, p in enumerate(cup.seeds)}
    if cup.third_place and last >= 2:
        semis = [m for m in matches if m.round == last - 1]
        semi_losers = sorted([p for m in semis if (p := m.loser) is not None], key=seed.__getitem__)
        if len(semis) == 2 and len(semi_losers) == 2:
            a, b = semi_losers
            winner, game, undecided = _decide(cup, last, a, b, games)
            matches.append(Match(last, THIRD, 0, a, b, winner, game, undecided))
    if cup.consolation and last >= 2:
        first = [m for m in matches if m.round == 1 and m.bracket == MAIN]
        if all(m.winner is not None for m in first):
            losers = sorted([p for m in first if (p := m.loser) is not None], key=seed.__getitem__)
            if len(losers) >= 2:
                matches += _bracket(cup, losers, 2, CONSOLATION, games)
    return matches


def round_pairs(cup: Cup, games: Sequence[GameRec], round_number: int) -> list[tuple[int, int]]:
    """The pairs of round ``round_number``, the better seed first; refused while a game
    before it has no winner, naming the games the director must decide."""
    last = rounds_needed(len(cup.seeds))
    if len(cup.seeds) < 2:
        raise CupError("a cup needs two players at least")
    if round_number > last:
        raise CupError(f"a cup of {len(cup.seeds)} players has {last} rounds")
    matches = draw(cup, games)
    earlier = [m for m in matches if m.round < round_number]
    waiting = [m for m in earlier if m.undecided]
    if waiting:
        named = ", ".join(f"round {m.round} {m.a} v {m.b}" for m in waiting)
        raise CupError(f"choose who goes through: {named}")
    unplayed = [m for m in earlier if m.winner is None and (m.pair is not None or m.waiting)]
    if unplayed:
        named = ", ".join(f"round {m.round} {m.a} v {m.b}" for m in unplayed)
        raise CupError(f"these games have no result yet: {named}")
    return [m.pair for m in matches if m.round == round_number and m.pair is not None]


def places(cup: Cup, games: Sequence[GameRec]) -> dict[int, int]:
    """Each main-cup player's place so far: 1 the winner, 2 the finalist, then the losers
    of each round sharing a place (3, 5, 9, ...); the game for third place splits 3 and 4.
    Players still in the cup have none yet."""
    matches = draw(cup, games)
    size = 1 << rounds_needed(len(cup.seeds))
    out: dict[int, int] = {}
    for m in matches:
        if m.bracket != MAIN or m.loser is None:
            continue
        out[m.loser] = size // (1 << m.round) + 1
        if m.round == rounds_needed(len(cup.seeds)) and m.winner is not None:
            out[m.winner] = 1
    for m in matches:
        if m.bracket == THIRD and m.winner is not None and m.loser is not None:
            out[m.winner], out[m.loser] = 3, 4
    return out


__all__ = [
    "CONSOLATION",
    "MAIN",
    "THIRD",
    "Cup",
    "CupError",
    "Match",
    "draw",
    "draw_order",
    "places",
    "round_pairs",
    "rounds_needed",
    "seeded",
]
