"""Pairing a round as OpenGotha 3.52 does: McMahon, Swiss, Swiss with categories,
and round robin (Berger tables).

Standard library plus rustworkx (a compiled matching); no Django.  The cost of a
pair, the bye, colours, handicaps and tables: docs/tournaments.md, "Pairing".
"""

from games.tournament.engine.pairing.pair import (
    UNSET,
    PairCost,
    PairedGame,
    Pairing,
    PairingError,
    pair_round,
)
from games.tournament.engine.pairing.params import PairingParams
from games.tournament.engine.pairing.weights import COST_NAMES

__all__ = [
    "COST_NAMES",
    "UNSET",
    "PairCost",
    "PairedGame",
    "Pairing",
    "PairingError",
    "PairingParams",
    "pair_round",
]
