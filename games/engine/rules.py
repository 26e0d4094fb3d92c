"""Rulesets as data: a few orthogonal settings (modelled on KataGo's rules) and eight presets.

Code never asks for a preset by name: behaviour comes from the settings.  Each preset,
its sources and the choices made where they are silent: docs/rules.md, "The presets".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal


class KoRule(enum.Enum):
    """Which repetitions are forbidden (docs/rules.md, "Legality").

    SIMPLE: no immediate single-stone recapture.  POSITIONAL: no earlier board
    again.  SITUATIONAL: no earlier board again with the same player to move.
    """

    SIMPLE = "simple"
    POSITIONAL = "positional"
    SITUATIONAL = "situational"


class Scoring(enum.Enum):
    AREA = "area"  # stones + one-colour regions
    TERRITORY = "territory"  # one-colour regions + prisoners (japanese)
    WGA = "wga"  # territory + own stones + prisoners (WGA 9x9 rules)
    FILL_IN = "fill-in"  # area, counted by fill-in (WMSG 2008 rules, Appendix 1)
    FIRST_CAPTURE = "first-capture"  # the first capture wins (AGA First Capture leaflet)


class Compensation(enum.Enum):
    """Points given to White per handicap stone (only for handicap >= 2)."""

    NONE = "none"
    N = "n"
    N_MINUS_1 = "n-1"


class Placement(enum.StrEnum):
    """Where handicap stones go (``handicap.setup_for`` turns this into a plan)."""

    FIXED = "fixed"  # fixed star points
    FREE = "free"  # anywhere, all before White's first move
    FREE_WHITE_PASSES = "free-white-passes"  # nz: as moves, White passes the first N-1
    NONE = "none"  # no handicap (first-capture)


class UnknownRules(ValueError):
    """A rules name that is not one of the presets."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset.  ``komi`` is for even games, ``handicap_komi`` for handicap >= 2.

    ``seki_territory=False``: the japanese seki rule.  ``white_pass_point``: +1 to White
    if White passed first (wmsg).  ``remove_dead=False``: every stone counts
    (tromp-taylor).  ``cycle_no_result``: a third repetition is void.  docs/rules.md.
    """

    name: str
    scoring: Scoring
    ko: KoRule
    suicide: bool
    komi: Decimal
    handicap_komi: Decimal
    compensation: Compensation = Compensation.NONE
    placement: Placement = Placement.FREE
    seki_territory: bool = True
    white_pass_point: bool = False
    integer_komi: bool = False
    remove_dead: bool = True
    cycle_no_result: bool = False

    def komi_for(self, handicap: int) -> Decimal:
        """The preset komi for a game with ``handicap`` stones (HA 1 is not a handicap)."""
        return self.handicap_komi if handicap >= 2 else self.komi

    def compensation_for(self, handicap: int) -> int:
        """Points given to White for ``handicap`` stones under this ruleset."""
        if handicap < 2 or self.compensation is Compensation.NONE:
            return 0
        if self.compensation is Compensation.N:
            return handicap
        return handicap - 1


def jigo_possible(komi: Decimal) -> bool:
    """A count can end level only with a whole-number komi: stones and points are whole."""
    return komi % 1 == 0


D = Decimal

PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        # Positional superko (OGS/KataGo chinese-ogs); GNU Go adds N as well.
        Rules(
            "chinese",
            Scoring.AREA,
            KoRule.POSITIONAL,
            False,
            D("7.5"),
            D("0.5"),
            Compensation.N,
            Placement.FREE,
        ),
        # "0.5 or 0 in handicap games": 0.5 chosen.  Seki eyes count nothing;
        # unbreakable cycles (triple ko, eternal life) are no result.
        Rules(
            "japanese",
            Scoring.TERRITORY,
            KoRule.SIMPLE,
            False,
            D("6.5"),
            D("0.5"),
            Compensation.NONE,
            Placement.FIXED,
            seki_territory=False,
            cycle_no_result=True,
        ),
        # Integer komi (jigo exists); no komi in handicap games; free placement
        # as moves, White passing the first N-1 times.
        Rules(
            "nz",
            Scoring.AREA,
            KoRule.SITUATIONAL,
            True,
            D("7"),
            D("0"),
            Compensation.NONE,
            Placement.FREE_WHITE_PASSES,
            integer_komi=True,
        ),
        Rules(
            "aga",
            Scoring.AREA,
            KoRule.SITUATIONAL,
            False,
            D("7.5"),
            D("0.5"),
            Compensation.N_MINUS_1,
            Placement.FIXED,
        ),
        # Appendix 1 gives no handicap komi, compensation or placement: project
        # choice 0.5 komi, no compensation, free placement.
        Rules(
            "wmsg",
            Scoring.FILL_IN,
            KoRule.POSITIONAL,
            False,
            D("6.5"),
            D("0.5"),
            Compensation.NONE,
            Placement.FREE,
            white_pass_point=True,
        ),
        # The WGA 9x9 rules state komi 7 only; handicap komi project choice 0.5.
        Rules(
            "wga",
            Scoring.WGA,
            KoRule.SIMPLE,
            False,
            D("7"),
            D("0.5"),
            Compensation.NONE,
            Placement.FIXED,
        ),
        # AGA First Capture leaflet: self-capture may be played (and loses); ko is moot.
        Rules(
            "first-capture",
            Scoring.FIRST_CAPTURE,
            KoRule.SIMPLE,
            True,
            D("0"),
            D("0"),
            Compensation.NONE,
            Placement.NONE,
        ),
        # KataGo's preset komi 7.5; handicap komi project choice 0.5.
        Rules(
            "tromp-taylor",
            Scoring.AREA,
            KoRule.POSITIONAL,
            True,
            D("7.5"),
            D("0.5"),
            Compensation.NONE,
            Placement.FREE,
            remove_dead=False,
        ),
    )
}


def get_rules(name: str) -> Rules:
    """The preset named ``name`` (case-insensitive; ``_`` and ``-`` alike)."""
    key = name.strip().lower().replace("_", "-")
    try:
        return PRESETS[key]
    except KeyError:
        valid = ", ".join(PRESETS)
        raise UnknownRules(f"unknown rules {name!r}: expected one of {valid}") from None
