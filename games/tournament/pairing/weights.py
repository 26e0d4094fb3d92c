"""The cost of pairing two players: OpenGotha 3.52's nine criteria.

Higher is better; the matching maximises the sum.  Every criterion keeps
OpenGotha's arithmetic: integers (Java ``long``) with truncating division, and
the few ``double`` expressions formed in the same order and truncated the same
way, so each component equals OpenGotha's to the unit.  docs/tournaments.md
("Pairing") gives the formulas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from games.tournament.model import Settings
from games.tournament.pairing.colours import det_random, handicap_between, pseudo_rank
from games.tournament.pairing.params import PairingParams
from games.tournament.pairing.state import PlayerState, RoundState

COST_NAMES = (
    "baseDuplicateGameCost",
    "baseRandomCost",
    "baseBWBalanceCost",
    "mainCategoryCost",
    "mainScoreDiffCost",
    "mainDUDDCost",
    "mainSeedCost",
    "secHandiCost",
    "secGeoCost",
    "totalCost",
)

# A handicap rule: the signed handicap (> 0: the first player gives stones).
HandicapRule = Callable[[PlayerState, PlayerState], int]


class Costs(NamedTuple):
    duplicate: int
    random: int
    balance: int
    category: int
    score: int
    dudd: int
    seed: int
    handicap: int
    geo: int
    total: int

    def as_dict(self) -> dict[str, int]:
        return dict(zip(COST_NAMES, self, strict=True))


def tdiv(a: int, b: int) -> int:
    """Java's integer division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def concave(weight: int, x: float, k: float) -> int:
    """``(long)(weight * (1 - x) * (1 + k x))`` evaluated as OpenGotha does."""
    return int(weight * (1.0 - x) * (1.0 + k * x))


def opengotha_handicap(settings: Settings) -> HandicapRule:
    """OpenGotha's handicap from ranks or McMahon scores (``gameBetween``)."""

    def rule(a: PlayerState, b: PlayerState) -> int:
        return handicap_between(
            pseudo_rank(a.entrant.rank, a.mms2, settings),
            pseudo_rank(b.entrant.rank, b.mms2, settings),
            settings,
        )

    return rule


def _dudd_side(mode: str, weight: int, inner: int, size: int) -> int:
    half = weight // 2
    if mode == "TOP":
        return half * (size - 1 - inner) // size
    if mode == "MID":
        return half * (size - 1 - abs(2 * inner - size + 1)) // size
    return half * inner // size


def costs(st: RoundState, a: PlayerState, b: PlayerState, handicap: HandicapRule) -> Costs:
    """The cost of the pair (a, b), a before b in the pairing list."""
    p = st.params
    k = p.nx1_factor
    n_groups = st.number_of_groups

    duplicate = 0 if b.entrant.id in a.played else p.avoid_dupl_game

    if p.deterministic:
        random = det_random(p.random, a.det_name, b.det_name) if p.random else 0
    else:
        random = 0  # a non-deterministic random would make pairings unrepeatable

    balance = 0
    if handicap(a, b) == 0:
        wb1, wb2 = a.wb, b.wb
        if wb1 * wb2 < 0:
            balance = p.balance_wb
        elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
            balance = p.balance_wb // 2

    category = 0
    if st.number_of_categories > 1:
        x = abs(a.category - b.category) / st.number_of_categories
        category = concave(p.avoid_mixing_categories, x, k)

    score = 0
    if a.category == b.category:
        score = concave(p.minimize_score_difference, abs(a.group - b.group) / n_groups, k)

    dudd = 0
    if a.group != b.group:
        dudd = _dudd(p, a, b)
    cat_gap = abs(a.category - b.category)
    if cat_gap:
        dudd //= (cat_gap + 1) ** 4

    seed = 0
    if a.group == b.group:
        seed = _seed(st, a, b)

    # Secondary criteria: a player above a threshold is exempt from them.
    sec_case = a.exempt + b.exempt
    if st.mcmahon:
        sec_range = n_groups
    else:
        s = st.settings
        sec_range = s.mm_bar - s.mm_floor + 3 + st.round
    hd_cost = concave(p.minimize_handicap, abs(a.pseudo_mms - b.pseudo_mms) / sec_range, k)

    geo = _geo(p, a, b, n_groups, sec_case)

    total = 1 + duplicate + random + balance + category + score + dudd + seed + hd_cost + geo
    return Costs(duplicate, random, balance, category, score, dudd, seed, hd_cost, geo, total)


def _dudd(p: PairingParams, a: PlayerState, b: PlayerState) -> int:
    # OpenGotha 3.52: a draw-up/draw-down for any group difference (3.51 stopped at 4).
    upper, lower = (a, b) if a.group < b.group else (b, a)
    scenario = 2
    if upper.nb_dd > 0:
        scenario -= 1
    if lower.nb_du > 0:
        scenario -= 1
    if scenario != 0 and upper.nb_du > 0 and upper.nb_dd < upper.nb_du:
        scenario += 1
    if scenario != 0 and lower.nb_dd > 0 and lower.nb_du < lower.nb_dd:
        scenario += 1
    weight = p.dudd_weight // 5
    cost = _dudd_side(p.dudd_upper_mode, weight, upper.inner, upper.group_size)
    cost += _dudd_side(p.dudd_lower_mode, weight, lower.inner, lower.group_size)
    if scenario == 1:
        cost += weight
    elif scenario == 2 or (scenario > 2 and not p.compensate_dudd):
        cost += 2 * weight
    elif scenario == 3:
        cost += 3 * weight
    elif scenario == 4:
        cost += 4 * weight
    return cost


def _seed(st: RoundState, a: PlayerState, b: PlayerState) -> int:
    p = st.params
    n = a.group_size
    c1, c2 = a.inner, b.inner
    top = p.maximize_seeding
    system = p.seed_system(st.round)
    if system == "SPLITANDRANDOM":
        if (2 * c1 < n <= 2 * c2) or (2 * c2 < n <= 2 * c1):
            return top - det_random(int(top * 0.2), a.det_name, b.det_name)
        return 0
    if system == "SPLITANDFOLD":
        # Best when c1 + c2 = n - 1: the first of the group meets the last.
        x = c1 + c2 - (n - 1)
        return top - tdiv(tdiv(top * x, n - 1) * x, n - 1)
    # SPLITANDSLIP: best when |c1 - c2| = n / 2, the first meets the first of the lower half.
    x = 2 * abs(c1 - c2) - n
    return top - tdiv(tdiv(top * x, n) * x, n)


def _geo(p: PairingParams, a: PlayerState, b: PlayerState, n_groups: int, sec_case: int) -> int:
    """A bonus for players of different countries and clubs, worth a score gap of
    up to ``prefer_mms_diff_rather_than_same_*`` groups."""
    top = p.avoid_same_geo
    if sec_case == 2:
        return top
    k = p.nx1_factor
    country_factor = p.prefer_mms_diff_rather_than_same_country
    club_factor = p.prefer_mms_diff_rather_than_same_club
    country_ratio = 0.0
    if a.country != b.country and country_factor != 0:
        country_ratio = min(country_factor / n_groups, 1.0)
    club_ratio = 0.0
    # goref has no clubs groups: two different clubs are never in one group.
    if a.club != b.club and club_factor != 0:
        club_ratio = min(club_factor * 1.2 / n_groups, 1.0)
    ratio = max(country_ratio, club_ratio) + min(country_ratio, club_ratio) / 2.0
    if ratio > 0.0:
        ratio += 0.5 / n_groups
    nominal = p.minimize_score_difference - int(top * (1.0 - ratio) * (1.0 + k * ratio))
    nominal = min(nominal, top)
    if sec_case == 1:
        # OpenGotha 3.52: halfway to the full bonus when one player is exempt.
        return int(0.5 * (nominal + top))
    return nominal


def weight_rows(st: RoundState, part: list[int], handicap: HandicapRule) -> list[list[int]]:
    """Total costs of every pair of ``part`` (in pairing-list order): row i holds
    the pairs (i, j) for j > i."""
    players = [st.players[p] for p in part]
    rows: list[list[int]] = []
    for i, a in enumerate(players):
        rows.append([costs(st, a, b, handicap).total for b in players[i + 1 :]])
    return rows
