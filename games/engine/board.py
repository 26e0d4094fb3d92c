"""The board: captures, Zobrist hashing, ko and superko, played on the stones and
chains that ``chains.Chains`` holds.

Built for speed in pure Python: chains kept up to date as stones are played (no flood
fill per move), and the hash of the first set-up's stones worked out only if the hash
itself is asked for.  It remembers the positions seen, for superko.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce
from operator import xor

from .chains import Chains
from .coords import point_to_gtp
from .drawing import read_drawing
from .rules import KoRule
from .types import Color, Point, Setup

# Result codes of Board._check (kept as ints on the hot path).
LEGAL = 0
OCCUPIED = 1
SUICIDE = 2
KO = 3
SUPERKO = 4
REASONS = {OCCUPIED: "occupied", SUICIDE: "suicide", KO: "ko", SUPERKO: "superko"}

_KO_CODE = {KoRule.SIMPLE: 0, KoRule.POSITIONAL: 1, KoRule.SITUATIONAL: 2}


class IllegalMove(ValueError):
    """A move the board cannot make; ``reason`` is one of ``REASONS``' values."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def point_label(point: Point, size: int, height: int | None = None) -> str:
    """Letters and numbers (``D4``): GTP columns without I, row 1 at the bottom."""
    return point_to_gtp(point, size, height)


@dataclass(frozen=True, slots=True)
class Played:
    """What a play did: the opponent stones it captured, or its own stones removed."""

    captured: frozenset[Point]
    suicide: bool = False


class Board(Chains):
    """A Go board: its cells and incremental chains (``Chains``, which says how ``size``
    and ``height`` are read), moves played on them, and Zobrist hashing for ko."""

    __slots__ = (
        "_base",
        "_base_stones",
        "_hash",
        "_seen_pos",
        "_seen_sit",
        "ko_color",
        "ko_point",
        "last_captured",
    )

    def __init__(self, size: int = 19, height: int | None = None) -> None:
        super().__init__(size, height)
        # The Zobrist hash of the stones, kept as ``_hash ^ _base``: ``_base`` is the
        # hash of the first set-up's stones, worked out only when ``hash`` is read
        # (``_base_stones`` until then).  XOR is linear, so the positions a game goes
        # through compare as well by ``_hash`` alone (superko reads nothing else).
        self._hash = 0
        self._base = 0
        self._base_stones: tuple[list[int], list[int]] | None = None
        # The point the ``ko_color`` player may not retake at once (-1: none).
        self.ko_point = -1
        self.ko_color = 0
        # Stones removed by the last play (index lists, one per chain).
        self.last_captured: list[list[int]] = []
        # Positions seen: board hashes, and board hashes keyed by player to move.
        self._seen_pos: set[int] = set()
        self._seen_sit: set[int] = set()

    # ----------------------------------------------------------------- building

    @classmethod
    def from_ascii(cls, text: str) -> Board:
        """A board from a drawing (``drawing.read_drawing``).  Chains with no liberty
        in the drawing are an error."""
        size, rows, setup = read_drawing(text)
        board = cls(size, rows)
        board.place_setup(setup)
        for p in board.stones():
            if board.liberties(p) == 0:
                raise ValueError(
                    f"chain at {point_label(p, size, board.height)} has no liberty in the drawing"
                )
        return board

    def place_setup(self, setup: Setup) -> None:
        """Apply AB/AW/AE: the chains are built again when used; ko and history are not
        reset."""
        t = self._t
        index = t.index
        cells = self._cells
        zkey = t.zkey
        groups = []
        for points, color in ((setup.black, 1), (setup.white, 2), (setup.empty, 0)):
            try:
                groups.append((list(map(index.__getitem__, points)), color))
            except KeyError:
                bad = next(p for p in points if p not in index)
                raise ValueError(
                    f"setup point {bad} is off a {self.size}x{self.height} board"
                ) from None
        (black, _), (white, _), (empty, _) = groups
        if (
            not empty
            and not self._seen_pos
            and self._base_stones is None
            and not self._base
            and cells.count(0) == t.npoints
            and setup.black.isdisjoint(setup.white)
        ):
            # The common case, a set-up on an empty board before any position was
            # recorded: these stones are the base of the hash, worked out if asked for.
            for i in black:
                cells[i] = 1
            for i in white:
                cells[i] = 2
            self._base_stones = (black, white)
            # An empty board has no chain to forget: its stones are all new.
            self._partial = bool(black or white)
            self.ko_point = -1
            return
        h = self._hash
        for indices, color in groups:
            keys = zkey[color]
            for i in indices:
                old = cells[i]
                if old != color:
                    if old:
                        h ^= zkey[old][i]
                    if color:
                        h ^= keys[i]
                    cells[i] = color
        self._hash = h
        self._forget_chains()
        self.ko_point = -1

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.size = self.size
        b.height = self.height
        b._t = self._t
        b._cells = self._cells[:]
        b._chain_head = self._chain_head[:]
        b._chain_stones = [None if s is None else s[:] for s in self._chain_stones]
        b._chain_libs = self._chain_libs[:]
        b._chain_hash = self._chain_hash[:]
        b._partial = self._partial
        b._hash = self._hash
        b._base = self._base
        b._base_stones = self._base_stones  # never changed once set: shared
        b.ko_point = self.ko_point
        b.ko_color = self.ko_color
        b.last_captured = []
        b._seen_pos = set(self._seen_pos)
        b._seen_sit = set(self._seen_sit)
        return b

    # ------------------------------------------------------------------ reading

    @property
    def hash(self) -> int:
        """The Zobrist hash of the stones on the board: the same stones, the same hash."""
        pending = self._base_stones
        if pending is not None:
            zkey = self._t.zkey
            black, white = pending
            self._base ^= reduce(xor, map(zkey[1].__getitem__, black), 0) ^ reduce(
                xor, map(zkey[2].__getitem__, white), 0
            )
            self._base_stones = None
        return self._hash ^ self._base

    def __repr__(self) -> str:
        return f"Board.from_ascii({self.to_ascii()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.size == other.size and self.height == other.height and self._cells == other._cells
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ------------------------------------------------------------------ history

    def record_position(self, to_move: Color | int) -> None:
        """Remember the current position (for superko) with ``to_move`` to play."""
        h = self._hash
        self._seen_pos.add(h)
        self._seen_sit.add(h ^ self._t.side_key[int(to_move)])

    def seen(self, to_move: Color | int | None = None) -> bool:
        """Has the current board occurred before (with ``to_move`` to play, if given)?"""
        if to_move is None:
            return self._hash in self._seen_pos
        return (self._hash ^ self._t.side_key[int(to_move)]) in self._seen_sit

    # ----------------------------------------------------------------- legality

    def _check(self, i: int, color: int, ko: int, suicide_legal: bool) -> int:
        """Is playing ``color`` at index ``i`` legal?  Does not mutate.

        ``ko`` is 0 simple, 1 positional, 2 situational.  The simple-ko
        retake is reported as KO under every ko rule (superko includes it).
        """
        cells = self._cells
        if cells[i]:
            return OCCUPIED
        if i == self.ko_point and color == self.ko_color:
            return KO
        t = self._t
        bit = t.bit[i]
        head = self._chain_head
        libs = self._chain_libs
        has_lib = False
        caps: list[int] = []
        own: list[int] = []
        for n in t.neigh[i]:
            c = cells[n]
            if not c:
                has_lib = True
                continue
            h = head[n]
            if h < 0:  # a set-up chain not built yet
                h = self._grow(n)
            if c == color:
                if libs[h] != bit:
                    has_lib = True
                if h not in own:
                    own.append(h)
            elif libs[h] == bit and h not in caps:
                caps.append(h)
        suicide = not caps and not has_lib
        if suicide and not suicide_legal:
            return SUICIDE
        if ko == 0:
            return LEGAL
        chash = self._chain_hash
        nh = self._hash
        if suicide:
            for h in own:
                nh ^= chash[h]
        else:
            nh ^= t.zkey[color][i]
            for h in caps:
                nh ^= chash[h]
        if ko == 1:
            return SUPERKO if nh in self._seen_pos else LEGAL
        return SUPERKO if (nh ^ t.side_key[3 - color]) in self._seen_sit else LEGAL

    def check(
        self,
        point: Point,
        color: Color,
        *,
        ko: KoRule = KoRule.SIMPLE,
        suicide: bool = False,
    ) -> str | None:
        """Why ``color`` may not play at ``point`` now (``None`` if it may).

        One of ``"occupied"``, ``"suicide"``, ``"ko"``, ``"superko"``.  Superko
        is judged against the positions recorded with ``record_position``.
        """
        code = self._check(self._index(point), int(color), _KO_CODE[ko], suicide)
        return REASONS.get(code)

    def illegal_points(
        self, color: Color, *, ko: KoRule = KoRule.SIMPLE, suicide: bool = False
    ) -> dict[Point, str]:
        """Every empty point ``color`` may not play now, with the reason."""
        out: dict[Point, str] = {}
        code_ko = _KO_CODE[ko]
        for i, c in enumerate(self._cells):
            if not c:
                code = self._check(i, int(color), code_ko, suicide)
                if code:
                    out[self._point(i)] = REASONS[code]
        return out

    # ------------------------------------------------------------------- moving

    def _place(self, i: int, color: int) -> int:
        """Put a ``color`` stone on empty index ``i``; capture; remove a suicide.

        Returns the number of opponent stones captured, or minus the number of
        own stones removed by a suicide.  Sets the simple-ko point.  Does not
        record history.  The caller has checked that ``i`` is empty.
        """
        t = self._t
        cells = self._cells
        head = self._chain_head
        libs = self._chain_libs
        stones = self._chain_stones
        chash = self._chain_hash
        bits = t.bit
        bit = bits[i]
        key = t.zkey[color][i]
        self._hash ^= key
        mylibs = 0
        own: list[int] = []
        caps: list[int] = []
        for n in t.neigh[i]:
            c = cells[n]
            if not c:
                mylibs |= bits[n]
                continue
            h = head[n]
            if h < 0:  # a set-up chain not built yet; built while ``i`` is still empty
                h = self._grow(n)
            lb = libs[h]
            if lb & bit:
                lb ^= bit
                libs[h] = lb
            if c == color:
                if h not in own:
                    own.append(h)
            elif not lb and h not in caps:
                caps.append(h)
        cells[i] = color
        # Merge the new stone with its own neighbours, into the largest chain.
        if not own:
            base = i
            head[i] = i
            members = [i]
            stones[i] = members
            libs[i] = mylibs
            chash[i] = key
        else:
            base = own[0]
            first = stones[base]
            assert first is not None
            members = first
            if len(own) > 1:
                for h in own:
                    m = stones[h]
                    assert m is not None
                    if len(m) > len(members):
                        base, members = h, m
                lb = libs[base] | mylibs
                hh = chash[base] ^ key
                for h in own:
                    if h == base:
                        continue
                    m = stones[h]
                    assert m is not None
                    for s in m:
                        head[s] = base
                    members.extend(m)
                    lb |= libs[h]
                    hh ^= chash[h]
                    stones[h] = None
                libs[base] = lb
                chash[base] = hh
            else:
                libs[base] |= mylibs
                chash[base] ^= key
            members.append(i)
            head[i] = base
        self.ko_point = -1
        if caps:
            neigh = t.neigh
            removed: list[list[int]] = []
            count = 0
            hsh = self._hash
            for h in caps:
                m = stones[h]
                assert m is not None
                hsh ^= chash[h]
                for s in m:
                    cells[s] = 0
                    head[s] = -1
                for s in m:
                    sb = bits[s]
                    for n in neigh[s]:
                        hn = head[n]
                        if hn >= 0:  # a chain not built yet counts its liberties when built
                            libs[hn] |= sb
                stones[h] = None
                count += len(m)
                removed.append(m)
            self._hash = hsh
            self.last_captured = removed
            if count == 1 and len(members) == 1 and libs[base] == bits[removed[0][0]]:
                self.ko_point = removed[0][0]
                self.ko_color = 3 - color
            return count
        if libs[base]:
            if self.last_captured:
                self.last_captured = []
            return 0
        # Suicide: the played stone's chain has no liberty and captured nothing.
        neigh = t.neigh
        self._hash ^= chash[base]
        for s in members:
            cells[s] = 0
            head[s] = -1
        for s in members:
            sb = bits[s]
            for n in neigh[s]:
                hn = head[n]
                if hn >= 0:
                    libs[hn] |= sb
        stones[base] = None
        self.last_captured = [members]
        return -len(members)

    def play(
        self,
        point: Point,
        color: Color,
        *,
        ko: KoRule | None = None,
        suicide: bool = True,
        to_move_after: Color | None = None,
    ) -> Played:
        """Play ``color`` at ``point`` and record the new position.

        Raises ``IllegalMove`` if the point is occupied, if the move is a
        suicide and ``suicide`` is false, or (when ``ko`` is given) if the ko
        rule forbids it.  A legal suicide removes the player's own chain.
        """
        i = self._index(point)
        code = self._check(i, int(color), _KO_CODE[ko] if ko else 0, suicide)
        if code == KO and ko is None:
            code = LEGAL
        if code:
            reason = REASONS[code]
            raise IllegalMove(
                reason,
                f"{color.name.lower()} {point_label(point, self.size, self.height)}: {reason}",
            )
        n = self._place(i, int(color))
        captured = frozenset(self._point(s) for m in self.last_captured for s in m)
        self.record_position(to_move_after or color.opponent)
        return Played(captured, suicide=n < 0)

    def pass_move(self, color: Color) -> None:
        """A pass: clears the ko point and records the position with the opponent to move."""
        self.ko_point = -1
        self.record_position(color.opponent)

    def remove(self, points: Iterable[Point]) -> None:
        """Take stones off (dead-stone removal); chains are built again when used."""
        cells = self._cells
        zkey = self._t.zkey
        h = self._hash
        for p in points:
            i = self._index(p)
            c = cells[i]
            if c:
                h ^= zkey[c][i]
                cells[i] = 0
        self._hash = h
        self._forget_chains()
