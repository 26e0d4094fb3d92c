"""Round-robin schedules (Berger tables) with balanced colours.

The circle method: the last player stays put, the others turn one place a
round; each of n players (n even, or n + 1 with a bye seat) meets every other
once in n - 1 rounds.  Colours go to whoever has had White less often in the
schedule so far, so nobody's balance drifts beyond one.
"""

from __future__ import annotations

from collections.abc import Sequence


def berger_rounds(players: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every round's pairs as (white, black); a player with an odd count's bye
    seat is left out of that round's pairs."""
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    if n < 2:
        return []
    fixed, moving = seats[-1], seats[:-1]
    whites: dict[int, int] = {p: 0 for p in players}
    blacks: dict[int, int] = {p: 0 for p in players}
    schedule: list[list[tuple[int, int]]] = []
    for k in range(n - 1):
        turn = moving[k:] + moving[:k]
        arrangement = [*turn, fixed]
        pairs: list[tuple[int, int]] = []
        for i in range(n // 2):
            a, b = arrangement[i], arrangement[n - 1 - i]
            if a is None or b is None:
                continue
            balance_a = whites[a] - blacks[a]
            balance_b = whites[b] - blacks[b]
            if balance_a < balance_b or (balance_a == balance_b and (k + i) % 2 == 0):
                white, black = a, b
            else:
                white, black = b, a
            whites[white] += 1
            blacks[black] += 1
            pairs.append((white, black))
        schedule.append(pairs)
    return schedule
