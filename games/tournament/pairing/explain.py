"""A pair's cost in words, for the director's preview and the API."""

from __future__ import annotations

from collections.abc import Iterator

from games.tournament.pairing.colours import Colours
from games.tournament.pairing.state import PlayerState, RoundState
from games.tournament.pairing.weights import Costs


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
