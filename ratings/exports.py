"""The rating list as CSV and as EGD-style text: rows in, text out (standard library only).

The EGD rating list's columns, and what goref writes for the fields it cannot
fill (PIN, promotion grade, tournament code): docs/ratings.md §9.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

CSV_HEADER = [
    "player_id",
    "egd_pin",
    "family_name",
    "given_name",
    "country",
    "club",
    "grade",
    "rating",
    "deviation",
    "games",
    "tournaments",
    "provisional",
    "honorary_9p",
    "last_tournament",
    "last_tournament_date",
    "last_tournament_class",
]


@dataclass(frozen=True)
class ListRow:
    player_id: int
    egd_pin: str
    family_name: str
    given_name: str
    country: str
    club_code: str
    club_name: str
    grade: str  # the rating's band: "20k", "3d"
    honorary: bool
    rating: float
    deviation: float
    games: int
    tournaments: int
    provisional: bool
    last_code: str
    last_name: str
    last_date: dt.date | None
    last_class: str = ""  # the EGD class (A-D) of the last event, "" when unknown


# Unicode categories that are not visible text: controls (newline, tab, NUL), format
# characters (the bidi overrides U+202A..U+202E, U+2066..U+2069; zero-width joiners),
# line and paragraph separators.  The same set is refused in names on input
# (ops.text); rows stored before that check, or by other paths, are cleaned here too.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
# A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV
# Injection"): such cells get a leading apostrophe, which makes them plain text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def printable(value: object) -> str:
    """``value`` as text with every invisible character replaced by U+FFFD."""
    return "".join(
        "\ufffd" if unicodedata.category(ch) in INVISIBLE_CATEGORIES else ch for ch in str(value)
    )


def inert_cell(value: object) -> str:
    """A text cell a spreadsheet shows as text, never evaluates."""
    raw = str(value)
    text = printable(raw)
    return "'" + text if raw.startswith(FORMULA_STARTS) else text


def tournament_code(end: dt.date | None, tournament_id: int | None) -> str:
    if end is None or tournament_id is None:
        return "--"
    return f"G{end:%y%m%d}-{tournament_id}"


def rating_list_csv(rows: Iterable[ListRow]) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(CSV_HEADER)
    for r in rows:
        w.writerow(
            [
                r.player_id,
                inert_cell(r.egd_pin),
                inert_cell(r.family_name),
                inert_cell(r.given_name),
                inert_cell(r.country),
                inert_cell(r.club_name),
                r.grade,
                f"{r.rating:.1f}",
                f"{r.deviation:.1f}",
                r.games,
                r.tournaments,
                int(r.provisional),
                int(r.honorary),
                inert_cell(r.last_name),
                r.last_date.isoformat() if r.last_date else "",
                r.last_class,
            ]
        )
    return out.getvalue()


def egd_line(r: ListRow) -> str:
    """One player line, at the EGD list's columns (docs/ratings.md §9)."""
    pin = (
        r.egd_pin
        if len(r.egd_pin) == 8 and r.egd_pin.isascii() and r.egd_pin.isdigit()
        else "00000000"
    )
    # Never a line break or a bidi override in a line: a name must not forge another line.
    name = printable(f"{r.family_name} {r.given_name}".strip())[:37]
    grade = r.grade.lower()
    line = (
        f" {pin}  {name:<37} {printable(r.country or 'XX')[:2]:<3} "
        f"{printable(r.club_code or 'xxxx')[:4]:>4}"
        f"  {grade:>4}   --  {round(r.rating):>5} {r.tournaments:>5}  {r.last_code}"
    )
    # The class of the last event follows its code, as one more blank-separated field.
    return f"{line}  {printable(r.last_class)}" if r.last_class else line


def rating_list_egd(rows: Iterable[ListRow], *, on: dt.date, algorithm: str) -> str:
    head = f"goref rating list ({on:%d %b %Y}, {printable(algorithm)})"
    return "\n".join([head, *(egd_line(r) for r in rows)]) + "\n"
