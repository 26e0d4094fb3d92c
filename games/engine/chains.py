"""The stones of a board and the chains they form, for speed in pure Python: flat
indices (``y*size+x``), per chain its stones, liberty bits and hash (the board keeps
them as it plays; the smaller merged into the larger).  Set-up stones only fill the
cells: a chain is built the first time a move or a question touches it, so a set-up
position of a few moves builds a few chains, not all of them.
"""

from __future__ import annotations

from .drawing import draw
from .grid import tables
from .types import Color, Point


class Chains:
    """The cells and chains of a board of 2..25 lines each way.

    ``size`` is the number of columns (the row stride of the flat index) and
    ``height`` the number of rows: the same but for a rectangular board.
    """

    __slots__ = (
        "_cells",
        "_chain_hash",
        "_chain_head",
        "_chain_libs",
        "_chain_stones",
        "_partial",
        "_t",
        "height",
        "size",
    )

    def __init__(self, size: int = 19, height: int | None = None) -> None:
        t = tables(size, height)
        n = t.npoints
        self.size = size
        self.height = t.height
        self._t = t
        self._cells: list[int] = [0] * n
        # Per stone the index of its chain's head (-1: empty, or a stone whose chain
        # is not built yet); per head the chain's stones, liberty bits and hash.
        self._chain_head: list[int] = [-1] * n
        self._chain_stones: list[list[int] | None] = [None] * n
        self._chain_libs: list[int] = [0] * n
        self._chain_hash: list[int] = [0] * n
        # Whether some stones may belong to chains not built yet (after a set-up).
        self._partial = False

    # ----------------------------------------------------------------- chains

    def _forget_chains(self) -> None:
        """Drop every chain after stones were set up or taken off (the hash is kept
        up to date by the caller): each is built again when first used."""
        n = self._t.npoints
        self._chain_head = [-1] * n
        self._chain_stones = [None] * n
        self._chain_libs = [0] * n
        self._chain_hash = [0] * n
        self._partial = self._cells.count(0) != n

    def _grow(self, i: int) -> int:
        """Build the chain of the stone at ``i``, not built yet; its head (``i``)."""
        t = self._t
        cells = self._cells
        head = self._chain_head
        neigh = t.neigh
        bit = t.bit
        c = cells[i]
        keys = t.zkey[c]
        members = [i]
        head[i] = i
        lib = 0
        hh = 0
        for s in members:  # the list grows while it is walked: a breadth-first fill
            hh ^= keys[s]
            for m in neigh[s]:
                cm = cells[m]
                if not cm:
                    lib |= bit[m]
                elif cm == c and head[m] < 0:  # not built: of this same chain
                    head[m] = i
                    members.append(m)
        self._chain_stones[i] = members
        self._chain_libs[i] = lib
        self._chain_hash[i] = hh
        return i

    def _build_all(self) -> None:
        """Build every chain not built yet."""
        if self._partial:
            head = self._chain_head
            for i, c in enumerate(self._cells):
                if c and head[i] < 0:
                    self._grow(i)
            self._partial = False

    # Every chain built, for the modules that walk the chains themselves (territory).
    @property
    def _head(self) -> list[int]:
        self._build_all()
        return self._chain_head

    @property
    def _stones(self) -> list[list[int] | None]:
        self._build_all()
        return self._chain_stones

    @property
    def _libs(self) -> list[int]:
        self._build_all()
        return self._chain_libs

    @property
    def _chash(self) -> list[int]:
        self._build_all()
        return self._chain_hash

    # ------------------------------------------------------------------ reading

    def _index(self, point: Point) -> int:
        x, y = point
        size = self.size
        if not (0 <= x < size and 0 <= y < self.height):
            raise ValueError(f"point {point} is off a {size}x{self.height} board")
        return y * size + x

    def _point(self, i: int) -> Point:
        return (i % self.size, i // self.size)

    def get(self, point: Point) -> Color | None:
        c = self._cells[self._index(point)]
        return Color(c) if c else None

    def stones(self) -> dict[Point, Color]:
        size = self.size
        return {(i % size, i // size): Color(c) for i, c in enumerate(self._cells) if c}

    def chain(self, point: Point) -> frozenset[Point]:
        i = self._index(point)
        h = self._chain_head[i]
        if h < 0:
            if not self._cells[i]:
                return frozenset()
            h = self._grow(i)
        members = self._chain_stones[h]
        assert members is not None
        return frozenset(self._point(s) for s in members)

    def liberties(self, point: Point) -> int:
        """The number of liberties of the chain at ``point`` (0 for an empty point)."""
        i = self._index(point)
        h = self._chain_head[i]
        if h < 0:
            if not self._cells[i]:
                return 0
            h = self._grow(i)
        return self._chain_libs[h].bit_count()

    def to_ascii(self) -> str:
        return draw(self._cells, self.size, self.height)

    def cells(self) -> list[int]:
        """A copy of the flat cell array (0 empty, 1 Black, 2 White), index ``y*size+x``."""
        return self._cells[:]
