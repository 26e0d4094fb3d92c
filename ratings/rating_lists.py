"""The federations' published rating lists, read from their text files (docs/ratings.md,
"Rating lists"): the EGD's all-world list (``allworld_lp``), the FFG's échelle
(``ech_ffg_V3.txt``) and the AGA's TDList (``tdlista.txt``), recognised from the content.

Standard library only, and the federation ids (pure).  ``read`` returns the publication date and one ``ListedPlayer`` per
line it can read; a line it cannot read is counted, never fatal (real lists carry a few).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime

from games.people.engine.federation_ids import AGA_ID, EGD_PIN, FFG_LICENCE
from ratings.ranks import MAX_INDEX, MIN_INDEX, Rank, RankError

EGD, FFG, AGA = "egd", "ffg", "aga"
# The player id each list's rows carry.
ID_OF = {EGD: EGD_PIN, FFG: FFG_LICENCE, AGA: AGA_ID}
SOURCES = (EGD, FFG, AGA)
FFG_NO_RATING = -9999  # the échelle's "no rating yet"
FFG_TO_GOR = 2050  # an échelle value of 0 is the 1k/1d boundary, 2050 on the GoR scale


class ListFormatError(ValueError):
    """Not a rating list goref reads."""


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    federation_id: str  # EGD PIN, FFG licence or AGA id
    family_name: str
    given_name: str
    rank: int | None  # ladder index (1d = 0), None when the list gives none
    rating: int | None  # on the GoR scale (EGD, FFG); None for the AGA, whose scale differs
    list_rating: str  # the rating as the list prints it
    club: str
    country: str
    raw: str = ""  # the list's line as read, kept beside what goref made of it


@dataclass(frozen=True)
class RatingListFile:
    source: str
    published: date
    players: list[ListedPlayer]
    unreadable: int


# The EGD's fixed layout, e.g.
#   "  19574643  Abad Jahin                            FR  38GJ   20k   --     15     2  T200202B"
_EGD_LINE = re.compile(
    r"\s*(?P<pin>\d{8})\s+(?P<name>.+?)\s+(?P<country>[A-Z]{2})\s+(?P<club>\S{1,4})\s+"
    r"(?P<rank>\d{1,2}[kdp])\s+(?P<promo>\S+)\s+(?P<rating>-?\d+)\s+(?P<nt>\d+)\s+(?P<last>\S+)"
)
_EGD_DATE = re.compile(r"^\s*\((\d{1,2} [A-Za-z]{3} \d{4})\)\s*$")
# FFG: "ABAD Jahin                            -3000 - 2000205 38GJ FR"
_FFG_LINE = re.compile(
    r"(?P<name>.+?)\s+(?P<rating>-?\d+)\s(?P<status>[-eCLX])\s(?P<licence>[0-9A-Z]{7}|-{7})\s"
    r"(?P<club>\S{4})\s(?P<country>[A-Z]{2})\s*"
)
_FFG_DATE = re.compile(r"#Echelle au (\d{1,2})/(\d{1,2})/(\d{4})")


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # the FFG's échelle is ISO-8859-1


def detect(text: str) -> str:
    head = text[:4000]
    if head.lstrip("\ufeff").startswith("#Echelle"):
        return FFG
    first = head.lstrip("\ufeff").splitlines()[0] if head.strip() else ""
    if first.count("\t") >= 4:
        return AGA
    if any(_EGD_DATE.match(line) for line in head.splitlines()[:20]):
        return EGD
    raise ListFormatError(
        "Not a rating list goref reads: expected the EGD's allworld list, the FFG's échelle "
        "or the AGA's TDList."
    )


def read(data: bytes, *, today: date | None = None) -> RatingListFile:
    text = _text(data)
    source = detect(text)
    lines = text.splitlines()
    if source == EGD:
        published, rows = _egd(lines)
    elif source == FFG:
        published, rows = _ffg(lines)
    else:
        published, rows = (today or date.today()), _aga(lines)
    players: list[ListedPlayer] = []
    bad = 0
    for row in rows:
        if row is None:
            bad += 1
        else:
            players.append(row)
    if not players:
        raise ListFormatError(f"No player could be read from this {source.upper()} list.")
    return RatingListFile(source, published, players, bad)


def _split_name(name: str) -> tuple[str, str]:
    parts = name.split(None, 1)
    return (parts[0], parts[1] if len(parts) > 1 else "")


def _egd_name(name: str) -> tuple[str, str]:
    """Family and given name as people write them: the EGD's fixed layout joins the words
    of one name with underscores ("Chung Siu_Hong" is Chung, Siu Hong)."""
    family, given = _split_name(name)
    return family.replace("_", " ").strip(), " ".join(given.replace("_", " ").split())


# An FFG échelle line may carry a club code after the given name: "DUPONT Alain(78Ra)".
_FFG_CLUB_IN_NAME = re.compile(r"^(?P<given>.*?)\s*\((?P<club>[0-9A-Za-z]{2,4})\)$")


def _ffg_name(name: str) -> tuple[str, str, str]:
    """Family name, given name and the club code written into the given name (or "")."""
    family, given = _split_name(name)
    m = _FFG_CLUB_IN_NAME.match(given)
    if m:
        return family, m.group("given"), m.group("club")
    return family, given, ""


def _rank_of(text: str) -> int | None:
    try:
        rank = Rank.parse(text)
    except RankError:
        if text.endswith("p") and text[:-1].isdigit():
            return MAX_INDEX  # a professional: the top of the amateur ladder
        return None
    return rank.index if MIN_INDEX <= rank.index <= MAX_INDEX else None


def _egd(lines: list[str]) -> tuple[date, Iterator[ListedPlayer | None]]:
    published = None
    for line in lines[:50]:
        m = _EGD_DATE.match(line)
        if m:
            published = datetime.strptime(m.group(1), "%d %b %Y").date()
            break
    if published is None:
        raise ListFormatError("EGD list: no publication date line such as (25 Nov 2026).")

    def rows() -> Iterator[ListedPlayer | None]:
        for line in lines:
            if not line.strip() or not line.lstrip()[:1].isdigit():
                continue
            m = _EGD_LINE.match(line)
            if not m:
                yield None
                continue
            family, given = _egd_name(m.group("name").strip())
            yield ListedPlayer(
                federation_id=m.group("pin"),
                family_name=family,
                given_name=given,
                rank=_rank_of(m.group("rank")),
                rating=int(m.group("rating")),
                list_rating=m.group("rating"),
                club=m.group("club"),
                country=m.group("country"),
                raw=line.rstrip(),
            )

    return published, rows()


def _ffg(lines: list[str]) -> tuple[date, Iterator[ListedPlayer | None]]:
    m = _FFG_DATE.search(lines[0] if lines else "")
    if not m:
        raise ListFormatError("FFG échelle: the first line should read #Echelle au dd/mm/yyyy.")
    day, month, year = (int(x) for x in m.groups())
    published = date(year, month, day)

    def rows() -> Iterator[ListedPlayer | None]:
        for line in lines[1:]:
            if not line.strip():
                continue
            row = _FFG_LINE.fullmatch(line.rstrip())
            if not row:
                yield None
                continue
            value = int(row.group("rating"))
            gor = None if value == FFG_NO_RATING else value + FFG_TO_GOR
            family, given, club_in_name = _ffg_name(row.group("name").strip())
            club = "" if row.group("club").lower() == "xxxx" else row.group("club")
            licence = row.group("licence")
            yield ListedPlayer(
                federation_id="" if licence.startswith("-") else licence,
                family_name=family,
                given_name=given,
                rank=None if gor is None else Rank.from_gor(gor).index,
                rating=gor,
                list_rating=row.group("rating"),
                club=club or club_in_name,
                country=row.group("country"),
                raw=line.rstrip(),
            )

    return published, rows()


def aga_rank(rating: float) -> int | None:
    """An AGA rating as a ladder index: 3.4 is 3 dan, -20.06 is 20 kyu (the AGA prints
    dan ratings from 1 up and kyu ratings from -1 down)."""
    if math.isnan(rating) or -1 < rating < 1:
        return None
    if rating >= 1:
        return min(MAX_INDEX, math.floor(rating) - 1)
    return max(MIN_INDEX, -math.floor(-rating))


def _aga(lines: list[str]) -> Iterator[ListedPlayer | None]:
    for line in lines:
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) < 7 or not cols[1].strip().isdigit():
            yield None
            continue
        family, _, given = cols[0].partition(",")
        text = cols[3].strip()
        try:
            value = float(text) if text else math.nan
        except ValueError:
            value = math.nan
        yield ListedPlayer(
            federation_id=cols[1].strip(),
            family_name=family.strip(),
            given_name=given.strip(),
            rank=aga_rank(value),
            rating=None,
            list_rating=text,
            club=cols[5].strip()[:4],
            country="US" if cols[6].strip() else "",
            raw=line.rstrip(),
        )
