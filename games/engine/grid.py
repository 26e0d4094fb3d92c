"""The tables every board of one shape shares (neighbours, bits, flat indices,
Zobrist keys), built once per shape, and flood fill on bit boards."""

from __future__ import annotations

import random
from functools import cache

from .coords import check_size
from .types import Point


class _Tables:
    """Per-size constants: neighbours, bits, Zobrist keys.  ``size`` is the number
    of columns (the row stride), ``height`` the number of rows."""

    __slots__ = ("bit", "height", "index", "neigh", "npoints", "side_key", "size", "zkey")

    def __init__(self, size: int, height: int) -> None:
        n = size * height
        self.size = size
        self.height = height
        self.npoints = n
        neigh: list[tuple[int, ...]] = []
        for i in range(n):
            x, y = i % size, i // size
            nb = []
            if y > 0:
                nb.append(i - size)
            if x > 0:
                nb.append(i - 1)
            if x < size - 1:
                nb.append(i + 1)
            if y < height - 1:
                nb.append(i + size)
            neigh.append(tuple(nb))
        self.neigh: tuple[tuple[int, ...], ...] = tuple(neigh)
        self.bit: tuple[int, ...] = tuple(1 << i for i in range(n))
        self.index: dict[Point, int] = {(i % size, i // size): i for i in range(n)}
        # Deterministic 64-bit keys, seeded by size: the same position always
        # has the same hash, across processes.
        rng = random.Random(0x60EF + size + (0 if height == size else height << 8))
        black = [rng.getrandbits(64) for _ in range(n)]
        white = [rng.getrandbits(64) for _ in range(n)]
        self.zkey: tuple[tuple[int, ...], ...] = ((), tuple(black), tuple(white))
        # Situational keys: xor this in when White is to move.
        self.side_key: tuple[int, int, int] = (0, 0, rng.getrandbits(64))


def tables(size: int, height: int | None = None) -> _Tables:
    """The tables of a ``size`` board, or of ``size`` columns by ``height`` rows
    (``tables(9)`` and ``tables(9, 9)`` are the same object)."""
    return _shape_tables(size, size if height is None else height)


@cache
def _shape_tables(size: int, height: int) -> _Tables:
    check_size(size, height)
    return _Tables(size, height)


@cache
def _edge_masks(size: int, rows: int) -> tuple[int, int]:
    """Bit masks of the points not in the first column and not in the last one."""
    first = sum(1 << (y * size) for y in range(rows))
    full = (1 << (size * rows)) - 1
    return full ^ first, full ^ (first << (size - 1))


def flood(seeds: int, through: int, size: int, rows: int) -> int:
    """On bit boards (bit ``y*size+x`` is the point (x, y)): the points of ``through``
    joined to ``seeds`` by steps to a neighbour inside ``through``.

    Every region grows at once, a few big-integer operations per step; the shifts by
    one are masked so that they do not wrap round a row.
    """
    not_first, not_last = _edge_masks(size, rows)
    reached = 0
    frontier = seeds
    while frontier:
        frontier = (
            ((frontier << 1) & not_first)
            | ((frontier >> 1) & not_last)
            | (frontier << size)
            | (frontier >> size)
        ) & through
        through ^= frontier
        reached |= frontier
    return reached
