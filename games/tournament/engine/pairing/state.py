"""Each player's pairing state before a round: main score, group, place in the
group, draw-ups and draw-downs, colour balance, exemption from the secondary
criteria (OpenGotha 3.52, ``Tournament.fillPairingInfo`` and ``costValue``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.tournament.engine.model import Entrant, Event, Presence, Settings
from games.tournament.engine.pairing.history import MIN_RANK, History, build_history
from games.tournament.engine.pairing.params import PairingParams
from games.tournament.engine.standings import DIRECT, Scoreboard, criterion

# OpenGotha's McMahon score range: a start-score correction lies in -1..+2.
SMMS_CORR_MIN = -1
SMMS_CORR_MAX = 2


@dataclass(slots=True)
class PlayerState:
    entrant: Entrant
    det_name: str  # family name + given name, as OpenGotha's deterministic random reads it
    nbw2: int
    mms2: int
    main: int  # floor of the main score (MMS or NBW)
    category: int
    group: int  # OpenGotha's group number: 0 is the top group
    group_size: int
    inner: int  # place inside the group, 0 = best
    nb_du: int
    nb_dd: int
    wb: int  # games as White minus games as Black, even games only
    exempt: bool  # above a secondary-criteria threshold
    pseudo_mms: int  # MMS for the handicap criterion (the top of the range when exempt)
    byes: int
    club: str
    country: str
    played: frozenset[int]  # opponents met before
    met_in: dict[int, list[int]]  # opponent -> rounds
    club_groups: frozenset[int] = frozenset()  # the event's clubs groups holding his club


@dataclass(slots=True)
class RoundState:
    """Everything the weights of one round depend on."""

    round: int
    params: PairingParams
    settings: Settings
    mcmahon: bool  # main criterion MMS (else NBW)
    number_of_groups: int
    number_of_categories: int
    rounds: int
    players: dict[int, PlayerState]  # every player checked in for the round
    order: list[int]  # pairing-list order: standings before the round
    standing: dict[int, tuple[int, ...]]  # placement-criteria values before the round
    history: History


def main_criterion(criteria: Sequence[str]) -> str:
    """OpenGotha's main score: the first of NBW / MMS in the criteria, else NBW."""
    for c in criteria:
        if c.upper() in ("NBW", "MMS"):
            return c.upper()
    return "NBW"


def category_of(rank: int, limits: Sequence[int]) -> int:
    """Category 0 is the strongest; ``limits`` are each category's lowest rank."""
    for c, limit in enumerate(limits):
        if rank >= limit:
            return c
    return len(limits)


def round_state(
    event: Event, round_number: int, params: PairingParams, extra: Iterable[int] = ()
) -> RoundState:
    """The pairing state before ``round_number`` (1-based).

    Groups count every player checked in for the round (playing or with the bye)
    and any player in ``extra`` (someone the director pairs although marked
    absent), as OpenGotha 3.52 does.
    """
    s = event.settings
    last = round_number - 1
    history = build_history(event, last)
    recs = history.records
    mcmahon = main_criterion(s.criteria) == "MMS"
    extra_ids = set(extra)
    present = [
        e
        for e in event.entrants
        if e.presence_in(round_number) in (Presence.PLAY, Presence.BYE) or e.id in extra_ids
    ]
    n_cat = len(s.category_limits) + 1 if s.category_limits else 1
    if mcmahon:
        score_min = s.mm_floor + SMMS_CORR_MIN - MIN_RANK
        score_max = s.mm_bar + SMMS_CORR_MAX + last - MIN_RANK
    else:
        score_min, score_max = 0, last
    span = score_max - score_min + 1
    number_of_groups = n_cat * span

    # Order inside a group: the placement criteria, then the additional criterion,
    # then name and given name (ScoredPlayerComparator).
    add = params.additional_criterion(round_number)
    crit = [*s.criteria, {"Rating": "RATING", "Rank": "RANK"}.get(add, "NULL")]
    values = placement_values(event, last, crit)
    standings_values = placement_values(event, last, s.criteria)

    def group_key(e: Entrant) -> tuple[object, ...]:
        return (tuple(-v for v in values[e.id]), e.family_name, e.given_name)

    # Pairing-list order: the standings before the round, ties by name.
    order = sorted(
        (e for e in present),
        key=lambda e: (tuple(-v for v in standings_values[e.id]), e.family_name, e.given_name),
    )
    groups: dict[int, list[Entrant]] = {}
    main_of: dict[int, int] = {}
    cat_of: dict[int, int] = {}
    for e in present:
        rec = recs[e.id]
        main = (rec.mms2[last] if mcmahon else rec.nbw2[last]) // 2
        cat = category_of(e.rank, s.category_limits) if n_cat > 1 else 0
        clamped = min(max(main, score_min), score_max)
        number = cat * span + (score_max - clamped)
        main_of[e.id], cat_of[e.id] = main, cat
        groups.setdefault(number, []).append(e)
    placement: dict[int, tuple[int, int, int]] = {}
    for number, members in groups.items():
        members.sort(key=group_key)
        for i, e in enumerate(members):
            placement[e.id] = (number, len(members), i)

    nbw2_threshold = s.rounds if params.nb_wins_threshold_active else 2 * s.rounds
    bar_smms = s.mm_bar - MIN_RANK
    max_mms = s.mm_bar + SMMS_CORR_MAX - MIN_RANK + last
    players: dict[int, PlayerState] = {}
    groups_of: dict[str, frozenset[int]] = {}
    for n, (_name, clubs) in enumerate(event.club_groups):
        for club in clubs:
            groups_of[club.lower()] = groups_of.get(club.lower(), frozenset()) | {n}
    for e in present:
        rec = recs[e.id]
        nb_du = nb_dd = wb = 0
        met_in: dict[int, list[int]] = {}
        for r in range(1, last + 1):
            played = rec.games[r]
            if played is None:
                continue
            opp, _signed_hd, game = played
            met_in.setdefault(opp, []).append(r)
            before_me = history.main2(e.id, r - 1, mcmahon) // 2
            before_opp = history.main2(opp, r - 1, mcmahon) // 2
            if before_me < before_opp:
                nb_du += 1
            elif before_me > before_opp:
                nb_dd += 1
            if game.handicap == 0:
                wb += 1 if game.white == e.id else -1
        nbw2 = rec.nbw2[last]
        mms2 = rec.mms2[last]
        exempt = (
            nbw2 >= nbw2_threshold
            or 2 * e.rank + nbw2 >= 2 * params.rank_threshold
            or (params.bar_threshold_active and rec.smms >= bar_smms)
        )
        number, size, inner = placement[e.id]
        players[e.id] = PlayerState(
            entrant=e,
            det_name=e.family_name + e.given_name,
            nbw2=nbw2,
            mms2=mms2,
            main=main_of[e.id],
            category=cat_of[e.id],
            group=number,
            group_size=size,
            inner=inner,
            nb_du=nb_du,
            nb_dd=nb_dd,
            wb=wb,
            exempt=exempt,
            pseudo_mms=max_mms if exempt else mms2 // 2,
            byes=rec.byes,
            club=e.club.lower(),
            country=e.country.lower(),
            played=frozenset(met_in),
            met_in=met_in,
            club_groups=groups_of.get(e.club.lower(), frozenset()),
        )
    return RoundState(
        round=round_number,
        params=params,
        settings=s,
        mcmahon=mcmahon,
        number_of_groups=number_of_groups,
        number_of_categories=n_cat,
        rounds=s.rounds,
        players=players,
        order=[e.id for e in order],
        standing=standings_values,
        history=history,
    )


def placement_values(
    event: Event, last: int, criteria: Sequence[str]
) -> dict[int, tuple[int, ...]]:
    """Each player's placement-criteria values after round ``last`` (the standings
    module's, doubled as OpenGotha keeps them); "NULL" and the criteria that depend on
    the final order (DC, SDC) count as equal for everyone, as in OpenGotha's pairing."""
    board = Scoreboard(event)
    columns: list[list[int]] = []
    for name in criteria:
        if name.upper() == "NULL" or criterion(name) in DIRECT:
            continue
        columns.append(board.value2(name, last))
    return {e.id: tuple(column[i] for column in columns) for i, e in enumerate(event.entrants)}
