"""Who sits out an odd round (pairgoth's rule, taken for OpenGotha 3.52's).

McMahon: the lowest 2 x MMS; Swiss: the lowest rank + 40 x NBW; 1000 more for
each bye already had; among equals the last in name order.  On pairgoth's and
OpenGotha's reference tournaments this picks the bye OpenGotha 3.52 chose every
time, where OpenGotha 3.51's own rule (rank + 2 x MMS) does not.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.tournament.engine.pairing.state import PlayerState


def bye_weight(player: PlayerState, mcmahon: bool) -> int:
    weight = 2 * (player.mms2 // 2) if mcmahon else player.entrant.rank + 40 * (player.nbw2 // 2)
    return weight + 1000 * player.byes


def choose_bye(candidates: Iterable[PlayerState], mcmahon: bool) -> PlayerState:
    ordered = sorted(candidates, key=lambda p: (p.entrant.family_name, p.entrant.given_name))
    if not ordered:
        raise ValueError("nobody to give the bye to")
    best = ordered[0]
    best_weight = bye_weight(best, mcmahon)
    for player in ordered[1:]:
        weight = bye_weight(player, mcmahon)
        if weight <= best_weight:  # ties go to the last in name order
            best, best_weight = player, weight
    return best
