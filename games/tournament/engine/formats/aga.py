"""The AGA results file (the games the American Go Association rates), tab-separated.

Written as OpenGotha 3.5x's ``generateAGAResultsFile`` writes it: a ``Tourney`` header, the
``PLAYERS`` (AGA id, "Family, Given", rank), then ``GAMES r`` for every round (White's id,
Black's id, the winner's colour, handicap, komi) and ``END``.  ISO-8859-15, as OpenGotha
writes it.  docs/formats.md ("AGA results") has the details.
"""

from __future__ import annotations

import re

from games.tournament.engine.formats.opengotha import rank_text
from games.tournament.engine.formats.text import clean
from games.tournament.engine.model import Entrant, Event, GameRec, Outcome
from games.tournament.engine.standings import Scoreboard

ENCODING = "iso8859_15"
FIRST_TEMPORARY_ID = 99999  # OpenGotha's first stand-in id, counted down
_AGA_ID = re.compile(r"[0-9]{1,9}")


def _text(text: str) -> str:
    # A tab or a line break would start a new field or line: control characters are spaces.
    return clean(text).strip()


def aga_ids(event: Event, order: list[int]) -> dict[int, str]:
    """Every entrant's AGA id; those without a usable one (digits, above 0) get a stand-in
    counted down from 99999 in ``order``, skipping the ids real players hold."""
    ids: dict[int, str] = {}
    taken: set[int] = set()
    for e in event.entrants:
        if _AGA_ID.fullmatch(e.aga_id) and int(e.aga_id) > 0:
            ids[e.id] = e.aga_id
            taken.add(int(e.aga_id))
    stand_in = FIRST_TEMPORARY_ID
    for entrant_id in order:
        if entrant_id in ids:
            continue
        while stand_in in taken:
            stand_in -= 1
        ids[entrant_id] = str(stand_in)
        stand_in -= 1
    return ids


def result_code(g: GameRec) -> str:
    """``W`` or ``B`` for a game won on the board; anything else (jigo, a by-default result,
    both win or lose, no result) is ``?``, which the AGA does not rate."""
    if g.by_default:
        return "?"
    return {Outcome.WHITE: "W", Outcome.BLACK: "B"}.get(g.outcome, "?")


def handicap_and_komi(handicap: int) -> tuple[int, int]:
    """OpenGotha's pair: an even game 0 stones and komi 7; handicap 1 (no komi) 0 and 0;
    2 stones or more, komi 0."""
    if handicap == 0:
        return 0, 7
    if handicap == 1:
        return 0, 0
    return handicap, 0


def _player_line(e: Entrant, aga_id: str) -> str:
    # The reader splits the name at its first ", ": a comma in the family name would move it.
    family = _text(e.family_name).replace(",", " ")
    return f"{aga_id}\t{family}, {_text(e.given_name)}\t{rank_text(e.rank)}"


def write_aga(event: Event) -> bytes:
    """The AGA results file of the whole event, every registered player and every round."""
    board = Scoreboard(event)
    order = [row.entrant_id for row in board.standings(board.rounds)]
    ids = aga_ids(event, order)
    location = _text(event.location)
    begin = event.begin_date.isoformat() if event.begin_date else ""
    end = event.end_date.isoformat() if event.end_date else ""
    lines = [
        f"Tourney\t{_text(event.name)}, {location}",
        # A quote inside the quoted value would end it early.
        "location='{}'".format(location.replace("'", "`")),
        f"\tstart={begin}",
        f"\tfinish={end}",
        "PLAYERS",
    ]
    lines += [_player_line(event.entrant(i), ids[i]) for i in order]
    by_round: dict[int, list[GameRec]] = {}
    for g in event.games:
        by_round.setdefault(g.round, []).append(g)
    for r in range(1, board.rounds + 1):
        lines += ["", f"GAMES {r}"]
        games = sorted(by_round.get(r, []), key=lambda g: (g.table is None, g.table or 0))
        for g in games:
            handicap, komi = handicap_and_komi(g.handicap)
            lines.append(f"{ids[g.white]}\t{ids[g.black]}\t{result_code(g)}\t{handicap}\t{komi}")
    lines += ["", "", "END"]
    return ("\n".join(lines) + "\n").encode(ENCODING, errors="replace")
