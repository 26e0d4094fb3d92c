"""The rating list as CSV and as EGD-style text (formats.md §4).

Pure formatting: rows in, text out (standard library only).

EGD text layout (OpenGotha's columns, formats.md §4): PIN ``[1,9)``, name
``[11,48)``, country ``[49,52)``, club ``[53,57)``, grade ``[60,63)``, then
the promotion grade, GoR ``[71,75)``, the number of rated tournaments and
the last tournament's code, separated by blanks so pairgoth's
whitespace parser reads it too.  Fields goref cannot fill:

* PIN: a player without an EGD PIN gets ``00000000``;
* promotion grade: goref keeps no promotion grades, always ``--``;
* tournament code: goref has no EGD codes; it writes ``G`` + the end date
  (yymmdd) + the goref tournament id, e.g. ``G260308-12``;
* country ``XX`` and club ``xxxx`` when unknown (as OpenGotha writes them);
* the honorary 9p+ is a title, not a grade: the grade column shows the
  rating's band; the CSV has an ``honorary_9p`` column.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
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
                r.egd_pin,
                r.family_name,
                r.given_name,
                r.country,
                r.club_name,
                r.grade,
                f"{r.rating:.1f}",
                f"{r.deviation:.1f}",
                r.games,
                r.tournaments,
                int(r.provisional),
                int(r.honorary),
                r.last_name,
                r.last_date.isoformat() if r.last_date else "",
            ]
        )
    return out.getvalue()


def egd_line(r: ListRow) -> str:
    """One player line; matches formats.md §4's example column for column."""
    pin = r.egd_pin if r.egd_pin and r.egd_pin.isdigit() and len(r.egd_pin) == 8 else "00000000"
    name = f"{r.family_name} {r.given_name}".strip()[:37]
    grade = r.grade.lower()
    return (
        f" {pin}  {name:<37} {(r.country or 'XX')[:2]:<3} {(r.club_code or 'xxxx')[:4]:>4}"
        f"  {grade:>4}   --  {round(r.rating):>5} {r.tournaments:>5}  {r.last_code}"
    )


def rating_list_egd(rows: Iterable[ListRow], *, on: dt.date, algorithm: str) -> str:
    head = f"goref rating list ({on:%d %b %Y}, {algorithm})"
    return "\n".join([head, *(egd_line(r) for r in rows)]) + "\n"
