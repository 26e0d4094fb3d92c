"""Colours and handicap of a pair (OpenGotha 3.52, ``Tournament.gameBetween``),
and OpenGotha's deterministic random.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.tournament.engine.model import Settings


def det_random(maximum: int, name1: str, name2: str) -> int:
    """OpenGotha's deterministic random in 0..maximum for the ordered pair.

    The two names (family name + given name) are put in Java string order and
    concatenated; the sum of each UTF-16 unit times its 1-based position,
    times 1234567, modulo maximum + 1, mirrored when the pair came in the other
    order.  So ``det_random(m, a, b) == m - det_random(m, b, a)`` for a != b.
    """
    inverse = _java_compare(name1, name2) > 0
    s = name2 + name1 if inverse else name1 + name2
    units = s.encode("utf-16-le")
    total = 0
    for i in range(0, len(units), 2):
        total += (units[i] | units[i + 1] << 8) * (i // 2 + 1)
    value = (total * 1234567) % (maximum + 1)
    return maximum - value if inverse else value


def _java_compare(a: str, b: str) -> int:
    """``String.compareTo``: by UTF-16 code units."""
    ua, ub = a.encode("utf-16-be"), b.encode("utf-16-be")
    return (ua > ub) - (ua < ub)


@dataclass(frozen=True, slots=True)
class Colours:
    """A pair's game: who is White, who is Black, with how many stones."""

    white: int
    black: int
    handicap: int


def handicap_between(pseudo1: int, pseudo2: int, settings: Settings) -> int:
    """Signed handicap: > 0 when player 1 gives stones (is White), < 0 for player 2.

    Pseudo ranks above the no-handicap threshold count as the threshold; the
    difference moves toward 0 by the correction without crossing it, then is
    held within the ceiling.
    """
    threshold = settings.hd_no_hd_rank_threshold
    hd = min(pseudo1, threshold) - min(pseudo2, threshold)
    correction = settings.hd_correction
    if hd > 0:
        hd = max(hd - correction, 0)
    elif hd < 0:
        hd = min(hd + correction, 0)
    ceiling = settings.hd_ceiling
    return max(-ceiling, min(ceiling, hd))


def pseudo_rank(rank: int, mms2: int, settings: Settings) -> int:
    """The rank the handicap reads: the declared rank, or ⌊MMS⌋ on the rank scale."""
    return mms2 // 2 - 30 if settings.hd_based_on_mms else rank


def colours(
    p1: int, p2: int, signed_hd: int, wb1: int, wb2: int, name1: str, name2: str
) -> Colours:
    """Who takes White: the giver of a handicap; in an even game the player with
    the smaller White-minus-Black balance; equal balances by the deterministic
    random (antisymmetric, so the order of the pair does not matter)."""
    if signed_hd > 0:
        return Colours(white=p1, black=p2, handicap=signed_hd)
    if signed_hd < 0:
        return Colours(white=p2, black=p1, handicap=-signed_hd)
    if wb1 > wb2:
        return Colours(white=p2, black=p1, handicap=0)
    if wb1 < wb2:
        return Colours(white=p1, black=p2, handicap=0)
    if det_random(1, name1, name2) == 0:
        return Colours(white=p1, black=p2, handicap=0)
    return Colours(white=p2, black=p1, handicap=0)
