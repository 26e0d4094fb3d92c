"""The tournament data model: what the standings, the pairing and the file formats share.

Values follow OpenGotha's conventions so that its files and definitions carry over unchanged:
ranks are OpenGotha's integer index (30k = -30, 1k = -1, 1d = 0, 9d = 8) and the points of
absent and bye rounds are stored doubled, as OpenGotha 3.5x's ``GeneralParameterSet`` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum

MIN_RANK = -30  # 30 kyu
MAX_RANK = 8  # 9 dan
MM_ZERO = -30  # OpenGotha's genMMZero: the rank whose McMahon start score is 0 (30 kyu)


class System(StrEnum):
    MCMAHON = "mcmahon"
    SWISS = "swiss"
    SWISS_CAT = "swiss_cat"
    ROUND_ROBIN = "round_robin"
    CUP = "cup"  # single elimination: engine/cup.py


class Presence(StrEnum):
    """A player's declared participation in one round."""

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
    """A registered player, with what stands for the whole event.

    ``presence[r - 1]`` is the declared participation in round r; rounds past the tuple are
    played.  ``final`` is OpenGotha's registering status (FIN, else PRE).
    """

    id: int
    family_name: str
    given_name: str
    rank: int
    rating: int
    club: str = ""
    country: str = ""
    egd_pin: str = ""
    smms_correction: int = 0
    final: bool = True
    presence: tuple[Presence, ...] = ()
    ffg_licence: str = ""
    aga_id: str = ""
    rating_origin: str = ""  # OpenGotha's ratingOrigin ("EGF", "FFG", "AGA", "INI", ...)
    table_pin: int | None = None  # the table he plays at in every round (a director's pin)
    pair: bool = False  # a pair go pair or rengo team playing as one
    # What the file gave that goref does not use, by OpenGotha's attribute name
    # (ffgLicenceStatus, agaExpirationDate, grade, country as written): written back.
    file_values: tuple[tuple[str, str], ...] = ()

    def presence_in(self, round: int) -> Presence:
        if 1 <= round <= len(self.presence):
            return self.presence[round - 1]
        return Presence.PLAY

    @property
    def key(self) -> str:
        """OpenGotha's player key: name and first name, spaces removed, upper case."""
        return (self.family_name + self.given_name).replace(" ", "").upper()


@dataclass(frozen=True, slots=True)
class GameRec:
    """One game of one round; ``black`` and ``white`` are entrant ids."""

    round: int
    black: int
    white: int
    handicap: int = 0
    outcome: Outcome = Outcome.UNKNOWN
    by_default: bool = False
    table: int | None = None
    known_color: bool = True  # False when the colours were not recorded (OpenGotha's knownColor)

    def points2(self, entrant_id: int) -> int:
        """Twice the game points this game gives the player (win 2, jigo 1, else 0)."""
        o = self.outcome
        if o is Outcome.BOTH_WIN:
            return 2
        if o is Outcome.JIGO:
            return 1
        if o is Outcome.BLACK:
            return 2 if entrant_id == self.black else 0
        if o is Outcome.WHITE:
            return 2 if entrant_id == self.white else 0
        return 0

    def opponent(self, entrant_id: int) -> int:
        return self.white if entrant_id == self.black else self.black


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What the standings and the pairing need to know about an event (OpenGotha's
    GeneralParameterSet, HandicapParameterSet and PlacementParameterSet).

    Absent and bye points are doubled (``nbw2_bye = 2`` is one win).  ``category_limits``
    are OpenGotha's lower category limits: category 1 holds ranks >= limits[0], category 2
    ranks >= limits[1], and so on; no limits means one category.
    """

    system: System
    rounds: int
    mm_bar: int
    mm_floor: int
    nbw2_absent: int
    nbw2_bye: int
    mms2_absent: int
    mms2_bye: int
    round_down: bool = True
    criteria: tuple[str, ...]
    category_limits: tuple[int, ...] = ()
    count_not_played_as_half: bool = False
    hd_based_on_mms: bool = True
    hd_no_hd_rank_threshold: int = 0
    hd_correction: int = 1
    hd_ceiling: int = 9
    cps2_absent: int = 0
    cps2_bye: int = 0

    @classmethod
    def defaults(cls, system: System, rounds: int) -> Settings:
        """OpenGotha's defaults for a new tournament of this system (``initForMM``,
        ``initForSwiss``, ``initForSwissCat``); a round robin takes the Swiss ones."""
        if system is System.MCMAHON:
            return cls(
                system=system,
                rounds=rounds,
                mm_bar=3,  # 4d
                mm_floor=-20,  # 20k
                nbw2_absent=0,
                nbw2_bye=2,
                mms2_absent=1,
                mms2_bye=2,
                criteria=("MMS", "SOSM", "SOSOSM"),
                hd_based_on_mms=True,
                hd_no_hd_rank_threshold=0,  # 1d
                hd_correction=1,
                hd_ceiling=9,
            )
        if system is System.SWISS_CAT:
            return cls(
                system=system,
                rounds=rounds,
                mm_bar=8,
                mm_floor=-30,
                nbw2_absent=0,
                nbw2_bye=2,
                mms2_absent=1,
                mms2_bye=2,
                criteria=("CAT", "NBW", "EXT", "EXR"),
                category_limits=(0, -5),  # 1d and up, 5k to 1k, the rest
                hd_based_on_mms=True,
                hd_no_hd_rank_threshold=8,  # 9d
                hd_correction=1,
                hd_ceiling=9,
            )
        return cls(
            system=system,
            rounds=rounds,
            mm_bar=8,
            mm_floor=-30,
            nbw2_absent=0,
            nbw2_bye=2,
            mms2_absent=1,
            mms2_bye=2,
            criteria=("NBW", "SOSW", "SOSOSW"),
            hd_based_on_mms=False,
            hd_no_hd_rank_threshold=-30,  # 30k
            hd_correction=0,
            hd_ceiling=0,
        )

    def smms(self, entrant: Entrant) -> int:
        """McMahon start score: rank clamped to floor and bar, counted from 30k, plus the
        entrant's correction (OpenGotha 3.5x, ``Player.smms``)."""
        rank = min(max(entrant.rank, self.mm_floor), self.mm_bar)
        return rank - MM_ZERO + entrant.smms_correction

    def category(self, rank: int) -> int:
        """0-based category of a rank (0 = strongest)."""
        for c, limit in enumerate(self.category_limits):
            if rank >= limit:
                return c
        return len(self.category_limits)


@dataclass(frozen=True)
class Cup:
    """A cup's draw (``engine/cup.py``): ``seeds``, entrant ids, the best first, and
    ``through``: for a game without a winner (jigo, both win, both lose), who the director
    sent through, keyed by ``(round, lower id, higher id)``."""

    seeds: tuple[int, ...]
    third_place: bool = False
    consolation: bool = False
    through: Mapping[tuple[int, int, int], int] = field(default_factory=dict)


# A new team event's placement criteria: OpenGotha's TeamPlacementParameterSet.init().
DEFAULT_TEAM_CRITERIA = ("TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR")


@dataclass(frozen=True)
class Team:
    """``number`` as OpenGotha shows and writes it (from 1); ``boards``: (round, board) ->
    entrant id, both from 1."""

    number: int
    name: str
    boards: Mapping[tuple[int, int], int] = field(default_factory=dict)

    def member(self, round_number: int, board: int) -> int | None:
        return self.boards.get((round_number, board))

    def members(self, round_number: int) -> set[int]:
        return {p for (r, _b), p in self.boards.items() if r == round_number}


@dataclass(frozen=True)
class TeamSettings:
    """OpenGotha's ``TeamGeneralParameterSet.teamSize`` and the six placement slots; a
    file without team parameters gets six NULL criteria (OpenGotha's reading)."""

    size: int = 4
    criteria: tuple[str, ...] = DEFAULT_TEAM_CRITERIA


@dataclass(frozen=True)
class Event:
    """A whole tournament: settings, entrants and games, plus what its file carries.

    ``pairing`` holds OpenGotha's PairingParameterSet attributes verbatim and ``extra``
    other file attributes (time system, etc.) kept for a faithful round trip.
    """

    settings: Settings
    entrants: tuple[Entrant, ...]
    games: tuple[GameRec, ...]
    name: str = ""
    short_name: str = ""
    location: str = ""
    director: str = ""
    begin_date: date | None = None
    end_date: date | None = None
    komi: Decimal = Decimal("7.5")
    board_size: int = 19
    pairing: dict[str, str] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)
    egf_class: str = ""  # the class the file states (an .h9's CL[...]); "" when it states none
    cup: Cup | None = None  # a cup's seeds and options (System.CUP)
    teams: tuple[Team, ...] = ()  # a team event's teams and line-ups (engine/teams.py)
    team_settings: TeamSettings | None = None  # None: the event has no team parameters
    # Elements kept for the round trip, by name: OpenGotha's DPParameterSet and
    # PublishParameterSet (display and publishing options), attribute by attribute.
    options: dict[str, dict[str, str]] = field(default_factory=dict)

    def entrant(self, entrant_id: int) -> Entrant:
        for e in self.entrants:
            if e.id == entrant_id:
                return e
        raise KeyError(entrant_id)
