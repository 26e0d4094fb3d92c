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

from games.tournament.engine.model import Settings
from games.tournament.engine.pairing.colours import det_random, handicap_between, pseudo_rank
from games.tournament.engine.pairing.params import PairingParams
from games.tournament.engine.pairing.state import PlayerState, RoundState

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


class OpenGothaHandicap:
    """OpenGotha's handicap from ranks or McMahon scores (``gameBetween``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def __call__(self, a: PlayerState, b: PlayerState) -> int:
        s = self.settings
        return handicap_between(
            pseudo_rank(a.entrant.rank, a.mms2, s), pseudo_rank(b.entrant.rank, b.mms2, s), s
        )


def opengotha_handicap(settings: Settings) -> HandicapRule:
    return OpenGothaHandicap(settings)


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

    geo = _geo(p, a.country != b.country, clubs_apart(a, b), n_groups, sec_case)

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


def clubs_apart(a: PlayerState, b: PlayerState) -> int:
    """0: one club; 1: two clubs of one clubs group (OpenGotha's ``ClubsGroup``: they count
    as half a club apart); 2: two clubs apart."""
    if a.club == b.club:
        return 0
    return 1 if a.club_groups & b.club_groups else 2


def _geo(p: PairingParams, countries_differ: bool, clubs: int, n_groups: int, sec_case: int) -> int:
    """A bonus for players of different countries and clubs (``clubs_apart``), worth a
    score gap of up to ``prefer_mms_diff_rather_than_same_*`` groups."""
    top = p.avoid_same_geo
    if sec_case == 2:
        return top
    k = p.nx1_factor
    country_factor = p.prefer_mms_diff_rather_than_same_country
    club_factor = p.prefer_mms_diff_rather_than_same_club
    country_ratio = 0.0
    if countries_differ and country_factor != 0:
        country_ratio = min(country_factor / n_groups, 1.0)
    club_ratio = 0.0
    if clubs == 2 and club_factor != 0:
        club_ratio = min(club_factor * 1.2 / n_groups, 1.0)
    elif clubs == 1 and club_factor != 0:  # OpenGotha: clubFactor / 2 / scoRange
        club_ratio = min(club_factor / 2.0 / n_groups, 1.0)
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
    the pairs (i, j) for j > i.

    The same sums as ``costs`` (a test holds them equal), with what depends on one
    player or on a gap computed once: a 760-player round weighs 288,420 pairs.
    """
    p = st.params
    k = p.nx1_factor
    n_groups = st.number_of_groups
    n_cat = st.number_of_categories
    players = [st.players[pid] for pid in part]
    n = len(players)
    ids = [pl.entrant.id for pl in players]
    group = [pl.group for pl in players]
    cat = [pl.category for pl in players]
    inner = [pl.inner for pl in players]
    size = [pl.group_size for pl in players]
    wb = [pl.wb for pl in players]
    exempt = [int(pl.exempt) for pl in players]
    pmms = [pl.pseudo_mms for pl in players]
    club = [pl.club for pl in players]
    club_groups = [pl.club_groups for pl in players]
    grouped = any(club_groups)
    country = [pl.country for pl in players]
    played = [pl.played for pl in players]
    names = [pl.det_name for pl in players]
    dudd_w = p.dudd_weight // 5
    up_side = [_dudd_side(p.dudd_upper_mode, dudd_w, inner[i], size[i]) for i in range(n)]
    low_side = [_dudd_side(p.dudd_lower_mode, dudd_w, inner[i], size[i]) for i in range(n)]
    up_bad = [pl.nb_dd > 0 for pl in players]  # drawn down before: bad as the upper one
    low_bad = [pl.nb_du > 0 for pl in players]
    up_good = [pl.nb_du > 0 and pl.nb_dd < pl.nb_du for pl in players]
    low_good = [pl.nb_dd > 0 and pl.nb_du < pl.nb_dd for pl in players]
    scenario_cost = [0, dudd_w, 2 * dudd_w, 3 * dudd_w, 4 * dudd_w]
    if not p.compensate_dudd:
        scenario_cost[3] = scenario_cost[4] = 2 * dudd_w
    score_cost = [
        concave(p.minimize_score_difference, g / n_groups, k) for g in range(n_groups + 1)
    ]
    cat_cost = [concave(p.avoid_mixing_categories, c / n_cat, k) for c in range(n_cat + 1)]
    sec_range = n_groups if st.mcmahon else st.settings.mm_bar - st.settings.mm_floor + 3 + st.round
    hd_cache: dict[int, int] = {}
    geo_cache: dict[tuple[bool, int, int], int] = {}
    seed_system = p.seed_system(st.round)
    top_seed = p.maximize_seeding
    rand_range = int(top_seed * 0.2)
    random_on = p.deterministic and p.random > 0
    dupl = p.avoid_dupl_game
    balance_wb = p.balance_wb
    # OpenGotha's own handicap rule is read from per-player pseudo ranks.
    s = st.settings
    fast_hd = isinstance(handicap, OpenGothaHandicap)
    thr = s.hd_no_hd_rank_threshold
    pseudo = [min(pseudo_rank(pl.entrant.rank, pl.mms2, s), thr) for pl in players]
    corr, ceiling = s.hd_correction, s.hd_ceiling
    rows: list[list[int]] = []
    for i in range(n):
        gi, ci, wbi, ei, pi = group[i], cat[i], wb[i], exempt[i], pmms[i]
        clubi, countryi, playedi, namei, psi = club[i], country[i], played[i], names[i], pseudo[i]
        cgi = club_groups[i]
        row: list[int] = []
        append = row.append
        for j in range(i + 1, n):
            total = 1
            if ids[j] not in playedi:
                total += dupl
            if random_on:
                total += det_random(p.random, namei, names[j])
            if fast_hd:
                d = psi - pseudo[j]
                if d > 0:
                    d = max(d - corr, 0)
                elif d < 0:
                    d = min(d + corr, 0)
                even = ceiling == 0 or d == 0
            else:
                even = handicap(players[i], players[j]) == 0
            if even:
                wbj = wb[j]
                if wbi * wbj < 0:
                    total += balance_wb
                elif (wbi == 0 and abs(wbj) >= 2) or (wbj == 0 and abs(wbi) >= 2):
                    total += balance_wb // 2
            cj = cat[j]
            gj = group[j]
            cat_gap = ci - cj if ci > cj else cj - ci
            if n_cat > 1:
                total += cat_cost[cat_gap]
            if cat_gap == 0:
                total += score_cost[gi - gj if gi > gj else gj - gi]
            if gi != gj:
                u, lo = (i, j) if gi < gj else (j, i)
                scenario = 2 - up_bad[u] - low_bad[lo]
                if scenario:
                    scenario += up_good[u] + low_good[lo]
                dudd = up_side[u] + low_side[lo] + scenario_cost[scenario]
                if cat_gap:
                    dudd //= (cat_gap + 1) ** 4
                total += dudd
            else:
                total += _seed_pair(
                    seed_system, top_seed, rand_range, size[i], inner[i], inner[j], namei, names[j]
                )
            if p.minimize_handicap:
                gap = abs(pi - pmms[j])
                hd_cost = hd_cache.get(gap)
                if hd_cost is None:
                    hd_cost = hd_cache[gap] = concave(p.minimize_handicap, gap / sec_range, k)
                total += hd_cost
            apart = 0 if clubi == club[j] else 1 if grouped and cgi & club_groups[j] else 2
            key = (countryi != country[j], apart, ei + exempt[j])
            geo = geo_cache.get(key)
            if geo is None:
                geo = geo_cache[key] = _geo(p, key[0], key[1], n_groups, key[2])
            total += geo
            append(total)
        rows.append(row)
    return rows


def _seed_pair(
    system: str, top: int, rand_range: int, n: int, c1: int, c2: int, name1: str, name2: str
) -> int:
    if system == "SPLITANDRANDOM":
        if (2 * c1 < n <= 2 * c2) or (2 * c2 < n <= 2 * c1):
            return top - det_random(rand_range, name1, name2)
        return 0
    if system == "SPLITANDFOLD":
        x = c1 + c2 - (n - 1)
        return top - tdiv(tdiv(top * x, n - 1) * x, n - 1)
    x = 2 * abs(c1 - c2) - n
    return top - tdiv(tdiv(top * x, n) * x, n)
