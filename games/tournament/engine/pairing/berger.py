"""Round-robin schedules (Berger tables) with balanced colours.

The circle method: the last player stays put, the others turn one place a
round; each of n players (n even, or n + 1 with a bye seat) meets every other
once in n - 1 rounds, and ends with as many Whites as Blacks, give or take one.
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
    schedule: list[list[tuple[int, int]]] = []
    for k in range(n - 1):
        turn = moving[k:] + moving[:k]
        arrangement = [*turn, fixed]
        pairs: list[tuple[int, int]] = []
        for i in range(n // 2):
            a, b = arrangement[i], arrangement[n - 1 - i]
            if a is None or b is None:
                continue
            # The fixed seat changes colour every round; the other tables alternate
            # down the board, which keeps everyone's White-minus-Black within one.
            if i == 0:
                white, black = (b, a) if k % 2 == 0 else (a, b)
            else:
                white, black = (a, b) if i % 2 == 1 else (b, a)
            pairs.append((white, black))
        schedule.append(pairs)
    return schedule
