"""Read OpenGotha's tournament files and per-pair cost dumps for the pairing tests.

A small reader of the parts the pairing reads (players, participation, byes,
games, parameters): the tests compare goref's costs and games with the ones
OpenGotha 3.52 computed for the same history.
"""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from pathlib import Path

from games.tournament.model import Entrant, Event, GameRec, Outcome, Presence, Settings, System
from games.tournament.pairing.params import rank_from_text

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha" / "pairing"

RESULTS = {
    "RESULT_WHITEWINS": Outcome.WHITE,
    "RESULT_BLACKWINS": Outcome.BLACK,
    "RESULT_EQUAL": Outcome.JIGO,
    "RESULT_BOTHWIN": Outcome.BOTH_WIN,
    "RESULT_BOTHLOSE": Outcome.BOTH_LOSE,
    "RESULT_UNKNOWN": Outcome.UNKNOWN,
}


@dataclass(frozen=True)
class Tournament:
    event: Event  # every round, as the file holds it
    names: dict[int, str]  # id -> "Name FirstName", the dumps' spelling

    def before(self, round_number: int) -> Event:
        """The event as it stood when round ``round_number`` was paired."""
        games = tuple(g for g in self.event.games if g.round < round_number)
        return replace(self.event, games=games)

    def games_of(self, round_number: int) -> list[GameRec]:
        return [g for g in self.event.games if g.round == round_number]


def load(name: str) -> Tournament:
    root = ET.parse(DATA / f"{name}.xml").getroot()
    gps = root.find("TournamentParameterSet/GeneralParameterSet")
    hps = root.find("TournamentParameterSet/HandicapParameterSet")
    pps = root.find("TournamentParameterSet/PairingParameterSet")
    assert gps is not None and hps is not None and pps is not None
    rounds = int(gps.attrib["numberOfRounds"])
    byes: dict[str, set[int]] = {}
    for bye in root.iter("ByePlayer"):
        if "player" not in bye.attrib:  # a wrapper element in some hand-edited files
            continue
        byes.setdefault(bye.attrib["player"].upper().replace(" ", ""), set()).add(
            int(bye.attrib["roundNumber"])
        )
    entrants: list[Entrant] = []
    keys: dict[str, int] = {}
    names: dict[int, str] = {}
    for i, p in enumerate(root.iter("Player"), start=1):
        a = p.attrib
        key = (a["name"] + a["firstName"]).upper().replace(" ", "")
        keys[key] = i
        names[i] = f"{a['name']} {a['firstName']}"
        flags = a.get("participating", "1" * rounds)
        presence = []
        for r in range(1, rounds + 1):
            if r in byes.get(key, ()):
                presence.append(Presence.BYE)
            elif r <= len(flags) and flags[r - 1] == "0":
                presence.append(Presence.ABSENT)
            else:
                presence.append(Presence.PLAY)
        entrants.append(
            Entrant(
                id=i,
                family_name=a["name"],
                given_name=a["firstName"],
                rank=rank_from_text(a["rank"]),
                rating=int(a.get("rating", "0")),
                club=a.get("club", ""),
                country=a.get("country", ""),
                smms_correction=int(a.get("smmsCorrection", "0")),
                presence=tuple(presence),
            )
        )
    games = []
    for g in root.iter("Game"):
        a = g.attrib
        result = a["result"]
        by_default = result.endswith("_BYDEF")
        games.append(
            GameRec(
                round=int(a["roundNumber"]),
                black=keys[a["blackPlayer"].upper().replace(" ", "")],
                white=keys[a["whitePlayer"].upper().replace(" ", "")],
                handicap=int(a["handicap"]),
                outcome=RESULTS[result.removesuffix("_BYDEF")],
                by_default=by_default,
                table=int(a["tableNumber"]),
            )
        )
    criteria = tuple(
        c.attrib["name"]
        for c in root.iter("PlacementCriterion")
        if c.attrib["name"] != "NULL" and c.attrib["name"] in _KNOWN
    )
    main = next((c for c in criteria if c in ("MMS", "NBW")), "NBW")
    settings = Settings(
        system=System.MCMAHON if main == "MMS" else System.SWISS,
        rounds=rounds,
        mm_bar=rank_from_text(gps.attrib["genMMBar"]),
        mm_floor=rank_from_text(gps.attrib["genMMFloor"]),
        nbw2_absent=int(gps.attrib.get("genNBW2ValueAbsent", "0")),
        nbw2_bye=int(gps.attrib.get("genNBW2ValueBye", "2")),
        mms2_absent=int(gps.attrib.get("genMMS2ValueAbsent", "1")),
        mms2_bye=int(gps.attrib.get("genMMS2ValueBye", "2")),
        round_down=gps.attrib.get("genRoundDownNBWMMS", "true") == "true",
        criteria=criteria,
        hd_based_on_mms=hps.attrib["hdBasedOnMMS"] == "true",
        hd_no_hd_rank_threshold=rank_from_text(hps.attrib["hdNoHdRankThreshold"]),
        hd_correction=int(hps.attrib["hdCorrection"]),
        hd_ceiling=int(hps.attrib["hdCeiling"]),
    )
    event = Event(
        settings=settings,
        entrants=tuple(entrants),
        games=tuple(games),
        name=gps.attrib.get("name", name),
        pairing=dict(pps.attrib),
    )
    return Tournament(event=event, names=names)


_KNOWN = {"NBW", "MMS", "SOSW", "SOSM", "SOSOSW", "SOSOSM", "Rating", "Rank"}

COST_KEYS = (
    "baseDuplicateGameCost",
    "baseRandomCost",
    "baseBWBalanceCost",
    "mainCategoryCost",
    "mainScoreDiffCost",
    "mainDUDDCost",
    "mainSeedCost",
    "secHandiCost",
    "secGeoCost",
    "totalCost",
)


def dump(name: str, round_number: int) -> list[tuple[str, str, dict[str, int]]]:
    """OpenGotha's dump: (player 1, player 2, costs) for every pair it weighed."""
    path = DATA / f"{name}_weights_R{round_number}.txt.gz"
    lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()
    assert lines[0].strip() == f"Round {round_number}", lines[0]
    out = []
    i = 2
    while i + 11 < len(lines) + 1 and lines[i].startswith("Player1Name="):
        first = lines[i].split("=", 1)[1]
        second = lines[i + 1].split("=", 1)[1]
        values = {}
        for line in lines[i + 2 : i + 12]:
            key, value = line.split("=", 1)
            values[key] = int(value)
        assert tuple(values) == COST_KEYS
        out.append((first, second, values))
        i += 12
    return out


def dumped_rounds(name: str) -> list[int]:
    return sorted(
        int(p.name.split("_R")[-1].split(".")[0]) for p in DATA.glob(f"{name}_weights_R*.txt.gz")
    )
