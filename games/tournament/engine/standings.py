"""Standings after any round, with OpenGotha 3.5x's placement criteria and their exact values.

``Scoreboard(event)`` works out every player's scores for every round once (as OpenGotha's
``Tournament.fillBaseScoringInfo`` does) and orders the players after any round on demand;
``standings(event, after_round)`` is the one-shot form.  Values are held doubled (SODOS
quadrupled) as whole numbers, as OpenGotha stores them, and handed out as true numbers.
The definitions, quirks included, are written out in docs/tournaments.md ("Standings").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import add

from games.tournament.engine.model import Entrant, Event, GameRec, Outcome, Presence

# Each criterion and the factor its stored value carries (OpenGotha's criterion "coef").
SCALE: dict[str, int] = {
    "CAT": 1,
    "RANK": 1,
    "RATING": 1,
    "NBW": 2,
    "MMS": 2,
    "CPS": 2,
    "STS": 2,
    "SOSW": 2,
    "SOSW-1": 2,
    "SOSW-2": 2,
    "SODOSW": 4,
    "SOSOSW": 2,
    "CUSSW": 2,
    "SOSM": 2,
    "SOSM-1": 2,
    "SOSM-2": 2,
    "SODOSM": 4,
    "SOSOSM": 2,
    "CUSSM": 2,
    "SOSTS": 2,
    "EXT": 2,
    "EXR": 2,
    "DC": 1,
    "SDC": 1,
}
CRITERIA: tuple[str, ...] = tuple(SCALE)
DIRECT = ("DC", "SDC")


class Participation(StrEnum):
    """What a player did in one round, as OpenGotha's ScoredPlayer records it."""

    ABSENT = "absent"  # declared not participating (and not in a game)
    NOT_ASSIGNED = "not_assigned"  # participating, but neither in a game nor the bye
    BYE = "bye"
    PAIRED = "paired"  # in a game, whatever its result


def criterion(name: str) -> str:
    """The canonical name of a placement criterion (OpenGotha's long name, upper case)."""
    key = name.strip().upper()
    if key not in SCALE:
        known = ", ".join(CRITERIA)
        raise ValueError(f"unknown placement criterion {name!r} (known: {known})")
    return key


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings; ``place`` is None for a player listed after the ranked ones
    (no game and no bye so far)."""

    place: int | None
    entrant_id: int
    values: dict[str, float]


class Scoreboard:
    """Every player's scores for every round of one event."""

    def __init__(self, event: Event) -> None:
        s = event.settings
        self.event = event
        self.entrants: tuple[Entrant, ...] = event.entrants
        n = len(self.entrants)
        self._index = {e.id: i for i, e in enumerate(self.entrants)}
        if len(self._index) != n:
            raise ValueError("two entrants share one id")
        last_game = max((g.round for g in event.games), default=0)
        last_bye = max(
            (r for e in self.entrants for r, p in enumerate(e.presence, 1) if p is Presence.BYE),
            default=0,
        )
        nr = self.rounds = max(s.rounds, last_game, last_bye)
        self.smms = [s.smms(e) for e in self.entrants]

        part = [[Participation.NOT_ASSIGNED] * nr for _ in range(n)]
        for i, e in enumerate(self.entrants):
            for r in range(min(nr, len(e.presence))):
                if e.presence[r] is Presence.ABSENT:
                    part[i][r] = Participation.ABSENT
        self.game: list[list[GameRec | None]] = [[None] * nr for _ in range(n)]
        self.opp = [[-1] * nr for _ in range(n)]
        # Game points (x2), the handicap term of SOSM (+h as White, -h as Black), and
        # whether the game was really played (for countNotPlayedGamesAsHalfPoint).
        self.wx2 = wx2 = [[0] * nr for _ in range(n)]
        self.hd = [[0] * nr for _ in range(n)]
        played = [[False] * nr for _ in range(n)]
        for g in event.games:
            if g.round < 1:
                raise ValueError(f"a game between {g.black} and {g.white} has round {g.round}")
            try:
                b, w = self._index[g.black], self._index[g.white]
            except KeyError as exc:
                raise ValueError(
                    f"round {g.round}: a game names entrant {exc.args[0]}, who is not entered"
                ) from None
            if b == w:
                raise ValueError(f"round {g.round}: entrant {g.black} plays himself")
            r = g.round - 1
            really = not g.by_default and g.outcome is not Outcome.UNKNOWN
            for me, other, sign in ((b, w, -1), (w, b, 1)):
                if self.game[me][r] is not None:
                    who = self.entrants[me].id
                    raise ValueError(f"round {g.round}: entrant {who} has two games")
                self.game[me][r] = g
                self.opp[me][r] = other
                part[me][r] = Participation.PAIRED
                wx2[me][r] = g.points2(self.entrants[me].id)
                self.hd[me][r] = sign * g.handicap
                played[me][r] = really
        # The declared bye wins over a game, as in OpenGotha (its bye list is applied last).
        for i, e in enumerate(self.entrants):
            for r in range(min(nr, len(e.presence))):
                if e.presence[r] is Presence.BYE:
                    part[i][r] = Participation.BYE
        self.part = part
        listed = (Participation.PAIRED, Participation.BYE)
        self._first_implied = [
            next((r + 1 for r, p in enumerate(row) if p in listed), nr + 1) for row in part
        ]

        # Main scores after every round.  Absent and bye points accumulate and are rounded
        # down as a whole (genRoundDownNBWMMS); game points, jigo halves included, never are.
        self.nbw2, self.mms2, self.cps2, self.nbwv2, self.mmsv2 = [], [], [], [], []
        absent_n, absent_m, bye_n, bye_m = s.nbw2_absent, s.mms2_absent, s.nbw2_bye, s.mms2_bye
        down = s.round_down
        is_absent, is_bye = Participation.ABSENT, Participation.BYE
        for i in range(n):
            start = 2 * self.smms[i]
            w_row, p_row, played_row = wx2[i], part[i], played[i]
            nbw, mms, cps, nbwv, mmsv = [], [], [], [], []
            games2 = cps_games2 = virtual2 = acc_nbw2 = acc_mms2 = 0
            for r in range(nr):
                pts = w_row[r]
                games2 += pts
                cps_games2 = 2 * cps_games2 + pts
                virtual2 += pts if played_row[r] else 1  # 1/2 point for a game not played
                p = p_row[r]
                if p is is_absent:
                    acc_nbw2 += absent_n
                    acc_mms2 += absent_m
                elif p is is_bye:
                    acc_nbw2 += bye_n
                    acc_mms2 += bye_m
                extra_nbw2 = acc_nbw2 & ~1 if down else acc_nbw2
                nbw.append(games2 + extra_nbw2)
                cps.append(cps_games2 + extra_nbw2)
                mms.append(start + games2 + (acc_mms2 & ~1 if down else acc_mms2))
                nbwv.append(virtual2)
                mmsv.append(start + virtual2)
            self.nbw2.append(nbw)
            self.mms2.append(mms)
            self.cps2.append(cps)
            self.nbwv2.append(nbwv)
            self.mmsv2.append(mmsv)
        self._columns: dict[str, list[list[int]]] = {}
        self._terms_cache: dict[str, list[list[list[int]]]] = {}

    # ---- per-criterion tables, [player][round], filled on first use -----------------------

    def _table(self, name: str) -> list[list[int]]:
        table = self._columns.get(name)
        if table is None:
            table = self._columns[name] = self._BUILDERS[name](self)
        return table

    def _sts(self) -> list[list[int]]:
        # Strasbourg score: MMS, plus 2 for each of the quarter- and semi-final wins of a
        # top-group player who won every game, recognised by his MMS (OpenGotha's test).
        s = self.event.settings
        nr = s.rounds
        sts = [row[:] for row in self.mms2]
        for row, mms in zip(sts, self.mms2, strict=True):
            # A round before the first reads as 0, as OpenGotha's getters answer.
            if nr >= 3 and mms[nr - 3] == 2 * (30 + s.mm_bar + nr - 2):
                for r in (nr - 3, nr - 2, nr - 1):
                    row[r] += 4
            if nr >= 2 and mms[nr - 2] == 2 * (30 + s.mm_bar + nr - 1):
                for r in (nr - 2, nr - 1):
                    row[r] += 4
        return sts

    def _cumulative(self, base: list[list[int]]) -> list[list[int]]:
        out = []
        for row in base:
            acc, cum = 0, []
            for v in row:
                acc += v
                cum.append(acc)
            out.append(cum)
        return out

    def _terms(self, kind: str) -> list[list[list[int]]]:
        """terms[i][r][rr]: the opponent's score (after round r) that player i's SOS adds for
        round rr <= r; ``kind`` is W (wins), M (McMahon, handicap-corrected) or T (STS)."""
        score = self._opponent_score(kind)
        out = []
        for i in range(len(self.entrants)):
            opp, part, hd = self.opp[i], self.part[i], self.hd[i]
            own = 0 if kind == "W" else 2 * self.smms[i]
            per_round = []
            for r in range(self.rounds):
                terms = []
                for rr in range(r + 1):
                    if part[rr] is not Participation.PAIRED:
                        terms.append(own)
                    elif kind == "W":
                        terms.append(score[opp[rr]][r])
                    else:
                        terms.append(score[opp[rr]][r] + 2 * hd[rr])
                per_round.append(terms)
            out.append(per_round)
        return out

    def _opponent_sums(
        self, table: list[list[int]], weight: list[list[int]] | None = None
    ) -> list[list[int]]:
        """Per player and round r: the sum, over his games up to r, of the opponent's value
        in ``table`` after round r, each game's term times ``weight[i][rr]`` if given."""
        paired = Participation.PAIRED
        nr = self.rounds
        out = []
        for i, (opp, part) in enumerate(zip(self.opp, self.part, strict=True)):
            acc = [0] * nr
            w_row = weight[i] if weight is not None else None
            for rr in range(nr):
                if part[rr] is not paired:
                    continue
                # From round rr on, this game adds the opponent's score of that round.
                if w_row is None:
                    acc[rr:] = map(add, acc[rr:], table[opp[rr]][rr:])
                elif w := w_row[rr]:
                    acc[rr:] = [
                        a + w * b for a, b in zip(acc[rr:], table[opp[rr]][rr:], strict=True)
                    ]
            out.append(acc)
        return out

    def _sos(self, kind: str) -> list[list[int]]:
        """SOS after every round: opponents' scores (handicap-corrected for MMS and STS) over
        paired rounds, the player's own term (0, or his start score) over the others."""
        sums = self._opponent_sums(self._opponent_score(kind))
        paired = Participation.PAIRED
        out = []
        for i, row in enumerate(sums):
            part, hd = self.part[i], self.hd[i]
            own = 0 if kind == "W" else 2 * self.smms[i]
            fixed = 0
            for r in range(self.rounds):
                if part[r] is not paired:
                    fixed += own
                elif kind != "W":
                    fixed += 2 * hd[r]
                row[r] += fixed
            out.append(row)
        return out

    def _opponent_score(self, kind: str) -> list[list[int]]:
        """The score an opponent contributes to SOS: NBW (W), MMS (M) or STS (T), or their
        "virtual" versions under countNotPlayedGamesAsHalfPoint."""
        if not self.event.settings.count_not_played_as_half:
            return {"W": self.nbw2, "M": self.mms2}.get(kind) or self._table("STS")
        if kind == "W":
            return self.nbwv2
        if kind == "M":
            return self.mmsv2
        return [[0] * self.rounds for _ in self.entrants]  # OpenGotha never fills a virtual STS

    def _terms_of(self, kind: str) -> list[list[list[int]]]:
        cached = self._terms_cache.get(kind)
        if cached is None:
            cached = self._terms_cache[kind] = self._terms(kind)
        return cached

    def _sos_minus(self, kind: str, drop: int) -> list[list[int]]:
        out = []
        for per_round in self._terms_of(kind):
            row = []
            for r, terms in enumerate(per_round):
                if kind == "M" and r < 2:
                    # OpenGotha computes SOSM-1/-2 after rounds 1 and 2 but never stores them.
                    row.append(0)
                    continue
                k = min(drop, len(terms))
                row.append(sum(terms) - sum(sorted(terms)[:k]))
            out.append(row)
        return out

    def _sodos(self, kind: str) -> list[list[int]]:
        """Each SOS term times the game's points (x2): a win 2, a jigo 1, else 0."""
        sums = self._opponent_sums(self._opponent_score(kind), self.wx2)
        if kind == "W":
            return sums
        paired = Participation.PAIRED
        for i, row in enumerate(sums):
            part, hd, wx2 = self.part[i], self.hd[i], self.wx2[i]
            fixed = 0
            for r in range(self.rounds):
                if part[r] is paired:
                    fixed += 2 * hd[r] * wx2[r]
                row[r] += fixed
        return sums

    def _sosos(self, kind: str) -> list[list[int]]:
        """Opponents' SOS over paired rounds; each other round adds the player's start score
        times the number of rounds (OpenGotha's rule; 0 for SOSOSW)."""
        sums = self._opponent_sums(self._table("SOSW" if kind == "W" else "SOSM"))
        paired = Participation.PAIRED
        out = []
        for i, row in enumerate(sums):
            part = self.part[i]
            own = 0 if kind == "W" else 2 * self.smms[i]
            unpaired = 0
            for r in range(self.rounds):
                if part[r] is not paired:
                    unpaired += 1
                row[r] += own * (r + 1) * unpaired
            out.append(row)
        return out

    def _exploits(self, won_only: bool) -> list[list[int]]:
        """Opponents' NBW weighted by the handicap gap of each game (only won games for
        EXR): d = real - natural handicap; 0 if d < 0, 1 if d = 0, 2 if d = 1, else 3."""
        paired = Participation.PAIRED
        ranks = [e.rank for e in self.entrants]
        weight = []
        for i in range(len(self.entrants)):
            opp, part, hd, wx2 = self.opp[i], self.part[i], self.hd[i], self.wx2[i]
            row = []
            for rr in range(self.rounds):
                if part[rr] is not paired or (won_only and wx2[rr] != 2):
                    row.append(0)
                    continue
                d = hd[rr] - (ranks[i] - ranks[opp[rr]])
                row.append(0 if d < 0 else 1 if d == 0 else 2 if d == 1 else 3)
            weight.append(row)
        return self._opponent_sums(self.nbw2, weight)

    def _constant(self, value: Callable[[int, Entrant], int]) -> list[list[int]]:
        return [[value(i, e)] * self.rounds for i, e in enumerate(self.entrants)]

    _BUILDERS: dict[str, Callable[[Scoreboard], list[list[int]]]] = {
        "NBW": lambda sb: sb.nbw2,
        "MMS": lambda sb: sb.mms2,
        "CPS": lambda sb: sb.cps2,
        "STS": lambda sb: sb._sts(),
        "CUSSW": lambda sb: sb._cumulative(sb.nbw2),
        "CUSSM": lambda sb: sb._cumulative(sb.mms2),
        "SOSW": lambda sb: sb._sos("W"),
        "SOSW-1": lambda sb: sb._sos_minus("W", 1),
        "SOSW-2": lambda sb: sb._sos_minus("W", 2),
        "SODOSW": lambda sb: sb._sodos("W"),
        "SOSOSW": lambda sb: sb._sosos("W"),
        "SOSM": lambda sb: sb._sos("M"),
        "SOSM-1": lambda sb: sb._sos_minus("M", 1),
        "SOSM-2": lambda sb: sb._sos_minus("M", 2),
        "SODOSM": lambda sb: sb._sodos("M"),
        "SOSOSM": lambda sb: sb._sosos("M"),
        "SOSTS": lambda sb: sb._sos("T"),
        "EXT": lambda sb: sb._exploits(False),
        "EXR": lambda sb: sb._exploits(True),
        "RANK": lambda sb: sb._constant(lambda i, e: e.rank),
        "RATING": lambda sb: sb._constant(lambda i, e: e.rating),
        "CAT": lambda sb: sb._constant(lambda i, e: -sb.event.settings.category(e.rank)),
    }

    # ---- public reads ----------------------------------------------------------------------

    def index(self, entrant_id: int) -> int:
        return self._index[entrant_id]

    def participation(self, entrant_id: int, round: int) -> Participation:
        """What the player did in round ``round`` (1-based)."""
        i = self._index[entrant_id]
        if not 1 <= round <= self.rounds:
            raise ValueError(f"round {round} is outside 1..{self.rounds}")
        return self.part[i][round - 1]

    def value2(self, name: str, after_round: int) -> list[int]:
        """The scaled value (x2, x4 for SODOS) of criterion ``name`` for every player, in
        entrant order, after round ``after_round`` (0: before the first round)."""
        name = criterion(name)
        if name in DIRECT:
            raise ValueError(f"{name} depends on the order; ask standings() for it")
        r = self._check_round(after_round) - 1
        if r < 0:
            # Before the first round OpenGotha gives the start score for MMS and STS,
            # the player's own attributes for CAT, RANK and RATING, and 0 otherwise.
            if name in ("MMS", "STS"):
                return [2 * x for x in self.smms]
            if name == "RANK":
                return [e.rank for e in self.entrants]
            if name == "RATING":
                return [e.rating for e in self.entrants]
            if name == "CAT":
                return [-self.event.settings.category(e.rank) for e in self.entrants]
            return [0] * len(self.entrants)
        return [row[r] for row in self._table(name)]

    def implied(self, after_round: int) -> list[bool]:
        """Per player: did he play a game or have the bye in rounds 1..after_round?"""
        r = self._check_round(after_round)
        return [first <= r for first in self._first_implied]

    def _check_round(self, after_round: int) -> int:
        if not 0 <= after_round <= self.rounds:
            raise ValueError(f"after_round {after_round} is outside 0..{self.rounds}")
        return after_round

    def standings(self, after_round: int, criteria: Sequence[str] | None = None) -> list[Row]:
        """The ordered standings after ``after_round`` on ``criteria`` (default: the event's).

        Players equal on every criterion share a place (1, 2, 2, 4); those without a game or
        a bye so far follow, unplaced.  Equal players are shown in name order.
        """
        names = [
            criterion(c) for c in (self.event.settings.criteria if criteria is None else criteria)
        ]
        n = len(self.entrants)
        values: dict[str, list[int]] = {
            c: self.value2(c, after_round) for c in names if c not in DIRECT
        }
        cut = next((k for k, c in enumerate(names) if c in DIRECT), len(names))
        name_key = [(e.family_name, e.given_name, e.id) for e in self.entrants]
        if cut < len(names):
            primary = names[:cut]
            order = self._order(primary, values, name_key)
            dc, sdc = self._direct(order, primary, names[cut + 1 :], values, after_round)
            values["DC"], values["SDC"] = dc, sdc
        order = self._order(names, values, name_key)
        implied = self.implied(after_round)
        raw = list(zip(*(values[c] for c in names), strict=True)) if names else [()] * n
        true = {
            c: [float(1 - v) for v in values[c]]
            if c == "CAT"
            else [v / SCALE[c] for v in values[c]]
            for c in names
        }
        ids = [e.id for e in self.entrants]
        rows: list[Row] = []
        previous: tuple[int, ...] | None = None
        place = 0
        for pos, i in enumerate(i for i in order if implied[i]):
            if raw[i] != previous:
                place = pos + 1
                previous = raw[i]
            rows.append(Row(place, ids[i], {c: true[c][i] for c in names}))
        for i in order:
            if not implied[i]:
                rows.append(Row(None, ids[i], {c: true[c][i] for c in names}))
        return rows

    @staticmethod
    def _order(
        names: list[str], values: dict[str, list[int]], name_key: list[tuple[str, str, int]]
    ) -> list[int]:
        """Player indexes, best first on ``names``, then by name."""
        negated = [[-v for v in values[c]] for c in names]
        keys = list(zip(*negated, name_key, strict=True))
        return sorted(range(len(keys)), key=keys.__getitem__)

    # ---- direct confrontation --------------------------------------------------------------

    def _direct(
        self,
        order: list[int],
        primary: list[str],
        after: list[str],
        values: dict[str, list[int]],
        after_round: int,
    ) -> tuple[list[int], list[int]]:
        """DC and SDC inside each group tied on every criterion before them (OpenGotha 3.5x,
        ``defineDirForExAequoGroup`` and Matthieu Walraet's Confrontation sort)."""
        n = len(self.entrants)
        dc, sdc = [0] * n, [0] * n
        before = list(zip(*(values[c] for c in primary), strict=True)) if primary else [()] * n
        start = 0
        while start < n:
            key = before[order[start]]
            end = start + 1
            while end < n and before[order[end]] == key:
                end += 1
            group = order[start:end]
            start = end
            if len(group) < 2:
                continue
            net = self._net_wins(group, after_round)
            m = len(group)
            # SDC: only when every pair of the group has a non-zero net result.
            if all(net[a][b] != 0 for a in range(m) for b in range(m) if a != b):
                for a in range(m):
                    sdc[group[a]] = sum(1 for b in range(m) if net[a][b] > 0)
            # DC: "sc" ranks the group on the criteria after DC (higher = better).
            later = [c for c in after if c not in DIRECT]
            keys = [tuple(values[c][p] for c in later) for p in group]
            sorted_keys = sorted(keys, reverse=True)
            sc = [m - sorted_keys.index(k) for k in keys]
            # Edges winner <- loser, only for a net result of exactly one win (OpenGotha's
            # second pair matrix is not clamped to +-1 before the test ``== 1``).
            beats = [[net[a][b] == 1 for b in range(m)] for a in range(m)]
            for a, rank in enumerate(_confrontation_ranks(sc, beats)):
                dc[group[a]] = rank
        return dc, sdc

    def _net_wins(self, group: list[int], after_round: int) -> list[list[int]]:
        pos = {p: k for k, p in enumerate(group)}
        m = len(group)
        net = [[0] * m for _ in range(m)]
        for a, p in enumerate(group):
            e = self.entrants[p]
            for r in range(after_round):
                g = self.game[p][r]
                b = pos.get(self.opp[p][r])
                if g is None or b is None or g.by_default:
                    continue
                # Only plain wins count, each game seen from both sides.
                if (g.outcome is Outcome.WHITE and g.white == e.id) or (
                    g.outcome is Outcome.BLACK and g.black == e.id
                ):
                    net[a][b] += 1
                    net[b][a] -= 1
        return net


def _confrontation_ranks(sc: list[int], beats: list[list[bool]]) -> list[int]:
    """DC values of a tied group: players that beat no one left are ranked last, lowest
    ``sc`` first; a cycle of wins acts as one node.  Returns max rank - rank (higher is
    better)."""
    m = len(sc)
    comp = _strong_components(beats)
    # Within a cycle the games are ignored; each member takes every edge into and out of
    # the cycle (OpenGotha's "preserve transitivity").
    incoming: list[set[int]] = [set() for _ in range(m)]
    for a in range(m):
        for b in range(m):
            if beats[a][b] and comp[a] != comp[b]:
                incoming[a].add(b)  # a beat b: a has an edge coming from b
    members: dict[int, list[int]] = {}
    for a in range(m):
        members.setdefault(comp[a], []).append(a)
    for group in members.values():
        if len(group) > 1:
            cycle = set(group)
            union = set().union(*(incoming[a] for a in group))
            for a in group:
                incoming[a] = set(union)
            for x in range(m):
                if x not in cycle and incoming[x] & cycle:
                    incoming[x] |= cycle  # beating one member counts as beating them all
    remaining = set(range(m))
    rank = [0] * m
    while remaining:
        free = [a for a in remaining if not (incoming[a] & remaining)]
        if not free:  # cannot happen once cycles are merged; guard against a loop
            free = list(remaining)
        low = min(sc[a] for a in free)
        chosen = [a for a in free if sc[a] == low]
        current = 1 + len(remaining) - len(chosen)
        for a in chosen:
            rank[a] = current
            remaining.discard(a)
    top = max(rank)
    return [top - r for r in rank]


def _strong_components(beats: list[list[bool]]) -> list[int]:
    """Component number of each node of the win graph (Tarjan's algorithm).

    Iterative, with an explicit stack of (node, next neighbour): a congress's tied group
    can be a chain of a thousand wins, deeper than Python's recursion limit."""
    m = len(beats)
    succ = [[w for w in range(m) if row[w]] for row in beats]
    index = [-1] * m
    low = [0] * m
    on_stack = [False] * m
    stack: list[int] = []
    comp = [-1] * m
    counter = 0
    ncomp = 0
    for root in range(m):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, 0)]
        while work:
            v, i = work[-1]
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
    return comp


def standings(event: Event, after_round: int, criteria: Sequence[str] | None = None) -> list[Row]:
    """The standings after ``after_round`` (see ``Scoreboard.standings``)."""
    return Scoreboard(event).standings(after_round, criteria)
