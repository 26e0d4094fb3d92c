"""OpenGotha's tournament file (XML, as written by OpenGotha 3.4x-3.5x): read and write.

``read`` parses the whole file before returning and raises ``FileFormatError`` naming the
element at fault; nothing half-read escapes.  Attribute names, defaults and key rules are
OpenGotha 3.51's (``ExternalDocument.java``); docs/tournaments.md ("Files") lists them.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import date
from decimal import Decimal, InvalidOperation

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring as safe_fromstring

from games.tournament.engine.formats.opengotha_teams import (
    read_team_settings,
    read_teams,
    write_team_settings,
    write_teams,
)
from games.tournament.engine.formats.text import clean
from games.tournament.engine.model import (
    MAX_RANK,
    MIN_RANK,
    Entrant,
    Event,
    GameRec,
    Outcome,
    Presence,
    Settings,
    System,
)
from games.tournament.engine.standings import criterion
from games.tournament.engine.timesystem import time_system_of

MAX_ROUNDS = 20  # OpenGotha's Gotha.MAX_NUMBER_OF_ROUNDS: the length of "participating"
MIN_RATING, MAX_RATING = -900, 2949

RESULTS: dict[str, tuple[Outcome, bool]] = {
    "RESULT_UNKNOWN": (Outcome.UNKNOWN, False),
    "RESULT_WHITEWINS": (Outcome.WHITE, False),
    "RESULT_BLACKWINS": (Outcome.BLACK, False),
    "RESULT_EQUAL": (Outcome.JIGO, False),
    "RESULT_BOTHWIN": (Outcome.BOTH_WIN, False),
    "RESULT_BOTHLOSE": (Outcome.BOTH_LOSE, False),
    "RESULT_WHITEWINS_BYDEF": (Outcome.WHITE, True),
    "RESULT_BLACKWINS_BYDEF": (Outcome.BLACK, True),
    "RESULT_EQUAL_BYDEF": (Outcome.JIGO, True),
    "RESULT_BOTHWIN_BYDEF": (Outcome.BOTH_WIN, True),
    "RESULT_BOTHLOSE_BYDEF": (Outcome.BOTH_LOSE, True),
}
RESULT_CODES = {v: k for k, v in RESULTS.items()}
RESULT_CODES[(Outcome.UNKNOWN, True)] = "RESULT_UNKNOWN"

# OpenGotha's long criterion names where they differ from goref's canonical upper case.
_CRITERION_NAMES = {"RANK": "Rank", "RATING": "Rating"}
# The time-system attributes of GeneralParameterSet, kept verbatim, with OpenGotha's defaults.
TIME_ATTRIBUTES = {
    "bInternet": "false",
    "basicTime": "60",
    "complementaryTimeSystem": "CANBYOYOMI",
    "stdByoYomiTime": "30",
    "nbMovesCanTime": "15",
    "canByoYomiTime": "300",
    "fischerTime": "10",
}
# Player attributes goref does not use, kept as the file wrote them and written back.
KEPT_PLAYER_ATTRIBUTES = ("ffgLicenceStatus", "agaExpirationDate", "grade", "country")
# Parameter elements goref does not use (display and publishing options), kept whole.
KEPT_ELEMENTS = ("DPParameterSet", "PublishParameterSet")
# What OpenGotha's importer (ExternalDocument.importTournamentParameterSetFromXMLFile)
# reads for a PairingParameterSet attribute the file leaves out; these are not the
# defaults of a new tournament (docs/tournaments.md, "Files").
PAIRING_IMPORT_DEFAULTS = {
    "paiStandardNX1Factor": "0.5",
    "paiBaAvoidDuplGame": "500000000000000",
    "paiBaRandom": "0",
    "paiBaDeterministic": "true",
    "paiBaBalanceWB": "1000",
    "paiMaAvoidMixingCategories": "20000000000000",
    "paiMaMinimizeScoreDifference": "100000000000",
    "paiMaDUDDWeight": "100000000",
    "paiMaCompensateDUDD": "true",
    "paiMaDUDDUpperMode": "MID",
    "paiMaDUDDLowerMode": "MID",
    "paiMaMaximizeSeeding": "5000000",
    "paiMaLastRoundForSeedSystem1": "2",
    "paiMaSeedSystem1": "SPLITANDRANDOM",
    "paiMaSeedSystem2": "SPLITANDFOLD",
    "paiMaAdditionalPlacementCritSystem1": "Rating",
    "paiMaAdditionalPlacementCritSystem2": "NULL",
    "paiSeRankThreshold": "4D",
    "paiSeNbWinsThresholdActive": "true",
    "paiSeBarThresholdActive": "true",
    "paiSeDefSecCrit": "100000000000",
    "paiSeMinimizeHandicap": "0",
    "paiSeAvoidSameGeo": "100000000000",
    "paiSePreferMMSDiffRatherThanSameCountry": "1",
    "paiSePreferMMSDiffRatherThanSameClubsGroup": "2",
    "paiSePreferMMSDiffRatherThanSameClub": "3",
}


class ExportRefused(ValueError):
    """An event OpenGotha cannot hold (more than ``MAX_ROUNDS`` rounds): nothing is written."""


class FileFormatError(ValueError):
    """A tournament file that cannot be read; ``element`` names the element at fault."""

    def __init__(self, message: str, element: str = "") -> None:
        super().__init__(f"{element}: {message}" if element else message)
        self.message = message
        self.element = element


def rank_from_text(text: str) -> int:
    """OpenGotha's rank text ("5K", "2D", "1P", or a bare number of kyu) as a rank index,
    clamped to 30k..9d as OpenGotha does; ValueError when it is not a rank."""
    m = re.fullmatch(r"\s*(\d{1,2})\s*([kKdDpP]?)\s*", text)
    if not m:
        raise ValueError(f"{text!r} is not a rank (write it like 5K or 2D)")
    num, kind = int(m.group(1)), m.group(2).upper()
    if kind == "D":
        rank = num - 1
    elif kind == "P":
        rank = 6 if num <= 3 else 7 if num <= 6 else 8
    else:
        rank = -num
    return max(MIN_RANK, min(MAX_RANK, rank))


def rank_text(rank: int) -> str:
    return f"{rank + 1}D" if rank >= 0 else f"{-rank}K"


def player_key(name: str, first_name: str) -> str:
    """OpenGotha's key: name and first name, spaces removed, upper case."""
    return (name + first_name).replace(" ", "").upper()


def _obsolete_key(text: str) -> str:
    """The key of files before data version 201 (and OpenGotha's fall-back): upper case,
    accents dropped, letters A-Z only."""
    plain = unicodedata.normalize("NFKD", text.upper())
    return re.sub(r"[^A-Z]", "", plain)


# ---- reading ----------------------------------------------------------------------------


def _attr(el: ET.Element, name: str, default: str) -> str:
    value = el.get(name)
    return default if value is None else value


def _int(el: ET.Element, name: str, default: int, where: str) -> int:
    text = el.get(name)
    if text is None:
        return default
    try:
        return int(text.strip())
    except ValueError:
        raise FileFormatError(f"{name}={text!r} is not a whole number", where) from None


def _bool(el: ET.Element, name: str, default: bool, where: str) -> bool:
    text = el.get(name)
    if text is None:
        return default
    if text.strip().lower() in ("true", "false"):
        return text.strip().lower() == "true"
    raise FileFormatError(f"{name}={text!r} is neither true nor false", where)


def _rank(el: ET.Element, name: str, default: str, where: str) -> int:
    text = _attr(el, name, default)
    try:
        return rank_from_text(text)
    except ValueError:
        raise FileFormatError(f"{name}={text!r} is not a rank", where) from None


def _date(el: ET.Element, name: str, where: str) -> date | None:
    text = el.get(name)
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise FileFormatError(f"{name}={text!r} is not a date (yyyy-mm-dd)", where) from None


def _parse(data: bytes) -> ET.Element:
    """The XML tree.  defusedxml refuses entity declarations (the "billion laughs") and
    external entities at the parser, so in whatever encoding the file declares; a plain
    ``<!DOCTYPE Tournament SYSTEM "tournament.dtd">`` (older OpenGotha versions write it)
    is accepted, and the DTD is never fetched."""
    try:
        root: ET.Element = safe_fromstring(data, forbid_dtd=False)
    except DefusedXmlException:
        raise FileFormatError(
            "an entity declaration (DTD internal subset) is not accepted", "Tournament"
        ) from None
    except ET.ParseError as exc:
        raise FileFormatError(f"not well-formed XML ({exc})", "Tournament") from None
    return root


def read(data: bytes) -> Event:
    """Read an OpenGotha tournament file."""
    root = _parse(data)
    if root.tag != "Tournament":
        raise FileFormatError(f"the root element is <{root.tag}>, not <Tournament>", root.tag)
    # OpenGotha 3.51 stopped writing dataVersion (its reader then assumes 200, the format of
    # relative ratings); a file that names the program's version is of the current format.
    versioned = "fullVersionNumber" in root.attrib or "gothaVersion" in root.attrib
    data_version = _int(root, "dataVersion", 201 if versioned else 200, "Tournament")

    shell = _read_parameters(root)
    settings = shell.settings
    entrants, keys, obsolete = _read_players(root, data_version)

    def who(key: str, where: str) -> int:
        found = keys.get(player_key(key, ""))
        if found is None:
            found = obsolete.get(_obsolete_key(key))
        if found is None:
            raise FileFormatError(f"no player has the key {key!r}", where)
        return found

    games: list[GameRec] = []
    busy: set[tuple[int, int]] = set()
    for n, el in enumerate(root.iterfind("Games/Game"), 1):
        where = f"Game {n}"
        rnd = _int(el, "roundNumber", 1, where)
        if not 1 <= rnd <= MAX_ROUNDS:
            raise FileFormatError(f"roundNumber={rnd} is outside 1..{MAX_ROUNDS}", where)
        white = who(_attr(el, "whitePlayer", ""), where)
        black = who(_attr(el, "blackPlayer", ""), where)
        if white == black:
            raise FileFormatError("a player cannot play himself", where)
        for p in (white, black):
            if (p, rnd) in busy:
                raise FileFormatError(f"player {p} has two games in round {rnd}", where)
            busy.add((p, rnd))
        code = _attr(el, "result", "RESULT_UNKNOWN")
        if code not in RESULTS:
            raise FileFormatError(f"result={code!r} is not an OpenGotha result", where)
        outcome, by_default = RESULTS[code]
        handicap = _int(el, "handicap", 0, where)
        if not 0 <= handicap <= 9:
            raise FileFormatError(f"handicap={handicap} is outside 0..9", where)
        games.append(
            GameRec(
                round=rnd,
                black=black,
                white=white,
                handicap=handicap,
                outcome=outcome,
                by_default=by_default,
                table=_int(el, "tableNumber", 1, where),
                known_color=_bool(el, "knownColor", True, where),
            )
        )

    byes: dict[int, int] = {}
    for n, el in enumerate(root.iterfind("ByePlayers/ByePlayer"), 1):
        where = f"ByePlayer {n}"
        rnd = _int(el, "roundNumber", 1, where)
        if not 1 <= rnd <= MAX_ROUNDS:
            raise FileFormatError(f"roundNumber={rnd} is outside 1..{MAX_ROUNDS}", where)
        byes[rnd] = who(_attr(el, "player", ""), where)

    last = max([settings.rounds, *(g.round for g in games), *byes])
    settings = replace(settings, rounds=last)
    by_id = {e.id: e for e in entrants}
    for rnd, pid in byes.items():
        e = by_id[pid]
        presence = list(e.presence) + [Presence.PLAY] * (rnd - len(e.presence))
        presence[rnd - 1] = Presence.BYE
        by_id[pid] = replace(e, presence=tuple(presence))
    entrants = [replace(e, presence=_trim(e.presence[:last])) for e in by_id.values()]

    def lookup(key: str) -> int | None:
        return keys.get(player_key(key, "")) or obsolete.get(_obsolete_key(key))

    return replace(
        shell,
        settings=settings,
        entrants=tuple(entrants),
        games=tuple(games),
        teams=read_teams(root, lookup),
        team_settings=read_team_settings(root),
    )


def _trim(presence: tuple[Presence, ...]) -> tuple[Presence, ...]:
    end = len(presence)
    while end and presence[end - 1] is Presence.PLAY:
        end -= 1
    return presence[:end]


def _read_players(
    root: ET.Element, data_version: int
) -> tuple[list[Entrant], dict[str, int], dict[str, int]]:
    entrants: list[Entrant] = []
    keys: dict[str, int] = {}
    obsolete: dict[str, int] = {}
    for n, el in enumerate(root.iterfind("Players/Player"), 1):
        where = f"Player {n}"
        name, first = _attr(el, "name", ""), _attr(el, "firstName", "")
        if not (name + first).strip():
            raise FileFormatError("the player has no name", where)
        try:
            rank = rank_from_text(_attr(el, "rank", "30K"))
        except ValueError:
            # OpenGotha falls back on the grade when the rank is not readable.
            rank = _rank(el, "grade", "", where)
        rating = _int(el, "rating", MIN_RATING, where)
        if data_version < 201:
            rating += 2050  # ratings were stored relative to 2050 before data version 201
        rating = max(MIN_RATING, min(MAX_RATING, rating))
        participating = _attr(el, "participating", "")
        if participating.strip("01"):
            raise FileFormatError(f"participating={participating!r} is not 0s and 1s", where)
        presence = tuple(Presence.ABSENT if c == "0" else Presence.PLAY for c in participating)
        status = _attr(el, "registeringStatus", "FIN")
        if status not in ("FIN", "PRE"):
            raise FileFormatError(f"registeringStatus={status!r} is neither FIN nor PRE", where)
        key = player_key(name, first)
        if key in keys:
            raise FileFormatError(f"two players share the key {key!r}", where)
        keys[key] = n
        obsolete.setdefault(_obsolete_key(name + first), n)
        entrants.append(
            Entrant(
                id=n,
                family_name=name,
                given_name=first,
                rank=rank,
                rating=rating,
                club=_attr(el, "club", ""),
                country=_attr(el, "country", ""),
                egd_pin=_attr(el, "egfPin", ""),
                smms_correction=_int(el, "smmsCorrection", 0, where),
                final=status == "FIN",
                presence=presence,
                ffg_licence=_attr(el, "ffgLicence", "").strip(),
                aga_id=_attr(el, "agaId", "").strip(),
                rating_origin=_attr(el, "ratingOrigin", ""),
                file_values=tuple(
                    (k, _attr(el, k, "")) for k in KEPT_PLAYER_ATTRIBUTES if _attr(el, k, "")
                ),
            )
        )
    return entrants, keys, obsolete


def _read_parameters(root: ET.Element) -> Event:
    """The event's settings and description, without players or games yet."""
    tps = root.find("TournamentParameterSet")
    gps = tps.find("GeneralParameterSet") if tps is not None else None
    if tps is None or gps is None:
        # OpenGotha keeps its current parameters for such a file; goref starts a McMahon.
        return Event(Settings.defaults(System.MCMAHON, 1), (), ())
    where = "GeneralParameterSet"
    rounds = _int(gps, "numberOfRounds", 5, where)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise FileFormatError(f"numberOfRounds={rounds} is outside 1..{MAX_ROUNDS}", where)
    n_cat = _int(gps, "numberOfCategories", 1, where)
    limits = [0] * max(0, n_cat - 1)
    for el in gps.iter("Category"):
        number = _int(el, "number", 1, "Category")
        if not 1 <= number <= len(limits):
            raise FileFormatError(f"number={number} is outside 1..{len(limits)}", "Category")
        limits[number - 1] = _rank(el, "lowerLimit", "30K", "Category")
    komi_text = _attr(gps, "komi", "7.5")
    try:
        komi = Decimal(komi_text.strip())
    except InvalidOperation:
        raise FileFormatError(f"komi={komi_text!r} is not a number", where) from None
    if not komi.is_finite():
        raise FileFormatError(f"komi={komi_text!r} is not a number", where)

    hps = tps.find("HandicapParameterSet")
    hps = hps if hps is not None else ET.Element("HandicapParameterSet")
    hwhere = "HandicapParameterSet"

    names: dict[int, str] = {}
    for el in tps.iterfind("PlacementParameterSet/PlacementCriteria/PlacementCriterion"):
        number = _int(el, "number", 1, "PlacementCriterion")
        name = _attr(el, "name", "NULL")
        if not 1 <= number <= 6:
            raise FileFormatError(f"number={number} is outside 1..6", "PlacementCriterion")
        if name == "NULL":
            continue
        try:
            names[number] = criterion(name)
        except ValueError:
            raise FileFormatError(
                f"name={name!r} is not an OpenGotha criterion", "PlacementCriterion"
            ) from None
    criteria = tuple(names[k] for k in sorted(names))
    first = criteria[0] if criteria else ""
    system = {"MMS": System.MCMAHON, "CAT": System.SWISS_CAT}.get(first, System.SWISS)

    settings = Settings(
        system=system,
        rounds=rounds,
        mm_bar=_rank(gps, "genMMBar", "4D", where),
        mm_floor=_rank(gps, "genMMFloor", "20K", where),
        nbw2_absent=_int(gps, "genNBW2ValueAbsent", 0, where),
        nbw2_bye=_int(gps, "genNBW2ValueBye", 0, where),
        mms2_absent=_int(gps, "genMMS2ValueAbsent", 0, where),
        mms2_bye=_int(gps, "genMMS2ValueBye", 0, where),
        round_down=_bool(gps, "genRoundDownNBWMMS", True, where),
        criteria=criteria,
        category_limits=tuple(limits),
        count_not_played_as_half=_bool(gps, "genCountNotPlayedGamesAsHalfPoint", False, where),
        hd_based_on_mms=_bool(hps, "hdBasedOnMMS", True, hwhere),
        hd_no_hd_rank_threshold=_rank(hps, "hdNoHdRankThreshold", "1D", hwhere),
        hd_correction=_int(hps, "hdCorrection", 1, hwhere),
        hd_ceiling=_int(hps, "hdCeiling", 9, hwhere),
    )
    pairing_el = tps.find("PairingParameterSet")
    size = _int(gps, "size", 19, where)
    return Event(
        settings,
        (),
        (),
        name=_attr(gps, "name", ""),
        short_name=_attr(gps, "shortName", ""),
        location=_attr(gps, "location", ""),
        director=_attr(gps, "director", ""),
        begin_date=_date(gps, "beginDate", where),
        end_date=_date(gps, "endDate", where),
        komi=komi,
        board_size=size,
        pairing={
            **PAIRING_IMPORT_DEFAULTS,
            **(pairing_el.attrib if pairing_el is not None else {}),
        },
        extra={k: gps.get(k, v) for k, v in TIME_ATTRIBUTES.items()},
        options={
            name: dict(kept.attrib)
            for name in KEPT_ELEMENTS
            if (kept := tps.find(name)) is not None
        },
    )


# ---- writing ----------------------------------------------------------------------------


def write(event: Event) -> bytes:
    """The event as an OpenGotha tournament file (data version 201, as OpenGotha 3.5x)."""
    s = event.settings
    last = max(
        [s.rounds, *(g.round for g in event.games), *(len(e.presence) for e in event.entrants)]
    )
    if last > MAX_ROUNDS:
        raise ExportRefused(
            f"OpenGotha holds at most {MAX_ROUNDS} rounds and this tournament has {last}: "
            "export it as EGF results (.h9), CSV, FFG or AGA results instead"
        )
    root = ET.Element("Tournament", {"dataVersion": "201"})
    written = _distinct_names(event.entrants)
    keys = {eid: player_key(*written[eid]) for eid in written}
    players = ET.SubElement(root, "Players")
    for e in event.entrants:
        name, first = written[e.id]
        kept = dict(e.file_values)
        rounds = MAX_ROUNDS
        participating = "".join(
            "0" if e.presence_in(r) is Presence.ABSENT else "1" for r in range(1, rounds + 1)
        )
        ET.SubElement(
            players,
            "Player",
            {
                "name": name,
                "firstName": first,
                # The file's spelling ("fr", "Fr") while it is still the entry's country.
                "country": clean(
                    kept.get("country", "")
                    if kept.get("country", "").upper()[:2] == e.country.upper()
                    else e.country
                ),
                "club": clean(e.club),
                "egfPin": clean(e.egd_pin),
                "ffgLicence": clean(e.ffg_licence),
                "ffgLicenceStatus": clean(kept.get("ffgLicenceStatus", "")),
                "agaId": clean(e.aga_id),
                "agaExpirationDate": clean(kept.get("agaExpirationDate", "")),
                "rank": rank_text(e.rank),
                "rating": str(e.rating),
                "ratingOrigin": clean(e.rating_origin),
                "grade": clean(kept.get("grade", "")) or rank_text(e.rank),
                "smmsCorrection": str(e.smms_correction),
                "participating": participating,
                "registeringStatus": "FIN" if e.final else "PRE",
            },
        )
    games = ET.SubElement(root, "Games")
    for g, table in _tables(event.games):
        ET.SubElement(
            games,
            "Game",
            {
                "roundNumber": str(g.round),
                "tableNumber": str(table),
                "whitePlayer": keys[g.white],
                "blackPlayer": keys[g.black],
                "knownColor": "true" if g.known_color else "false",
                "handicap": str(g.handicap),
                "result": RESULT_CODES[(g.outcome, g.by_default)],
            },
        )
    byes = ET.SubElement(root, "ByePlayers")
    for e in event.entrants:
        for r, p in enumerate(e.presence, 1):
            if p is Presence.BYE:
                ET.SubElement(byes, "ByePlayer", {"roundNumber": str(r), "player": keys[e.id]})
    write_teams(root, event.teams, keys)
    tps = ET.SubElement(root, "TournamentParameterSet")
    gps = ET.SubElement(
        tps,
        "GeneralParameterSet",
        {
            "shortName": clean(event.short_name),
            "name": clean(event.name),
            "location": clean(event.location),
            "director": clean(event.director),
            "beginDate": event.begin_date.isoformat() if event.begin_date else "",
            "endDate": event.end_date.isoformat() if event.end_date else "",
            "size": str(event.board_size),
            "komi": str(event.komi),
            **_time_attributes(event),
            "numberOfRounds": str(s.rounds),
            "numberOfCategories": str(len(s.category_limits) + 1),
            "genMMFloor": rank_text(s.mm_floor),
            "genMMBar": rank_text(s.mm_bar),
            "genMMZero": "30K",
            "genNBW2ValueAbsent": str(s.nbw2_absent),
            "genNBW2ValueBye": str(s.nbw2_bye),
            "genMMS2ValueAbsent": str(s.mms2_absent),
            "genMMS2ValueBye": str(s.mms2_bye),
            "genRoundDownNBWMMS": _tf(s.round_down),
            "genCountNotPlayedGamesAsHalfPoint": _tf(s.count_not_played_as_half),
        },
    )
    if s.category_limits:
        cats = ET.SubElement(gps, "Categories")
        for c, limit in enumerate(s.category_limits, 1):
            ET.SubElement(cats, "Category", {"number": str(c), "lowerLimit": rank_text(limit)})
    ET.SubElement(
        tps,
        "HandicapParameterSet",
        {
            "hdBasedOnMMS": _tf(s.hd_based_on_mms),
            "hdNoHdRankThreshold": rank_text(s.hd_no_hd_rank_threshold),
            "hdCorrection": str(s.hd_correction),
            "hdCeiling": str(s.hd_ceiling),
        },
    )
    pps = ET.SubElement(ET.SubElement(tps, "PlacementParameterSet"), "PlacementCriteria")
    names = [_CRITERION_NAMES.get(c, c) for c in s.criteria][:6]
    for k in range(6):
        name = names[k] if k < len(names) else "NULL"
        ET.SubElement(pps, "PlacementCriterion", {"number": str(k + 1), "name": name})
    ET.SubElement(tps, "PairingParameterSet", dict(event.pairing))
    for name in KEPT_ELEMENTS:
        if name in event.options:
            ET.SubElement(tps, name, {k: clean(v) for k, v in event.options[name].items()})
    write_team_settings(root, event.team_settings)
    ET.indent(root, space="")
    body = ET.tostring(root, encoding="unicode")
    head = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
    return (head + body + "\n").encode("utf-8")


# Appended to a later homonym's first name: punctuation, so that goref's name key
# (games.people.engine.names.name_key) still finds the same person when the file comes back.
HOMONYM_MARK = "*"


def _distinct_names(entrants: tuple[Entrant, ...]) -> dict[int, tuple[str, str]]:
    """Each entrant's (name, first name) as written, their keys all different.

    OpenGotha refuses a second player whose key another already has (its
    ``Tournament.addPlayer``: "A player named ... already exists"; its import skips him and
    every game naming the key goes to the first), and "Li" "Na" and "Lina" "" share LINA.
    The first keeps his name; each later one gets " *", " **", ... on his first name, the
    shortest mark whose key is nobody's."""
    cleaned = {e.id: (clean(e.family_name), clean(e.given_name)) for e in entrants}
    originals = {player_key(*n) for n in cleaned.values()}
    taken: set[str] = set()
    out: dict[int, tuple[str, str]] = {}
    for e in entrants:
        name, first = cleaned[e.id]
        key = player_key(name, first)
        marks = 0
        while key in taken or (marks and key in originals):
            marks += 1
            key = player_key(name, f"{first} {HOMONYM_MARK * marks}".lstrip())
        if marks:
            first = f"{first} {HOMONYM_MARK * marks}".lstrip()
        taken.add(key)
        out[e.id] = (name, first)
    return out


def _tables(games: tuple[GameRec, ...]) -> list[tuple[GameRec, int]]:
    """Each game with a table number unique in its round: OpenGotha keys a game by round
    and table, so a second game on one table would replace the first."""
    out: list[tuple[GameRec, int]] = []
    used: dict[int, set[int]] = {}
    for g in sorted(games, key=lambda g: (g.round, g.table is None, g.table or 0)):
        taken = used.setdefault(g.round, set())
        table = g.table if g.table is not None and g.table >= 1 else 1
        while table in taken:
            table += 1
        taken.add(table)
        out.append((g, table))
    return out


def _time_attributes(event: Event) -> dict[str, str]:
    """The time system as OpenGotha reads it; none set: OpenGotha's defaults."""
    if not event.extra:
        return dict(TIME_ATTRIBUTES)
    return {**TIME_ATTRIBUTES, **time_system_of(event.extra).opengotha_attributes()}


def _tf(flag: bool) -> str:
    return "true" if flag else "false"
