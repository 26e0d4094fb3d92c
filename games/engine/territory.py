"""Japanese territory: which empty points count once the seki rule and the points
that must still be filled (teire) are applied to a finished position.

The rule as implemented, its source (Japanese Rules of Go, 1989, Articles 7 and 8
with the commentary) and its limits: docs/rules.md, "Territory counting".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .benson import benson
from .board import Board
from .coords import point_to_gtp
from .types import Color, Point

# A one-colour region with this many empty points can hold two eyes by itself.
TWO_EYE_REGION = 7
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
    names them, so that an eye space that held them is judged as it stood.
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
    eyes = _count_eyes(board, points, owners, borders, regions_of, find, dead_at)

    # A group is in seki when it lives (its stones are on the board: the players
    # did not mark them dead) without two real eyes, wherever it stands
    # (Articles 7 and 8: its eye points belong to nobody). A ko is no eye, so
    # two groups each short of an eye that the other can only take by ko (a
    # double ko) are both in seki.
    # A group beside an open area (a neutral region too big to be the dame of
    # a finished game) can still make its eyes there: it is not judged.
    unsettled = {
        find(h)
        for rid, chains in enumerate(borders)
        if not owners[rid] and len(points[rid]) > SEKI_REGION
        for h in chains
    }
    # It is judged all the same if it shares a seki point (as joined by the filled dame).
    possessing = {fhead[q] for i in seki for q in neigh[i] if fcells[q]}
    sharing = {find(head[i]) for i in range(n) if cells[i] and fhead[i] in possessing}
    seki_groups = {g for g in sharing | regions_of.keys() - unsettled if eyes.get(g, 0) < 2}
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


def _count_eyes(
    board: Board,
    points: list[list[int]],
    owners: list[int],
    borders: list[set[int]],
    regions_of: dict[int, list[int]],
    find: Callable[[int], int],
    dead: set[int],
) -> dict[int, int]:
    """Real eyes of each group, at most 2, as the 1989 commentary judges them.

    Each eye space is judged by its shape with the opponent moving first
    (``_space_eyes``); a small space between chains that meet nowhere else,
    with the opponent on its diagonals, is a false eye worth none. A group
    left short is given two eyes if Benson's test finds every chain of it
    pass-alive (a loop of false-looking eyes is real).
    """
    cells, bit = board._cells, board._t.bit
    own = [0, 0, 0]  # each colour's one-colour regions, as a bit set
    for rid, members in enumerate(points):
        if owners[rid]:
            for p in members:
                own[owners[rid]] |= bit[p]
    eyes: dict[int, int] = {}
    maybe_false: dict[int, list[int]] = {}
    short: list[int] = []
    for g, rids in regions_of.items():
        total = 0
        for rid in rids:
            members = points[rid]
            if len(members) == 1 and len(borders[rid]) >= 2 and _cut_apart(board, members[0]):
                maybe_false.setdefault(g, []).append(rid)
                continue
            chains = {h for r in rids for h in borders[r]}
            total += _space_eyes(board, members, chains, own[owners[rid]], dead)
            if total >= 2:
                break
        if total < 2 and g in maybe_false:
            total += _linked_elsewhere(borders, rids, maybe_false[g])
        eyes[g] = min(total, 2)
        if total < 2:
            short.append(g)
    if short:
        alive: dict[int, set[int]] = {}
        for g in short:
            color = owners[regions_of[g][0]]
            if color not in alive:
                alive[color] = benson(cells, board._t.neigh, board._head, color)[0]
            chains = {h for rid in regions_of[g] for h in borders[rid]}
            if chains <= alive[color]:
                eyes[g] = 2
    return eyes


def _linked_elsewhere(borders: list[set[int]], rids: list[int], false: list[int]) -> int:
    """How many of a group's maybe-false spaces are real eyes after all: those
    whose chains are joined through the group's other spaces, so that the
    opponent cutting there separates nothing."""
    parent: dict[int, int] = {}

    def find(h: int) -> int:
        while parent.setdefault(h, h) != h:
            h = parent[h]
        return h

    suspect = set(false)
    for rid in rids:
        if rid not in suspect:
            first, *rest = borders[rid]
            for other in rest:
                parent[find(other)] = find(first)
    return sum(1 for rid in false if len({find(h) for h in borders[rid]}) == 1)


def _cut_apart(board: Board, p: int) -> bool:
    """Does the opponent hold enough of the points diagonal to the one-point
    space ``p`` (one on the edge, two in the middle) to cut its chains apart?"""
    t = board._t
    size, rows = t.size, board.height
    cells = board._cells
    color = next(cells[q] for q in t.neigh[p])
    x, y = p % size, p // size
    diagonals = [
        (x + dx) + (y + dy) * size
        for dx in (-1, 1)
        for dy in (-1, 1)
        if 0 <= x + dx < size and 0 <= y + dy < rows
    ]
    held = sum(1 for d in diagonals if cells[d] == 3 - color)
    return held >= (2 if len(diagonals) == 4 else 1)


def _space_eyes(
    board: Board, members: list[int], chains: set[int], own: int, dead: set[int]
) -> int:
    """Eyes one space gives its group once the opponent has played its vital point.

    A space that held the opponent's dead stones is judged as the owner is
    left with it: the owner fills their liberties to capture them, and each
    part of what stays empty is judged by its shape.
    """
    if len(members) >= TWO_EYE_REGION and not (dead and not dead.isdisjoint(members)):
        return 2
    if len(members) == 1:
        return 0 if _ko_taken(board, members[0]) else 1
    if dead and not dead.isdisjoint(members):
        neigh = board._t.neigh
        fills = {q for p in members if p in dead for q in neigh[p] if q not in dead}
        rest = [p for p in members if p not in fills]
        total = 0
        for part in _components(rest, neigh):
            total += 2 if len(part) >= TWO_EYE_REGION else _shape_eyes(board, part, chains, own)
            if total >= 2:
                return 2
        return total
    return _shape_eyes(board, members, chains, own)


def _components(members: list[int], neigh: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """The parts of a set of points connected along lines."""
    left = set(members)
    parts = []
    while left:
        part = [left.pop()]
        for p in part:
            for q in neigh[p]:
                if q in left:
                    left.remove(q)
                    part.append(q)
        parts.append(part)
    return parts


def _canon(cells: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """A shape's name under the board's eight symmetries: its least image moved to 0,0."""
    pts = list(cells)
    images = []
    for sx in (1, -1):
        for sy in (1, -1):
            for swap in (False, True):
                moved = [(sx * y, sy * x) if swap else (sx * x, sy * y) for x, y in pts]
                mx = min(x for x, _ in moved)
                my = min(y for _, y in moved)
                images.append(tuple(sorted((x - mx, y - my) for x, y in moved)))
    return min(images)


def _drawn(*rows: str) -> tuple[tuple[int, int], ...]:
    return _canon((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#")


# Spaces of four to six points the opponent reduces to one eye by playing the
# vital point first (1989 commentary on Article 7: square and pyramid four,
# bulky and crossed five, flower six). Every space of three points or fewer is
# one eye, every space of seven or more two.
ONE_EYE_SHAPES = frozenset(
    {
        _drawn("##", "##"),
        _drawn("###", ".#."),
        _drawn("##", "##", "#."),
        _drawn(".#.", "###", ".#."),
        _drawn("##.", "###", ".#."),
    }
)
# The bent four with its bend on the corner point (corner at 0,0): one eye when
# the group has fewer than two liberties outside it, which the 1989 rules
# treat as dead (the attacker starts the ko once every threat is gone).
BENT_FOUR_CORNER = frozenset({(0, 0), (1, 0), (2, 0), (0, 1)})


def _shape_eyes(board: Board, members: list[int], chains: set[int], own: int) -> int:
    """1 for a space the opponent reduces to one eye, else 2 (``members`` has 2 to 6
    points; ``chains`` are the group's, ``own`` the owner's one-colour space)."""
    n = len(members)
    if n <= 3:
        return 1
    size, rows = board.size, board.height
    xy = [(p % size, p // size) for p in members]
    if n in (4, 5, 6) and _canon(xy) in ONE_EYE_SHAPES:
        return 1
    if n == 4:
        for cx in (0, size - 1):
            for cy in (0, rows - 1):
                local = frozenset((abs(x - cx), abs(y - cy)) for x, y in xy)
                if (
                    local == BENT_FOUR_CORNER
                    or local == frozenset((y, x) for x, y in BENT_FOUR_CORNER)
                ) and _outside_liberties(board, members, chains, own) < 2:
                    return 1
    return 2


def _outside_liberties(board: Board, members: list[int], chains: set[int], own: int) -> int:
    """The group's liberties in its own space outside ``members``: the dame the
    opponent would fill first do not count."""
    libs, bit = board._libs, board._t.bit
    union = 0
    for h in chains:
        union |= libs[h]
    union &= own
    for p in members:
        union &= ~bit[p]
    return union.bit_count()


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


def _ko_taken(board: Board, p: int) -> bool:
    """Can the opponent, playing in the one-point eye ``p``, take stones there
    (a chain of the group with ``p`` its last liberty)? Then it is a ko or a
    capture, not an eye."""
    head, libs = board._head, board._libs
    me = board._t.bit[p]
    return any(libs[head[q]] == me for q in board._t.neigh[p] if board._cells[q])
