"""Benson's algorithm (unconditional life, docs/rules.md, "How dead stones are found"):
chains no sequence of opponent moves can capture, on a board's flat cells."""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .types import Point


def chain_heads(cells: Sequence[int], neigh: Sequence[tuple[int, ...]]) -> list[int]:
    """``head[i]``: the smallest index of the chain at ``i`` (-1 for an empty point)."""
    head = [-1] * len(cells)
    for i, c in enumerate(cells):
        if not c or head[i] >= 0:
            continue
        head[i] = i
        todo = [i]
        for s in todo:
            for n in neigh[s]:
                if cells[n] == c and head[n] < 0:
                    head[n] = i
                    todo.append(n)
    return head


def benson(
    cells: Sequence[int], neigh: Sequence[tuple[int, ...]], head: Sequence[int], color: int
) -> tuple[set[int], list[list[int]]]:
    """Benson's algorithm for ``color``: the heads of its pass-alive chains, and the
    small regions they enclose (every empty point a liberty of an enclosing chain:
    the opponent can make no eye there, so its stones inside are pass-dead)."""
    n = len(cells)
    region = [-1] * n
    members: list[list[int]] = []
    borders: list[set[int]] = []
    small: list[set[int]] = []  # chains for which the region is vital
    for i in range(n):
        if cells[i] == color or region[i] >= 0:
            continue
        rid = len(members)
        region[i] = rid
        pts = [i]
        chains: set[int] = set()
        for p in pts:
            for q in neigh[p]:
                c = cells[q]
                if c == color:
                    chains.add(head[q])
                elif region[q] < 0:
                    region[q] = rid
                    pts.append(q)
        members.append(pts)
        borders.append(chains)
        # Vital to chain x: every empty point of the region is a liberty of x.
        vital = set(chains)
        for p in pts:
            if cells[p]:
                continue
            touching = {head[q] for q in neigh[p] if cells[q] == color}
            vital &= touching
            if not vital:
                break
        small.append(vital)
    alive = {head[i] for i in range(n) if cells[i] == color}
    regions = set(range(len(members)))
    while True:
        vital_count = dict.fromkeys(alive, 0)
        for r in regions:
            for h in small[r]:
                if h in vital_count:
                    vital_count[h] += 1
        drop = {h for h, k in vital_count.items() if k < 2}
        if not drop:
            break
        alive -= drop
        regions = {r for r in regions if borders[r] <= alive}
    enclosed = [members[r] for r in regions if small[r] and borders[r] and borders[r] <= alive]
    return alive, enclosed


def pass_alive(board: Board) -> tuple[frozenset[Point], frozenset[Point]]:
    """Stones that are pass-alive (Benson) and opponent stones they make pass-dead."""
    cells = board._cells
    neigh = board._t.neigh
    head = chain_heads(cells, neigh)
    alive_pts: set[int] = set()
    dead_pts: set[int] = set()
    for color in (1, 2):
        alive, enclosed = benson(cells, neigh, head, color)
        alive_pts.update(i for i, c in enumerate(cells) if c == color and head[i] in alive)
        for pts in enclosed:
            dead_pts.update(p for p in pts if cells[p] == 3 - color)
    size = board.size
    return (
        frozenset((i % size, i // size) for i in alive_pts),
        frozenset((i % size, i // size) for i in dead_pts),
    )
