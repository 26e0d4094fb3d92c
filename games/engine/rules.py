"""Rulesets as data: a handful of orthogonal settings plus named presets.

Modelled on KataGo's rules (ko rule, scoring rule, seki tax, suicide, handicap
compensation, komi).  The presets follow ``../shared/reference/rules.md``
("Presets" table) exactly; where that table says a value is "not specified"
or "not stated", the choice made here is written next to the preset.  Code
never asks for a preset by name: behaviour comes from the settings.

Tromp-Taylor is modelled as ``Scoring.AREA`` with ``remove_dead=False``: it
*is* area scoring, only with every stone on the board counted alive.  Scoring
refuses a dead-stone list under such rules (see ``scoring.DeadStoneError``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal


class KoRule(enum.Enum):
    """Which repetitions are forbidden.

    SIMPLE: no immediate recapture of a single stone that recreates the
    previous position.  POSITIONAL: no move may recreate an earlier board.
    SITUATIONAL: no move may recreate an earlier board with the same player
    to move (seed 002: "a player may not recreate a position that occurred
    previously with the same player to move").
    """

    SIMPLE = "simple"
    POSITIONAL = "positional"
    SITUATIONAL = "situational"


class Scoring(enum.Enum):
    AREA = "area"  # stones + one-colour regions (rules.md (a))
    TERRITORY = "territory"  # one-colour regions + prisoners (japanese)
    WGA = "wga"  # territory + own stones + prisoners (seed 000)
    FILL_IN = "fill-in"  # area, counted by WMSG fill-in (seed 003, rules.md (b))
    FIRST_CAPTURE = "first-capture"  # the first capture wins (seed 004)


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

    ``seki_territory=False`` gives the japanese seki rule: the eyes and
    territory of chains in seki count nothing (``scoring._seki_excluded``
    defines seki points; open dame cost nothing).  ``white_pass_point`` gives White one point if White made the
    first pass of the game (WMSG, seed 003).  ``remove_dead=False`` means every
    stone on the board counts (tromp-taylor).  ``cycle_no_result`` makes a
    game void when a whole-board position recurs a third time with the same
    player to move (japanese: triple ko, eternal life; see ``replay``).
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
        # Seed 000 states komi 7 only; handicap komi project choice 0.5.
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
        # Seed 004: self-capture may be played (and loses); simple ko is moot.
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
