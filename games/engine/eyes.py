"""Real eyes of a group, as the Japanese Rules of Go (1989) commentary on
Article 7 judges them: by the shape of each eye space with the opponent
playing its vital point first, false eyes, kos and Benson's pass-alive test.
The rule and its limits: docs/rules.md, "Territory counting".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .benson import benson
from .board import Board

# A space of this many points is two eyes whoever starts.
TWO_EYE_REGION = 7


def count_eyes(
    board: Board,
    points: list[list[int]],
    owners: list[int],
    borders: list[set[int]],
    regions_of: dict[int, list[int]],
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
        chains = {h for r in rids for h in borders[r]}
        for rid in rids:
            members = points[rid]
            if len(members) == 1 and _ko_taken(board, members[0]):
                continue  # a ko or a capture, linked elsewhere or not: no eye
            if len(borders[rid]) >= 2 and _false_eye(board, members, dead):
                maybe_false.setdefault(g, []).append(rid)
                continue
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


def _false_eye(board: Board, members: list[int], dead: set[int]) -> bool:
    """Is a space between two or more chains a false eye? One point: by its
    diagonals. Two empty points: if, once the opponent plays on one and the
    owner takes it from the other, the point left is a false eye between
    chains still apart."""
    if len(members) == 1:
        return _cut_apart(board, members[0])
    if len(members) != 2 or not dead.isdisjoint(members):
        return False
    head, cells, neigh = board._head, board._cells, board._t.neigh
    for x, y in (members, members[::-1]):
        # The owner's stone on y joins the chains beside y; those beside x
        # only are still apart from it.
        joined = {head[q] for q in neigh[y] if cells[q]}
        apart = {head[q] for q in neigh[x] if cells[q]} - joined
        if apart and _cut_apart(board, x):
            return True
    return False


def _cut_apart(board: Board, p: int) -> bool:
    """Does the opponent hold enough of the points diagonal to the one-point
    space ``p`` (one on the edge, two in the middle) to cut its chains apart?"""
    t = board._t
    size, rows = t.size, board.height
    cells = board._cells
    color = next((c for q in t.neigh[p] if (c := cells[q])), 0)
    if not color:
        return False
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
        return 1  # a ko is judged before (count_eyes)
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
    """1 for a space the opponent reduces to one eye, else 2 (``members`` has at
    most 6 points; ``chains`` are the group's, ``own`` the owner's one-colour space)."""
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


def _ko_taken(board: Board, p: int) -> bool:
    """Can the opponent, playing in the one-point eye ``p``, take stones there
    (a chain of the group with ``p`` its last liberty)? Then it is a ko or a
    capture, not an eye."""
    head, libs = board._head, board._libs
    me = board._t.bit[p]
    return any(libs[head[q]] == me for q in board._t.neigh[p] if board._cells[q])
