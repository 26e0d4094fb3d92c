"""A pair's cost in words, for the director's preview and the API."""

from __future__ import annotations

from collections.abc import Iterator

from games.tournament.engine.pairing.colours import Colours
from games.tournament.engine.pairing.state import PlayerState, RoundState
from games.tournament.engine.pairing.weights import Costs


def _name(p: PlayerState) -> str:
    return f"{p.entrant.given_name} {p.entrant.family_name}".strip()


def _group(st: RoundState, p: PlayerState) -> str:
    if st.mcmahon:
        return f"the MMS {p.main} group"
    return f"the {p.main}-point group"


def reasons(
    st: RoundState, a: PlayerState, b: PlayerState, c: Costs, col: Colours
) -> Iterator[str]:
    """Why this pair, as short phrases: repeats, draw-ups, seeding, clubs, colours."""
    met = a.met_in.get(b.entrant.id)
    if met:
        rounds = ", ".join(str(r) for r in met)
        yield f"they met in round {rounds}" if len(met) == 1 else f"they met in rounds {rounds}"
    if a.group == b.group:
        yield (
            f"same group ({_group(st, a)}): places {a.inner + 1} and {b.inner + 1} "
            f"of {a.group_size}, {st.params.seed_system(st.round).lower()}"
        )
    else:
        upper, lower = (a, b) if a.group < b.group else (b, a)
        gap = lower.group - upper.group
        yield (
            f"draw-up of {_name(lower)} from {_group(st, lower)} to {_group(st, upper)}"
            + (f" ({gap} groups apart)" if gap > 1 else "")
        )
        if upper.nb_dd or lower.nb_du:
            yield "one of them was already drawn the same way before"
    if st.number_of_categories > 1 and a.category != b.category:
        yield f"categories {a.category + 1} and {b.category + 1} mixed"
    if a.club and a.club == b.club:
        yield f"same club ({a.entrant.club})"
    elif (
        a.country and a.country == b.country and st.params.prefer_mms_diff_rather_than_same_country
    ):
        yield f"same country ({a.entrant.country}), different clubs"
    elif c.geo and (a.club != b.club):
        yield "different clubs"
    if a.exempt or b.exempt:
        yield "club and country count less above the bar"
    if col.handicap:
        yield f"handicap {col.handicap}"
    elif c.balance:
        yield "colours even out earlier White/Black imbalance"


# A hand-paired game's colours are a problem only past this White-minus-Black balance:
# within it, the next rounds even it out (the pairing's own colour cost does).
MAX_BALANCE = 2


def warnings(st: RoundState, black: int, white: int) -> list[str]:
    """The real problems of a game paired by hand ("Check"): a player not checked in, a
    repeat game, a colour balance that would pass ±2.  A same-club game or a score gap
    is the director's choice, not a problem: the preview's reasons name them."""
    a, b = st.players.get(black), st.players.get(white)
    if a is None or b is None:
        return ["a player is not checked in for this round"]
    out: list[str] = []
    met = a.met_in.get(white)
    if met:
        out.append(f"repeat game: they met in round {', '.join(map(str, met))}")
    if a.wb - 1 < -MAX_BALANCE:
        out.append(f"{_name(a)} gets Black again (White - Black: {a.wb}, then {a.wb - 1})")
    if b.wb + 1 > MAX_BALANCE:
        out.append(f"{_name(b)} gets White again (White - Black: +{b.wb}, then +{b.wb + 1})")
    return out


def check_games(st: RoundState, games: list[tuple[int, int]]) -> dict[tuple[int, int], list[str]]:
    """``warnings`` for each (black, white) game, and a player paired twice."""
    seen: dict[int, int] = {}
    out: dict[tuple[int, int], list[str]] = {}
    for black, white in games:
        found = warnings(st, black, white)
        for p in (black, white):
            seen[p] = seen.get(p, 0) + 1
            if seen[p] == 2:
                found.append(f"{p} is paired twice")
        out[(black, white)] = found
    return out
