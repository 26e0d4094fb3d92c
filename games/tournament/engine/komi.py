"""Komi per game: the even game's komi, or the komi of handicap games, which each
handicap policy sets by convention unless the tournament names one
(docs/tournaments.md, "Komi in handicap games")."""

from __future__ import annotations

from decimal import Decimal

# EGF and OpenGotha: half a point with any handicap (handicap 1 "without komi" keeps the
# half point, so no game is drawn); New Zealand Rules: no komi in a handicap game.
CONVENTIONAL_HANDICAP_KOMI = {
    "mcmahon": Decimal("0.5"),
    "egf": Decimal("0.5"),
    "nz": Decimal(0),
}


def handicap_komi_default(policy: str, preset_handicap_komi: Decimal) -> Decimal:
    """The komi of handicap games under ``policy`` when the tournament names none; a
    policy without a convention ("none") takes the rules preset's."""
    return CONVENTIONAL_HANDICAP_KOMI.get(policy, preset_handicap_komi)


def game_komi(handicap: int, *, even: Decimal, with_handicap: Decimal) -> Decimal:
    """The komi of a game with ``handicap`` stones (handicap 1: Black moves first, so
    it is a handicap game too)."""
    return even if handicap == 0 else with_handicap
