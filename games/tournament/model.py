"""A tournament as frozen values, shared by standings, files and pairing.

Ranks are integers on OpenGotha's ladder: 30k = -30, 1k = -1, 1d = 0, 9d = 8.
Round numbers are 1-based; ``Entrant.presence[r - 1]`` is the player's part in
round r.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class System(StrEnum):
    MCMAHON = "mcmahon"
    SWISS = "swiss"
    SWISS_CAT = "swiss_cat"
    ROUND_ROBIN = "round_robin"


class Presence(StrEnum):
    PLAY = "play"
    ABSENT = "absent"
    BYE = "bye"


class Outcome(StrEnum):
    BLACK = "B"
    WHITE = "W"
    JIGO = "J"
    BOTH_WIN = "BW"
    BOTH_LOSE = "BL"
    UNKNOWN = "?"


@dataclass(frozen=True, slots=True)
class Entrant:
    id: int
    family_name: str
    given_name: str
    rank: int
    rating: int = 0
    club: str = ""
    country: str = ""
    egd_pin: str = ""
    smms_correction: int = 0
    final: bool = True
    presence: tuple[Presence, ...] = ()

    def presence_in(self, round_number: int) -> Presence:
        """The player's part in a round (1-based); rounds not listed are played."""
        if 1 <= round_number <= len(self.presence):
            return self.presence[round_number - 1]
        return Presence.PLAY


@dataclass(frozen=True, slots=True)
class GameRec:
    round: int
    black: int
    white: int
    handicap: int = 0
    outcome: Outcome = Outcome.UNKNOWN
    by_default: bool = False
    table: int = 0


@dataclass(frozen=True, slots=True)
class Settings:
    system: System = System.MCMAHON
    rounds: int = 5
    mm_bar: int = 3
    mm_floor: int = -20
    nbw2_absent: int = 0
    nbw2_bye: int = 2
    mms2_absent: int = 1
    mms2_bye: int = 2
    round_down: bool = True
    criteria: tuple[str, ...] = ("MMS", "SOSM", "SOSOSM")
    category_limits: tuple[int, ...] = ()
    count_not_played_as_half: bool = False
    hd_based_on_mms: bool = True
    hd_no_hd_rank_threshold: int = 0
    hd_correction: int = 1
    hd_ceiling: int = 9


@dataclass(frozen=True, slots=True)
class Event:
    settings: Settings
    entrants: tuple[Entrant, ...]
    games: tuple[GameRec, ...] = ()
    name: str = ""
    pairing: dict[str, str] = field(default_factory=dict)
