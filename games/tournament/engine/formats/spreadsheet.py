"""The standings as CSV for spreadsheets, with every cell safe to open.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return) is a
formula to a spreadsheet program ("CSV injection", OWASP); such a text cell is prefixed with
``'`` so that it stays text.  Numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from games.tournament.engine.formats.opengotha import rank_text
from games.tournament.engine.formats.text import clean
from games.tournament.engine.model import Event
from games.tournament.engine.standings import Scoreboard

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert(text: str) -> str:
    """A text cell a spreadsheet will not run: control characters become spaces, and a
    leading formula character is escaped with ``'``."""
    if text.startswith(_FORMULA_START):
        text = "'" + text
    return clean(text)


def _number(value: float) -> str:
    return f"{value:g}"


def write_csv(event: Event, after_round: int, criteria: Sequence[str] | None = None) -> bytes:
    """Place, names, rank, club, country and the criteria after ``after_round``, UTF-8 with
    a byte-order mark (so that spreadsheet programs read the accents)."""
    rows = Scoreboard(event).standings(after_round, criteria)
    names = list(rows[0].values) if rows else list(criteria or event.settings.criteria)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Place", "Family name", "Given name", "Rank", "Club", "Country", *names])
    for row in rows:
        e = event.entrant(row.entrant_id)
        writer.writerow(
            [
                "" if row.place is None else str(row.place),
                inert(e.family_name),
                inert(e.given_name),
                rank_text(e.rank).lower(),
                inert(e.club),
                inert(e.country),
                *(_number(row.values[c]) for c in names),
            ]
        )
    return ("\ufeff" + out.getvalue()).encode("utf-8")
