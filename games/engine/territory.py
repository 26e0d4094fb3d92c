"""Japanese territory: which empty points count once the seki rule and the points
that must still be filled (teire) are applied to a finished position.

The rule as implemented, its source (Japanese Rules of Go, 1989, Articles 7 and 8
with the commentary) and its limits: docs/rules.md, "Territory counting".
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .types import Color, Point

# A one-colour region of this many points can hold two eyes by itself.
TWO_EYE_REGION = 7


@dataclass(frozen=True, slots=True)
class Territory:
    """Corrections to the one-colour regions of a position, by colour.

    ``seki_lost`` and ``teire`` are points of one-colour regions that count for
    nobody: the eyes of groups in seki, and the points where a player must
    still play inside their own territory (index 1 Black, 2 White).
    """

    seki_points: frozenset[Point]
    seki_stones: frozenset[Point]
    seki_lost: tuple[int, int, int]
    teire: tuple[frozenset[Point], frozenset[Point], frozenset[Point]]

    def lost(self, color: Color) -> int:
        return self.seki_lost[color] + len(self.teire[color])


def japanese_territory(board: Board) -> Territory:
    """Seki points, the stones in seki, and the territory that counts nothing."""
    cells = board._cells
    t = board._t
    neigh, bit, size = t.neigh, t.bit, t.size
    head, libs = board._head, board._libs
    n = len(cells)

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

    def unsafe(i: int, color: int) -> bool:
        """Would ``color`` at empty ``i`` be self-atari (or suicide), capturing nothing?"""
        me = bit[i]
        total = 0
        for q in neigh[i]:
            c = cells[q]
            if not c:
                total |= bit[q]
            elif c == color:
                total |= libs[head[q]]
            elif libs[head[q]] == me:
                return False  # it captures: a fill that cannot be refused
        return (total & ~me).bit_count() <= 1

    # Seki points: neutral points next to both colours that neither can fill.
    seki: set[int] = set()
    touching: set[int] = set()  # chains next to a seki point
    for rid, members in enumerate(points):
        if owners[rid]:
            continue
        for i in members:
            near = {cells[q] for q in neigh[i] if cells[q]}
            if near == {1, 2} and unsafe(i, 1) and unsafe(i, 2):
                seki.add(i)
                touching.update(head[q] for q in neigh[i] if cells[q])

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

    eyes: dict[int, int] = {}
    regions_of: dict[int, list[int]] = {}
    for rid, chains in enumerate(borders):
        if not owners[rid] or not chains:
            continue
        g = find(next(iter(chains)))
        regions_of.setdefault(g, []).append(rid)
        eyes[g] = eyes.get(g, 0) + _eye_value(points[rid], chains, owners[rid], cells, size)

    # A group is in seki when one of its chains touches a seki point and it has
    # not two eyes of its own: its eye space counts for nobody.
    seki_groups = {find(h) for h in touching if eyes.get(find(h), 0) < 2}
    seki_lost = [0, 0, 0]
    for g in seki_groups:
        for rid in regions_of.get(g, ()):
            seki_lost[owners[rid]] += len(points[rid])

    # Teire: once the opponent has filled every dame it can fill safely, a chain
    # left with one liberty, inside its own territory, must be defended there.
    fillable = [0, 0, 0]  # by colour: the neutral points it can fill
    for rid, members in enumerate(points):
        if owners[rid]:
            continue
        for i in members:
            if i in seki:
                continue
            for color in (1, 2):
                if not unsafe(i, color):
                    fillable[color] |= bit[i]
    teire: tuple[set[int], set[int], set[int]] = (set(), set(), set())
    for h in {head[i] for i in range(n) if cells[i]}:
        color = cells[h]
        if find(h) in seki_groups:
            continue
        filled = fillable[3 - color]
        left = libs[h] & ~filled
        if left.bit_count() != 1:
            continue
        p = left.bit_length() - 1
        if owners[region[p]] != color:
            continue
        # The defence at p must leave the chain two liberties, or it is no defence
        # (a chain with one eye and nothing else is dead, not a teire).
        after = 0
        for q in neigh[p]:
            if not cells[q]:
                after |= bit[q]
            elif cells[q] == color:
                after |= libs[head[q]]
        after &= ~(bit[p] | filled)
        if after.bit_count() >= 2:
            teire[color].add(p)

    def pts(indices: set[int] | list[int]) -> frozenset[Point]:
        return frozenset((i % size, i // size) for i in indices)

    stones: list[int] = []
    for i in range(n):
        if cells[i] and find(head[i]) in seki_groups:
            stones.append(i)
    return Territory(
        seki_points=pts(seki),
        seki_stones=pts(stones),
        seki_lost=(0, seki_lost[1], seki_lost[2]),
        teire=(frozenset(), pts(teire[1]), pts(teire[2])),
    )


def _eye_value(
    members: list[int], chains: set[int], color: int, cells: list[int], size: int
) -> int:
    """Eyes a one-colour region gives its group: 2 when it is big enough for two,
    0 for a one-point false eye (between two or more chains, with enough of its
    diagonal points held by the opponent), else 1."""
    if len(members) >= TWO_EYE_REGION:
        return 2
    if len(members) > 1 or len(chains) < 2:
        return 1
    i = members[0]
    x, y = i % size, i // size
    diagonals = [
        (x + dx) + (y + dy) * size
        for dx in (-1, 1)
        for dy in (-1, 1)
        if 0 <= x + dx < size and 0 <= y + dy < size
    ]
    held = sum(1 for d in diagonals if cells[d] == 3 - color)
    return 0 if held >= (2 if len(diagonals) == 4 else 1) else 1
