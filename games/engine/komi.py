"""Komi per game: the even game's komi, or the komi of handicap games, which each
handicap policy sets by convention unless the tournament names one
(docs/tournaments.md, "Komi in handicap games")."""

from __future__ import annotations

from decimal import Decimal

# EGF and OpenGotha: half a point with any handicap (handicap 1 "without komi" keeps the
# half point, so no game is drawn).
HALF_POINT_POLICIES = ("mcmahon", "egf")


def handicap_komi_default(policy: str, preset_handicap_komi: Decimal, handicap: int) -> Decimal:
    """The komi of a game with ``handicap`` (>= 1) stones under ``policy`` when the
    tournament names none: 0.5 under the EGF and McMahon policies; under the New Zealand
    policy none with one stone (New Zealand Rules: Black first, no komi) and the rules
    preset's handicap komi from two (0 under the nz preset); otherwise the preset's."""
    if policy in HALF_POINT_POLICIES:
        return Decimal("0.5")
    if policy == "nz" and handicap == 1:
        return Decimal(0)
    return preset_handicap_komi


def game_komi(handicap: int, *, even: Decimal, with_handicap: Decimal) -> Decimal:
    """The komi of a game with ``handicap`` stones (handicap 1: Black moves first, so
    it is a handicap game too)."""
    return even if handicap == 0 else with_handicap
