"""Japanese territory: which empty points count once the seki rule and the points
that must still be filled (teire) are applied to a finished position.

The rule as implemented, its source (Japanese Rules of Go, 1989, Articles 7 and 8
with the commentary) and its limits: docs/rules.md, "Territory counting".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .board import Board
from .coords import point_to_gtp
from .eyes import count_eyes
from .types import Color, Point

# Neutral regions up to this size are filled point by point to find the seki
# points; larger ones are open areas of an unfinished game, judged one move deep.
SEKI_REGION = 4
# Teire that follow one another (a false eye needing a second fill): at most this many rounds.
TEIRE_ROUNDS = 4


@dataclass(frozen=True, slots=True)
class Teire:
    """A point ``color`` must fill inside its own territory, and the chain it protects."""

    point: Point
    color: Color
    chain: frozenset[Point]


@dataclass(frozen=True, slots=True)
class TeireNote:
    """A teire as the count reports it: the point, who fills it, the chain it saves."""

    point: str
    color: Color
    chain: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"point": self.point, "color": self.color.letter, "chain": list(self.chain)}


_NONE: tuple[frozenset[Point], frozenset[Point], frozenset[Point]] = (
    frozenset(),
    frozenset(),
    frozenset(),
)


@dataclass(frozen=True, slots=True)
class Territory:
    """What the seki rule and the teire take from the one-colour regions of a
    position: the one home of these facts (the count's ``Score`` holds this
    value and names its points from it).

    ``seki_points`` are the dame left once every dame that can be filled has
    been filled; ``seki_by_colour`` the stones of the groups alive in seki and
    ``seki_eyes_by_colour`` their eye points, which count for nobody (index 1
    Black, 2 White); ``teire_chains`` the points where a player must still
    play inside their own territory, each with the chain it protects.
    ``size`` and ``height`` are the board's columns and rows, for the names.
    """

    size: int
    height: int
    seki_points: frozenset[Point] = frozenset()
    seki_by_colour: tuple[frozenset[Point], frozenset[Point], frozenset[Point]] = _NONE
    seki_eyes_by_colour: tuple[frozenset[Point], frozenset[Point], frozenset[Point]] = _NONE
    teire_chains: tuple[Teire, ...] = ()

    @property
    def seki_stones(self) -> frozenset[Point]:
        return self.seki_by_colour[1] | self.seki_by_colour[2]

    @property
    def seki_eyes(self) -> frozenset[Point]:
        return self.seki_eyes_by_colour[1] | self.seki_eyes_by_colour[2]

    @property
    def seki_lost(self) -> tuple[int, int, int]:
        eyes = self.seki_eyes_by_colour
        return (0, len(eyes[1]), len(eyes[2]))

    @property
    def teire(self) -> tuple[frozenset[Point], frozenset[Point], frozenset[Point]]:
        """The teire points by colour."""
        return (
            frozenset(),
            frozenset(t.point for t in self.teire_chains if t.color is Color.BLACK),
            frozenset(t.point for t in self.teire_chains if t.color is Color.WHITE),
        )

    def lost(self, color: Color) -> int:
        """Points of ``color``'s one-colour regions that count nothing."""
        return len(self.seki_eyes_by_colour[color]) + sum(
            1 for t in self.teire_chains if t.color is color
        )

    def names(self, points: Iterable[Point]) -> tuple[str, ...]:
        """Letters and numbers, in reading order (top row first, left to right)."""
        return tuple(
            point_to_gtp(p, self.size, self.height)
            for p in sorted(points, key=lambda q: (q[1], q[0]))
        )

    def teire_notes(self) -> tuple[TeireNote, ...]:
        """Each teire named, in reading order of its point."""
        return tuple(
            TeireNote(self.names([t.point])[0], t.color, self.names(t.chain))
            for t in sorted(self.teire_chains, key=lambda t: (t.point[1], t.point[0]))
        )


def japanese_territory(board: Board, dead: Iterable[Point] = ()) -> Territory:
    """Seki points, the stones in seki and their eyes, and the teire of ``board``.

    ``board`` is the position with the dead stones already removed; ``dead``
    names them, so that an eye space that held them is judged as the owner is
    left with it after taking them, and a teire on a point that held one costs
    the capture too.
    """
    cells = board._cells
    t = board._t
    neigh, size = t.neigh, t.size
    head = board._head
    n = len(cells)
    dead_at = {x + y * size for x, y in dead}

    # Empty regions: id per point, points, owner (0 neutral) and bordering chains.
    region = [-1] * n
    points: list[list[int]] = []
    owners: list[int] = []
    borders: list[set[int]] = []
    for i in range(n):
        if cells[i] or region[i] >= 0:
            continue
        rid = len(points)
        region[i] = rid
        members = [i]
        colours = 0
        chains: set[int] = set()
        for p in members:  # grows while it is walked: a breadth-first fill
            for q in neigh[p]:
                c = cells[q]
                if c:
                    colours |= c
                    chains.add(head[q])
                elif region[q] < 0:
                    region[q] = rid
                    members.append(q)
        points.append(members)
        owners.append(colours if colours != 3 else 0)
        borders.append(chains)
    neutral = [i for rid, members in enumerate(points) if not owners[rid] for i in members]
    small = [
        i
        for rid, members in enumerate(points)
        if not owners[rid] and len(members) <= SEKI_REGION
        for i in members
    ]

    # Seki points: the dame of small neutral regions that nobody can fill once
    # every other dame is filled; in a larger (unfinished) neutral region, a
    # point next to both colours that neither can fill now.
    filled = _fill_dame(board, small) if small else board
    fcells, fhead = filled._cells, filled._head
    seki = [i for i in small if not fcells[i] and any(fcells[q] for q in neigh[i])]
    if len(small) < len(neutral):
        shallow = set(small)
        for i in neutral:
            if i in shallow or {cells[q] for q in neigh[i]} - {0} != {1, 2}:
                continue
            if all(_self_atari(board, i, c) for c in (1, 2)):
                seki.append(i)

    # Groups: chains joined through their own one-colour regions (which are
    # then the group's eye space); each region belongs to one group.
    parent: dict[int, int] = {}

    def find(h: int) -> int:
        root = parent.setdefault(h, h)
        while root != parent[root]:
            root = parent[root]
        while parent[h] != root:  # path compression
            parent[h], h = root, parent[h]
        return root

    for rid, chains in enumerate(borders):
        if owners[rid] and chains:
            first, *rest = chains
            for other in rest:
                parent[find(other)] = find(first)

    regions_of: dict[int, list[int]] = {}
    for rid, chains in enumerate(borders):
        if owners[rid] and chains:
            regions_of.setdefault(find(next(iter(chains))), []).append(rid)
    eyes = count_eyes(board, points, owners, borders, regions_of, dead_at)

    # A group is in seki when it lives (its stones are on the board: the players
    # did not mark them dead) without two real eyes, wherever it stands
    # (Articles 7 and 8: its eye points belong to nobody). A ko is no eye, so
    # two groups each short of an eye that the other can only take by ko (a
    # double ko) are both in seki. A group beside an open area (a neutral
    # region too big to be the dame of a finished game) can still make its
    # eyes there: it is not judged, unless it shares a seki point (as joined
    # by the filled dame).
    unsettled = {
        find(h)
        for rid, chains in enumerate(borders)
        if not owners[rid] and len(points[rid]) > SEKI_REGION
        for h in chains
    }
    possessing = {fhead[q] for i in seki for q in neigh[i] if fcells[q]}
    sharing = {find(head[i]) for i in range(n) if cells[i] and fhead[i] in possessing}
    seki_groups = {g for g in sharing | (regions_of.keys() - unsettled) if eyes.get(g, 0) < 2}
    eye_points: tuple[list[int], list[int], list[int]] = ([], [], [])
    for g in seki_groups:
        for rid in regions_of.get(g, ()):
            eye_points[owners[rid]].extend(points[rid])
    stones: tuple[list[int], list[int], list[int]] = ([], [], [])
    for i in range(n):
        if cells[i] and find(head[i]) in seki_groups:
            stones[cells[i]].append(i)

    owner_of = [-1] * n
    for rid, members in enumerate(points):
        for i in members:
            owner_of[i] = owners[rid]
    seki_set = set(seki)
    skip = set(stones[1]) | set(stones[2])
    found = _teire(board, neutral, seki_set, owner_of, skip)
    if dead_at:
        found += _captures_first(board, found, owner_of, dead_at)

    def pts(indices: Iterable[int]) -> frozenset[Point]:
        return frozenset((i % size, i // size) for i in indices)

    return Territory(
        size=size,
        height=board.height,
        seki_points=pts(seki),
        seki_by_colour=(frozenset(), pts(stones[1]), pts(stones[2])),
        seki_eyes_by_colour=(frozenset(), pts(eye_points[1]), pts(eye_points[2])),
        teire_chains=tuple(
            Teire((p % size, p // size), Color(color), pts(chain)) for p, color, chain in found
        ),
    )


def _fill_dame(board: Board, neutral: list[int]) -> Board:
    """A copy of ``board`` with every dame filled that either side can fill.

    A fill is a stone on a neutral point that captures nothing and keeps at
    least two liberties. If it puts opposing stones in atari, the opponent
    answers at their last liberty (a dame or a teire) and the answer must
    leave them two liberties; a fill that cannot be answered is an attack on
    stones the players agreed are alive, not dame filling, and is not made.
    What stays empty is what neither side can fill: the seki points.
    """
    sim = board.copy()
    cells = sim._cells
    progress = True
    while progress:
        progress = False
        for i in neutral:
            if cells[i]:
                continue
            for color in (1, 2):
                answer = _fill_answer(sim, i, color)
                if answer is None:
                    continue
                sim._place(i, color)
                if answer >= 0:
                    sim._place(answer, 3 - color)
                progress = True
                break
    return sim


def _fill_answer(sim: Board, i: int, color: int) -> int | None:
    """Can ``color`` fill ``i``? None if not, -1 if nothing needs an answer, else
    the point where the opponent must answer."""
    cells, head, libs = sim._cells, sim._head, sim._libs
    t = sim._t
    neigh, bit = t.neigh, t.bit
    me = bit[i]
    mine = 0
    last = 0  # the one liberty left to the opposing chains put in atari
    for q in neigh[i]:
        c = cells[q]
        if not c:
            mine |= bit[q]
        elif c == color:
            mine |= libs[head[q]]
        else:
            lb = libs[head[q]] & ~me
            if not lb:
                return None  # a capture, not a fill
            if lb.bit_count() == 1:
                if last and last != lb:
                    return None  # two ataris at once: not an exchange to answer
                last = lb
    if (mine & ~me).bit_count() < 2:
        return None
    if not last:
        return -1
    a = last.bit_length() - 1
    other = 3 - color
    after = 0
    for q in neigh[a]:
        c = cells[q]
        if not c:
            after |= bit[q]
        elif c == other:
            after |= libs[head[q]]
    if (after & ~(me | bit[a])).bit_count() < 2:
        return None
    return a


def _libs_after(board: Board, i: int, color: int) -> int:
    """The liberties of ``color``'s chain once it plays at empty ``i`` (-1: it captures)."""
    cells, head, libs = board._cells, board._head, board._libs
    t = board._t
    me = t.bit[i]
    total = 0
    for q in t.neigh[i]:
        c = cells[q]
        if not c:
            total |= t.bit[q]
        elif c == color:
            total |= libs[head[q]]
        elif libs[head[q]] == me:
            return -1
    return total & ~me


def _mends(board: Board, p: int, color: int, fill: int, owner_of: list[int], depth: int) -> bool:
    """Does a ``color`` stone at ``p`` leave its chain two liberties the opponent
    cannot fill, at once or after further fills inside ``color``'s territory
    (a false eye that needs a second fill)?"""
    after = _libs_after(board, p, color)
    if after < 0:
        return True
    after &= ~fill
    if after.bit_count() >= 2:
        return True
    if after.bit_count() != 1 or depth <= 1:
        return False
    q = after.bit_length() - 1
    if owner_of[q] != color:
        return False
    deeper = board.copy()
    deeper._place(p, color)
    return _mends(deeper, q, color, fill, owner_of, depth - 1)


def _self_atari(board: Board, i: int, color: int) -> bool:
    """Would ``color`` at ``i`` capture nothing and keep at most one liberty?"""
    after = _libs_after(board, i, color)
    return after >= 0 and after.bit_count() <= 1


def _teire(
    board: Board, neutral: list[int], seki: set[int], owner_of: list[int], skip: set[int]
) -> list[tuple[int, int, list[int]]]:
    """The teire of both colours: (point, colour, stones of the chain it protects).

    The exchange, for each colour: the opponent fills the dame it can fill
    safely (``fill``); a chain keeps the liberties the opponent cannot take
    (``secure``). With two secure liberties it is safe. Otherwise the owner
    answers a fill by filling a dame itself: a dame is a *saver* if the
    chain, extended by a stone there, keeps two secure liberties. With two
    savers the opponent cannot take both before the owner takes one, so no
    teire. With one saver or none, and one secure liberty inside the owner's
    territory, the owner must play there (if that gives two secure
    liberties; otherwise the chain is dead, not mended). Filling it may leave
    the joined chain short again: the rounds repeat, one teire each.
    """
    found: list[tuple[int, int, list[int]]] = []
    bit = board._t.bit
    for color in (1, 2):
        other = 3 - color
        b = board
        for _ in range(TEIRE_ROUNDS):
            cells, head, libs, stones = b._cells, b._head, b._libs, b._stones
            fill = 0
            for i in neutral:
                if not cells[i] and i not in seki:
                    after = _libs_after(b, i, other)
                    if after < 0 or after.bit_count() >= 2:
                        fill |= bit[i]
            new: list[tuple[int, int]] = []
            seen: set[int] = set()
            for i in range(len(cells)):
                if cells[i] != color:
                    continue
                h = head[i]
                if h in seen:
                    continue
                seen.add(h)
                members = stones[h]
                if members is None or members[0] in skip or h in skip:
                    continue
                lb = libs[h]
                secure = lb & ~fill
                if secure.bit_count() >= 2:
                    continue
                savers = 0
                dame = lb & fill
                while dame:
                    d = dame & -dame
                    dame ^= d
                    di = d.bit_length() - 1
                    after = _libs_after(b, di, color)
                    if after < 0 or (after & ~fill).bit_count() >= 2:
                        savers += 1
                if savers >= 2 or secure.bit_count() != 1:
                    continue
                p = secure.bit_length() - 1
                if owner_of[p] == color and _mends(b, p, color, fill, owner_of, TEIRE_ROUNDS):
                    new.append((p, h))
            if not new:
                break
            if b is board:
                b = board.copy()
            for p, h in new:
                if b._cells[p]:
                    continue
                members = b._stones[h]
                found.append((p, color, list(members) if members else []))
                b._place(p, color)
    return found


def _captures_first(
    board: Board, found: list[tuple[int, int, list[int]]], owner_of: list[int], dead: set[int]
) -> list[tuple[int, int, list[int]]]:
    """The captures a teire needs first: where it fills a point that held a dead
    stone, the owner had to take that stone before filling, by playing on each
    liberty it had inside the owner's territory (each a point lost too)."""
    neigh = board._t.neigh
    cells = board._cells
    taken = {p for p, _, _ in found}
    more: list[tuple[int, int, list[int]]] = []
    for p, color, chain in found:
        if p not in dead:
            continue
        stones = [p]
        seen = {p}
        for s in stones:
            for q in neigh[s]:
                if q in dead and q not in seen:
                    seen.add(q)
                    stones.append(q)
        for s in stones:
            for q in neigh[s]:
                if not cells[q] and q not in dead and q not in taken and owner_of[q] == color:
                    taken.add(q)
                    more.append((q, color, chain))
    return more
