"""Dead stones in a finished position, estimated: Benson's pass-alive test, then playouts.

Deterministic: the playouts are seeded from the position, so the same board always gives
the same estimate.  How it decides and where it is known to be wrong: docs/rules.md,
"How dead stones are found".
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from .benson import benson, chain_heads
from .board import Board
from .grid import tables
from .rules import Rules
from .types import Color, Point

__all__ = ["ChainEstimate", "Estimate", "estimate_dead", "flipped_dead_sets"]

PLAYOUTS = 200
# The most playout moves one estimate may play, past MIN_PLAYOUTS: the bound on its work.
# An unfinished 19x19 position, whose playouts run over the whole board and never
# settle, went on to all 200 playouts (some 200,000 moves; 6.5 s was seen on one real
# OGS game).  At this budget the dead set of every one of the 107 marked games in
# tests/data/sgf/marked is the one found without it (bench/deadstones.py --unbounded).
MOVE_BUDGET = 30_000
# Playouts stop early, after at least MIN_PLAYOUTS and at a multiple of PLAYOUT_STEP,
# once no chain's verdict is in doubt (see _settled).
MIN_PLAYOUTS = 16
PLAYOUT_STEP = 8
SETTLED_Z = 3.0
# A chain is dead below this mean own-colour ownership, not below 0: random playouts
# let a dead group's owner play on unanswered inside the opponent's area, so a dead
# chain survives too often and its mean leans alive (measured on 1,020 marked games).
DEAD_BELOW = 0.1
# The largest chain a playout may put in atari when that only fills the opponent's eye
# space (a nakade); larger ones, and any that would give the opponent a second eye, never.
NAKADE_SELF_ATARI = 2
# A chain whose mean ownership is weaker than this is reported as unsure.
UNSURE_BELOW = 0.4
# When no chain is unsure, the least confident ones are tried when flipping.
FLIP_FALLBACK = 3
MAX_FLIP_CANDIDATES = 6


@dataclass(frozen=True, slots=True)
class ChainEstimate:
    """One chain: its stones, colour, mean own-colour ownership (-1..1) and verdict."""

    color: Color
    points: tuple[Point, ...]  # sorted top-left first
    ownership: float
    dead: bool
    unsure: bool
    pass_alive: bool = False


@dataclass(frozen=True, slots=True)
class Estimate:
    """Which stones are dead, which chains are unsure, and every point's ownership.

    ``ownership[y * size + x]`` is +1 when Black owned the point in every playout,
    -1 when White did.
    """

    size: int
    dead: frozenset[Point]
    chains: tuple[ChainEstimate, ...]
    ownership: tuple[float, ...]

    @property
    def unsure(self) -> tuple[tuple[Point, ...], ...]:
        return tuple(c.points for c in self.chains if c.unsure)

    def owner(self, point: Point) -> float:
        return self.ownership[point[1] * self.size + point[0]]


# --------------------------------------------------------------------------- playouts


@cache
def _diagonals(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    diag: list[tuple[int, ...]] = []
    off: list[int] = []
    for i in range(size * size):
        x, y = i % size, i // size
        d = [
            (x + dx) + (y + dy) * size
            for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1))
            if 0 <= x + dx < size and 0 <= y + dy < size
        ]
        diag.append(tuple(d))
        off.append(4 - len(d))
    return tuple(diag), tuple(off)


def _playout(
    cells: list[int],
    head: list[int],
    stones: list[list[int] | None],
    libs: list[int],
    cand: list[int],
    size: int,
    first: int,
    rng: random.Random,
) -> tuple[list[int], int]:
    """Play ``first`` then alternately until both pass; the final cells and the number
    of moves (passes included).

    Each move answers the last one when it can, the most stones at stake first:
    the vital point of a small space the last move's capture left, capture the
    chain just played if it is in atari, or save an own chain it put in atari
    (capture an attacker in atari, or extend to two liberties or more).
    Otherwise a random move.  A move is refused when it fills the mover's own
    true eye, is suicide, retakes a ko at once, or leaves a chain of two or more
    stones of the mover in atari without capturing (without that rule playouts
    break every seki), unless it is a two-stone throw-in that only fills the
    opponent's eye space.  Mutates its arguments: the caller passes copies.
    """
    t = tables(size)
    neigh = t.neigh
    bits = t.bit
    diag, off = _diagonals(size)
    random_ = rng.random
    color = first
    passes = 0
    ko = -1
    limit = 3 * size * size
    moves = 0
    last = -1
    vital = -1  # the vital point of an eye space the last move made by capturing
    pos = [-1] * (size * size)  # where each candidate point is in ``cand``
    for k, p in enumerate(cand):
        pos[p] = k

    def check(i: int, color: int) -> tuple[list[int], list[int], int] | None:
        """The move's own neighbour chains, captures and liberties; None if refused."""
        opp = 3 - color
        nb = neigh[i]
        for q in nb:
            if cells[q] != color:
                break
        else:  # every neighbour is the mover's: fill it only if it is a false eye
            bad = 1 if off[i] else 0
            for q in diag[i]:
                if cells[q] == opp:
                    bad += 1
            if bad < 2:
                return None  # a true eye of the mover's: never fill it
        bit = bits[i]
        lb = 0
        own: list[int] = []
        caps: list[int] = []
        for q in nb:
            v = cells[q]
            if not v:
                lb |= bits[q]
            elif v == color:
                h = head[q]
                lb |= libs[h]
                if h not in own:
                    own.append(h)
            else:
                h = head[q]
                if libs[h] == bit and h not in caps:
                    caps.append(h)
        lb &= ~bit
        if not caps:
            if not lb:
                return None  # suicide
            if not lb & (lb - 1) and own:
                total = 1
                for h in own:
                    total += len(stones[h])  # type: ignore[arg-type]
                if total >= 2 and (
                    total > NAKADE_SELF_ATARI or not fills_eye_space(i, own, lb, color)
                ):
                    return None  # a self-atari of a chain of two or more
        return own, caps, lb

    def fills_eye_space(i: int, own: list[int], lb: int, color: int) -> bool:
        """A self-atari that only fills the opponent's eye space: no chain around it
        has an eye elsewhere, so capturing gives it one eye at most."""
        opp = 3 - color
        members = [i]
        for h in own:
            members.extend(stones[h])  # type: ignore[arg-type]
        seen: set[int] = set()
        for s in members:
            for q in neigh[s]:
                if cells[q] != opp:
                    continue
                h = head[q]
                if h in seen:
                    continue
                seen.add(h)
                rest = libs[h] & ~lb & ~bits[i]
                while rest:
                    low = rest & -rest
                    p = low.bit_length() - 1
                    rest ^= low
                    for r in neigh[p]:
                        if cells[r] != opp:
                            break
                    else:
                        return False
        return True

    def answers(color: int) -> list[int]:
        """Moves that answer the last one, the most stones at stake first: capture
        it, or save what it put in atari (capture an attacker, or extend)."""
        ranked: list[tuple[int, int]] = [(1000, vital)] if vital >= 0 else []
        h = head[last]
        if h >= 0 and cells[last] != color:
            lb = libs[h]
            if lb and not lb & (lb - 1):
                ranked.append((2 * len(stones[h]), lb.bit_length() - 1))  # type: ignore[arg-type]
        for q in neigh[last]:
            if cells[q] != color:
                continue
            h = head[q]
            lb = libs[h]
            if not lb or lb & (lb - 1):
                continue
            at_stake = 2 * len(stones[h])  # type: ignore[arg-type]
            for s in stones[h]:  # type: ignore[union-attr]
                for r in neigh[s]:
                    if cells[r] and cells[r] != color:
                        hr = head[r]
                        rl = libs[hr]
                        if not rl & (rl - 1):
                            ranked.append((at_stake + 2 * len(stones[hr]), rl.bit_length() - 1))  # type: ignore[arg-type]
            # An escape (it needs two liberties after the move), after any capture.
            ranked.append((at_stake - 1, -1 - (lb.bit_length() - 1)))
        ranked.sort(reverse=True)
        return [a for _, a in ranked]

    while passes < 2 and moves < limit:
        opp = 3 - color
        played = -1
        found: tuple[list[int], list[int], int] | None = None
        if last >= 0:
            for a in answers(color):
                escape = a < 0
                i = -1 - a if escape else a
                if i == ko or pos[i] < 0:
                    continue
                found = check(i, color)
                if found is None:
                    continue
                if escape and not found[2] & (found[2] - 1) and not found[1]:
                    found = None
                    continue
                played = i
                break
        if played < 0:
            n = len(cand)
            while n:
                k = int(random_() * n)
                i = cand[k]
                n -= 1
                cand[k], cand[n] = cand[n], i
                pos[cand[k]] = k
                pos[i] = n
                if i == ko:
                    continue
                found = check(i, color)
                if found is None:
                    continue
                played = i
                break
        if played < 0 or found is None:
            passes += 1
            ko = -1
            last = -1
            color = opp
            moves += 1
            continue
        own, caps, lb = found
        vital = -1
        passes = 0
        moves += 1
        i = played
        last = i
        bit = bits[i]
        k = pos[i]
        pos[i] = -1
        tail = cand.pop()
        if tail != i:
            cand[k] = tail
            pos[tail] = k
        cells[i] = color
        # Opponent chains lose the liberty.
        for q in neigh[i]:
            if cells[q] == opp:
                libs[head[q]] &= ~bit
        # Merge into the largest own chain.
        if not own:
            head[i] = i
            stones[i] = [i]
            base = i
        else:
            base = own[0]
            members = stones[base]
            assert members is not None
            for h in own[1:]:
                m = stones[h]
                assert m is not None
                if len(m) > len(members):
                    base, members = h, m
            for h in own:
                if h != base:
                    m = stones[h]
                    assert m is not None
                    for s in m:
                        head[s] = base
                    members.extend(m)
                    stones[h] = None
            members.append(i)
            head[i] = base
        libs[base] = lb
        ko = -1
        if caps:
            count = 0
            last_cap = -1
            for h in caps:
                m = stones[h]
                assert m is not None
                for s in m:
                    cells[s] = 0
                    head[s] = -1
                for s in m:
                    sb = bits[s]
                    for q in neigh[s]:
                        if cells[q]:
                            libs[head[q]] |= sb
                    pos[s] = len(cand)
                    cand.append(s)
                    last_cap = s
                count += len(m)
                stones[h] = None
            if count == 1 and len(stones[base]) == 1 and libs[base] == bits[last_cap]:  # type: ignore[arg-type]
                ko = last_cap
            elif 3 <= count <= 6:
                vital = _vital_point(cand[-count:], neigh)
        color = opp
    return cells, moves


def _vital_point(space: list[int], neigh: Sequence[tuple[int, ...]]) -> int:
    """The point of a small eye space with the most neighbours inside it: where the
    opponent plays to leave one eye (straight and bent three, pyramid four, bulky
    five, rabbity six)."""
    inside = set(space)
    best, most = -1, 0
    for p in space:
        k = sum(1 for q in neigh[p] if q in inside)
        if k > most:
            best, most = p, k
    return best


def _half_means(
    members: list[int], sign: int, halves: list[list[int]], counts: list[int]
) -> tuple[float, float]:
    """A chain's mean own-colour ownership in the Black-first and White-first playouts."""
    size = len(members)
    first = sign * sum(halves[0][j] for j in members) / (size * counts[0])
    second = sign * sum(halves[1][j] for j in members) / (size * counts[1])
    return first, second


def _settled(
    chains: dict[int, list[int]],
    cells: Sequence[int],
    halves: list[list[int]],
    counts: list[int],
) -> bool:
    """Every chain's verdict beyond doubt: its mean ownership is further from the
    dead/alive line than SETTLED_Z standard errors, and both halves agree."""
    total = counts[0] + counts[1]
    for h, members in chains.items():
        first, second = _half_means(members, 1 if cells[h] == 1 else -1, halves, counts)
        if (first < DEAD_BELOW) != (second < DEAD_BELOW):
            return False
        own = (first * counts[0] + second * counts[1]) / total
        spread = max(1.0 - own * own, 0.1)
        if (own - DEAD_BELOW) ** 2 * total < SETTLED_Z**2 * spread:
            return False
    return True


def _seed(cells: Sequence[int], size: int) -> int:
    return zlib.crc32(bytes(cells)) ^ (size << 24)


def estimate_dead(
    position: Board,
    rules: Rules | None = None,
    *,
    playouts: int = PLAYOUTS,
    seed: int | None = None,
    move_budget: int = MOVE_BUDGET,
) -> Estimate:
    """Estimate the dead stones of a finished position.

    Pass-alive chains (Benson) are never dead and the opponent stones they enclose
    always are; the rest is decided by at most ``playouts`` playouts (fewer once no
    verdict is in doubt, or once ``move_budget`` playout moves are spent past the first
    ``MIN_PLAYOUTS``), half with Black to move first, seeded from the position unless
    ``seed`` is given.  Under rules
    that count every stone (``remove_dead`` false) nothing is dead: dead stones must
    be captured before the game ends.
    """
    if position.height != position.size:
        raise ValueError(
            f"the dead-stone estimate needs a square board, not {position.size}x{position.height}"
        )
    size = position.size
    t = tables(size)
    neigh, bits = t.neigh, t.bit
    cells0 = position.cells()
    n = len(cells0)
    head0 = chain_heads(cells0, neigh)
    fixed_alive: set[int] = set()
    fixed_dead: set[int] = set()
    frozen_owner: dict[int, int] = {}
    for color in (1, 2):
        alive, enclosed = benson(cells0, neigh, head0, color)
        fixed_alive.update(i for i in range(n) if cells0[i] == color and head0[i] in alive)
        for pts in enclosed:
            for p in pts:
                frozen_owner[p] = 1 if color == 1 else -1
                if cells0[p]:
                    fixed_dead.add(p)
    # The playout board: pass-dead stones taken off, enclosed regions left alone.
    start = cells0[:]
    for p in fixed_dead:
        start[p] = 0
    head = chain_heads(start, neigh)
    stones: list[list[int] | None] = [None] * n
    libs = [0] * n
    for i in range(n):
        if start[i]:
            h = head[i]
            m = stones[h]
            if m is None:
                stones[h] = [i]
            else:
                m.append(i)
            for q in neigh[i]:
                if not start[q]:
                    libs[h] |= bits[q]
    cand0 = [i for i in range(n) if not start[i] and i not in frozen_owner]
    rng = random.Random(_seed(cells0, size) if seed is None else seed)
    halves = [[0] * n, [0] * n]
    counts = [0, 0]
    by_head: dict[int, list[int]] = {}
    for i in range(n):
        if head0[i] >= 0:
            by_head.setdefault(head0[i], []).append(i)
    # The chains the guard did not decide: the playouts stop once no verdict on them
    # is in doubt.
    open_chains = {h: m for h, m in by_head.items() if h not in fixed_alive and h not in fixed_dead}
    spent = 0
    for k in range(max(playouts, 2)):
        if (
            k >= MIN_PLAYOUTS
            and k % PLAYOUT_STEP == 0
            and (spent >= move_budget or _settled(open_chains, cells0, halves, counts))
        ):
            break
        first = 1 if k % 2 == 0 else 2
        final, moves = _playout(
            start[:],
            head[:],
            [None if m is None else m[:] for m in stones],
            libs[:],
            cand0[:],
            size,
            first,
            rng,
        )
        spent += moves
        acc = halves[k % 2]
        counts[k % 2] += 1
        for i in range(n):
            c = final[i]
            if c == 1:
                acc[i] += 1
            elif c == 2:
                acc[i] -= 1
            else:
                b = w = False
                for q in neigh[i]:
                    v = final[q]
                    if v == 1:
                        b = True
                    elif v == 2:
                        w = True
                if b != w:
                    acc[i] += 1 if b else -1
    total = counts[0] + counts[1]
    ownership = [(halves[0][i] + halves[1][i]) / total for i in range(n)]
    for p, owner in frozen_owner.items():
        ownership[p] = float(owner)
    for p in fixed_alive:
        ownership[p] = 1.0 if cells0[p] == 1 else -1.0
    remove = rules is None or rules.remove_dead
    chains: list[ChainEstimate] = []
    dead: set[Point] = set()
    for h, members in by_head.items():
        color = cells0[h]
        sign = 1 if color == 1 else -1
        own = sign * sum(ownership[j] for j in members) / len(members)
        points = tuple(sorted(((j % size, j // size) for j in members), key=lambda p: (p[1], p[0])))
        if h in fixed_alive:
            chains.append(ChainEstimate(Color(color), points, 1.0, False, False, True))
            continue
        if h in fixed_dead:
            is_dead, unsure, own = True, False, -1.0
        else:
            is_dead = own < DEAD_BELOW
            # Unsure: a weak mean, or a verdict that depends on who played first.
            by_black, by_white = _half_means(members, sign, halves, counts)
            unsure = abs(own) < UNSURE_BELOW or (by_black < DEAD_BELOW) != (by_white < DEAD_BELOW)
        if not remove:
            is_dead = unsure = False
        if is_dead:
            dead.update(points)
        chains.append(ChainEstimate(Color(color), points, round(own, 3), is_dead, unsure))
    return Estimate(
        size=size,
        dead=frozenset(dead),
        chains=tuple(chains),
        ownership=tuple(round(o, 3) for o in ownership),
    )


def flipped_dead_sets(
    estimate: Estimate, *, most: int = 2
) -> Iterator[tuple[frozenset[Point], tuple[ChainEstimate, ...]]]:
    """Dead sets made by flipping at most ``most`` chains of the estimate (dead to alive or
    alive to dead): the unsure chains, else the least confident ones, weakest first.

    Yields ``(dead set, flipped chains)``: one flip before any two.
    """
    candidates = [c for c in estimate.chains if c.unsure]
    if not candidates:
        candidates = sorted(
            (c for c in estimate.chains if not c.pass_alive),
            key=lambda c: abs(c.ownership),
        )[:FLIP_FALLBACK]
    candidates.sort(key=lambda c: abs(c.ownership))
    candidates = candidates[:MAX_FLIP_CANDIDATES]
    for k in range(1, most + 1):
        for group in combinations(candidates, k):
            dead = set(estimate.dead)
            for c in group:
                if c.dead:
                    dead.difference_update(c.points)
                else:
                    dead.update(c.points)
            yield frozenset(dead), group
