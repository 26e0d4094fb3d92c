"""OpenGotha's pairing parameters, with its names and its defaults per system.

Each field carries the ``PairingParameterSet`` XML attribute it comes from
(OpenGotha 3.52); ``from_opengotha`` and ``to_opengotha`` read and write that
attribute dictionary verbatim, so a tournament imported from OpenGotha pairs with
exactly the parameters its director set there.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from games.tournament.engine.formats.opengotha import rank_from_text, rank_text
from games.tournament.engine.model import System

SEED_SYSTEMS = ("SPLITANDRANDOM", "SPLITANDFOLD", "SPLITANDSLIP")
DUDD_MODES = ("TOP", "MID", "BOT")


@dataclass(frozen=True, slots=True)
class PairingParams:
    """One tournament's pairing parameters (OpenGotha ``PairingParameterSet``).

    Weights are integers as in OpenGotha; ``last_round_for_seed_system1`` is
    1-based as the XML stores it; ranks are integers (1d = 0).
    """

    nx1_factor: float = 0.5
    avoid_dupl_game: int = 500_000_000_000_000
    random: int = 0
    deterministic: bool = True
    balance_wb: int = 1_000_000
    avoid_mixing_categories: int = 0
    minimize_score_difference: int = 100_000_000_000
    dudd_weight: int = 100_000_000
    compensate_dudd: bool = True
    dudd_upper_mode: str = "MID"
    dudd_lower_mode: str = "MID"
    maximize_seeding: int = 5_000_000
    last_round_for_seed_system1: int = 2
    seed_system1: str = "SPLITANDRANDOM"
    seed_system2: str = "SPLITANDSLIP"
    additional_placement_crit_system1: str = "Rating"
    additional_placement_crit_system2: str = "NULL"
    bar_threshold_active: bool = True
    rank_threshold: int = 0
    nb_wins_threshold_active: bool = False
    def_sec_crit: int = 100_000_000_000
    minimize_handicap: int = 0
    avoid_same_geo: int = 100_000_000_000
    prefer_mms_diff_rather_than_same_country: int = 1
    prefer_mms_diff_rather_than_same_clubs_group: int = 2
    prefer_mms_diff_rather_than_same_club: int = 3

    def __post_init__(self) -> None:
        for name in ("seed_system1", "seed_system2"):
            if getattr(self, name) not in SEED_SYSTEMS:
                raise ValueError(f"{name} must be one of {', '.join(SEED_SYSTEMS)}")
        for name in ("dudd_upper_mode", "dudd_lower_mode"):
            if getattr(self, name) not in DUDD_MODES:
                raise ValueError(f"{name} must be one of {', '.join(DUDD_MODES)}")
        if not 0.0 <= self.nx1_factor <= 1.0:
            raise ValueError("nx1_factor must lie between 0 and 1")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{f.name} must be a whole number")
            if f.type == "int" and value < 0 and f.name != "rank_threshold":
                raise ValueError(f"{f.name} must not be negative")

    @classmethod
    def for_system(cls, system: System | str) -> PairingParams:
        """OpenGotha's defaults: ``initForMM``, ``initForSwiss``, ``initForSwissCat``."""
        system = System(system)
        if system is System.MCMAHON:
            return cls()
        if system is System.SWISS_CAT:
            return cls(
                avoid_mixing_categories=20_000_000_000_000,
                seed_system1="SPLITANDRANDOM",
                seed_system2="SPLITANDFOLD",
                nb_wins_threshold_active=True,
                def_sec_crit=20_000_000_000_000,
                minimize_handicap=20_000_000_000_000,
                avoid_same_geo=20_000_000_000_000,
            )
        # Swiss; a round robin has no pairing weights, Swiss is the closest set.
        return cls(
            seed_system1="SPLITANDSLIP",
            seed_system2="SPLITANDSLIP",
            additional_placement_crit_system2="Rating",
            rank_threshold=-30,
            nb_wins_threshold_active=True,
            def_sec_crit=20_000_000_000_000,
            avoid_same_geo=0,
            prefer_mms_diff_rather_than_same_country=0,
            prefer_mms_diff_rather_than_same_clubs_group=0,
            prefer_mms_diff_rather_than_same_club=0,
        )

    @classmethod
    def from_opengotha(
        cls, attributes: dict[str, str], system: System | str = System.MCMAHON
    ) -> PairingParams:
        """Parameters from a ``PairingParameterSet`` element's attributes.

        Attributes left out keep the system's defaults; a value that cannot be
        read raises ``ValueError`` naming the attribute.
        """
        base = cls.for_system(system)
        changes: dict[str, Any] = {}
        for name, xml in XML_NAMES.items():
            if xml not in attributes:
                continue
            text = attributes[xml].strip()
            try:
                changes[name] = _parse(name, text, type(getattr(base, name)))
            except ValueError as error:
                raise ValueError(f"PairingParameterSet {xml}={text!r}: {error}") from None
        try:
            return replace(base, **changes)
        except ValueError as error:
            raise ValueError(f"PairingParameterSet: {error}") from None

    def to_opengotha(self) -> dict[str, str]:
        """The attributes of OpenGotha's ``PairingParameterSet`` element."""
        out: dict[str, str] = {}
        for name, xml in XML_NAMES.items():
            value = getattr(self, name)
            if name == "rank_threshold":
                out[xml] = rank_text(value)
            elif isinstance(value, bool):
                out[xml] = "true" if value else "false"
            else:
                out[xml] = str(value)
        return out

    def seed_system(self, round_number: int) -> str:
        return (
            self.seed_system1
            if round_number <= self.last_round_for_seed_system1
            else self.seed_system2
        )

    def additional_criterion(self, round_number: int) -> str:
        """OpenGotha's in-group extra criterion: "Rating" or nothing ("NULL").

        OpenGotha matches the name exactly and falls back to Rating for system 1
        and to none for system 2 when it does not know it.
        """
        if round_number <= self.last_round_for_seed_system1:
            crit, fallback = self.additional_placement_crit_system1, "Rating"
        else:
            crit, fallback = self.additional_placement_crit_system2, "NULL"
        return crit if crit in KNOWN_ADDITIONAL else fallback


KNOWN_ADDITIONAL = ("Rating", "NULL", "Rank")

XML_NAMES: dict[str, str] = {
    "nx1_factor": "paiStandardNX1Factor",
    "avoid_dupl_game": "paiBaAvoidDuplGame",
    "random": "paiBaRandom",
    "deterministic": "paiBaDeterministic",
    "balance_wb": "paiBaBalanceWB",
    "avoid_mixing_categories": "paiMaAvoidMixingCategories",
    "minimize_score_difference": "paiMaMinimizeScoreDifference",
    "dudd_weight": "paiMaDUDDWeight",
    "compensate_dudd": "paiMaCompensateDUDD",
    "dudd_upper_mode": "paiMaDUDDUpperMode",
    "dudd_lower_mode": "paiMaDUDDLowerMode",
    "maximize_seeding": "paiMaMaximizeSeeding",
    "last_round_for_seed_system1": "paiMaLastRoundForSeedSystem1",
    "seed_system1": "paiMaSeedSystem1",
    "seed_system2": "paiMaSeedSystem2",
    "additional_placement_crit_system1": "paiMaAdditionalPlacementCritSystem1",
    "additional_placement_crit_system2": "paiMaAdditionalPlacementCritSystem2",
    "bar_threshold_active": "paiSeBarThresholdActive",
    "rank_threshold": "paiSeRankThreshold",
    "nb_wins_threshold_active": "paiSeNbWinsThresholdActive",
    "def_sec_crit": "paiSeDefSecCrit",
    "minimize_handicap": "paiSeMinimizeHandicap",
    "avoid_same_geo": "paiSeAvoidSameGeo",
    "prefer_mms_diff_rather_than_same_country": "paiSePreferMMSDiffRatherThanSameCountry",
    "prefer_mms_diff_rather_than_same_clubs_group": "paiSePreferMMSDiffRatherThanSameClubsGroup",
    "prefer_mms_diff_rather_than_same_club": "paiSePreferMMSDiffRatherThanSameClub",
}


def _parse(name: str, text: str, kind: type) -> object:
    if name.startswith("seed_system") and text not in SEED_SYSTEMS:
        raise ValueError(f"expected one of {', '.join(SEED_SYSTEMS)}")
    if name.startswith("dudd_") and name.endswith("_mode") and text not in DUDD_MODES:
        raise ValueError(f"expected one of {', '.join(DUDD_MODES)}")
    if name == "rank_threshold":
        return rank_from_text(text)
    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise ValueError("expected true or false")
        return text.lower() == "true"
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("expected a whole number") from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise ValueError("expected a number") from None
    return text
