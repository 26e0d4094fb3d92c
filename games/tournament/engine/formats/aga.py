"""The AGA results file (the games the American Go Association rates), tab-separated.

Written as OpenGotha 3.5x's ``generateAGAResultsFile`` writes it: a ``Tourney`` header, the
``PLAYERS`` (AGA id, "Family, Given", rank), then ``GAMES r`` for every round (White's id,
Black's id, the winner's colour, handicap, komi) and ``END``.  ISO-8859-15, as OpenGotha
writes it.  docs/formats.md ("AGA results") has the details.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from decimal import Decimal, InvalidOperation

from games.tournament.engine.formats.opengotha import FileFormatError, rank_from_text, rank_text
from games.tournament.engine.formats.text import clean, decode
from games.tournament.engine.model import Entrant, Event, GameRec, Outcome, Settings, System
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
    # Stand-ins follow the players' ids, not the standings: the same player keeps his
    # stand-in from one export to the next while the standings move.
    ids = aga_ids(event, sorted(e.id for e in event.entrants))
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


# ---- reading ----------------------------------------------------------------------------

MAX_LINES = 20000
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})/(\d{1,2})/(\d{4})")


def looks_like_aga(text: str) -> bool:
    """The file starts with ``TOURNEY`` (any case) or has a ``PLAYERS`` line."""
    lines = [line.strip() for line in text.splitlines()[:200]]
    first = next((line for line in lines if line), "")
    return first.upper().startswith("TOURNEY") or "PLAYERS" in (x.upper() for x in lines)


def read_aga(data: bytes) -> Event:
    """An event from an AGA results file, OpenGotha's tab-separated form or the AGA's own
    (words split by blanks, ``start=m/d/yyyy``, one ``GAMES`` section without rounds).

    Players keep their AGA id, except the stand-ins OpenGotha counts down from 99999 for
    players without one (at most one per player: ids from 99999 less the number of players);
    games keep White, Black, handicap and winner (``?`` is a game without a result).  A game
    outside a ``GAMES r`` section goes to the first round where both players are free.  A
    line that cannot be read raises ``FileFormatError`` naming it."""
    text = decode(data)
    header: dict[str, str] = {}
    rows: list[tuple[str, str, str, str]] = []  # id, family, given, rank
    games: list[tuple[int | None, str, str, str, str, str, str]] = []
    section = ""
    number: int | None = None
    sections: list[int] = []  # the GAMES r sections, empty ones too (OpenGotha writes all)
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if n > MAX_LINES:
            raise FileFormatError(f"has more than {MAX_LINES} lines", "the file")
        words = line.split("\t") if "\t" in line else line.split()
        words = [w.strip() for w in words if w.strip()]
        head = words[0].upper() if words else ""
        if not words or head == "END":
            continue
        where = f"line {n}"
        if head == "TOURNEY":
            section = "header"
            header["title"] = line[len(words[0]) :].strip()
        elif head == "PLAYERS":
            section = "players"
        elif head == "GAMES":
            section = "games"
            number = _round_number(words, where)
            sections.append(number or 1)
        elif "=" in line and section in ("", "header"):
            key, _, value = line.partition("=")
            header[key.strip().lower()] = value.strip().strip("'\"")
        elif section == "players":
            rows.append(_player_row(line, words, where))
        elif section == "games":
            if len(words) != 5:
                raise FileFormatError(
                    "is not a game: White's id, Black's id, the winner, handicap and komi", where
                )
            games.append((number, *words, where))  # type: ignore[arg-type]
        else:
            raise FileFormatError(f"{line[:40]!r} comes before PLAYERS", where)
    if not rows:
        raise FileFormatError("lists no player after PLAYERS", "the file")
    return _aga_event(header, rows, games, max(sections, default=1))


def _round_number(words: list[str], where: str) -> int | None:
    if len(words) == 1:
        return None
    if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= 99:
        raise FileFormatError(f"{' '.join(words)!r} is not GAMES and a round number", where)
    return int(words[1])


def _player_row(line: str, words: list[str], where: str) -> tuple[str, str, str, str]:
    if len(words) < 3 or not _AGA_ID.fullmatch(words[0]):
        raise FileFormatError("is not a player: AGA id, 'Family, Given' and rank", where)
    name = " ".join(words[1:-1])
    family, _, given = name.partition(",")
    try:
        rank_from_text(words[-1])
    except ValueError:
        raise FileFormatError(
            f"has {words[-1]!r} where the rank (like 3D or 12K) is", where
        ) from None
    return words[0], family.strip(), given.strip(), words[-1]


def _aga_event(
    header: dict[str, str],
    rows: list[tuple[str, str, str, str]],
    lines: list[tuple[int | None, str, str, str, str, str, str]],
    sections: int,
) -> Event:
    stand_in_floor = FIRST_TEMPORARY_ID - len(rows)
    ids: dict[str, int] = {}
    entrants = []
    for n, (aga_id, family, given, rank) in enumerate(rows, 1):
        if aga_id in ids:
            raise FileFormatError(f"AGA id {aga_id} is listed twice", f"player {n}")
        ids[aga_id] = n
        real = aga_id if not stand_in_floor < int(aga_id) <= FIRST_TEMPORARY_ID else ""
        entrants.append(
            Entrant(
                id=n,
                family_name=family,
                given_name=given,
                rank=rank_from_text(rank),
                rating=0,
                aga_id=real,
            )
        )
    busy: set[tuple[int, int]] = set()
    games: list[GameRec] = []
    even_komi: list[Decimal] = []
    for number, white_id, black_id, winner, stones, komi, where in lines:
        white, black = (_player(ids, x, where) for x in (white_id, black_id))
        if white == black:
            raise FileFormatError(f"AGA id {white_id} plays himself", where)
        if not stones.isdigit() or int(stones) > 9:
            raise FileFormatError(f"handicap {stones!r} is not 0 to 9 stones", where)
        try:
            komi_value = Decimal(komi)
        except InvalidOperation:
            komi_value = Decimal("NaN")
        if not komi_value.is_finite():
            raise FileFormatError(f"komi {komi!r} is not a number", where)
        outcome = {"W": Outcome.WHITE, "B": Outcome.BLACK, "?": Outcome.UNKNOWN}.get(winner.upper())
        if outcome is None:
            raise FileFormatError(f"winner {winner!r} is not W, B or ?", where)
        # OpenGotha writes handicap 1 (no komi) as 0 stones and komi 0.
        handicap = int(stones) or (1 if komi_value == 0 else 0)
        if handicap == 0:
            even_komi.append(komi_value)
        r = number or 1
        while number is None and ({(r, white), (r, black)} & busy):
            r += 1
        if {(r, white), (r, black)} & busy:
            raise FileFormatError("a player of this game already plays in this round", where)
        busy |= {(r, white), (r, black)}
        games.append(GameRec(r, black, white, handicap, outcome))
    rounds = max([sections, *(g.round for g in games)])
    begin, end = _day(header.get("start", "")), _day(header.get("finish", ""))
    location = header.get("location", "")
    name = header.get("title", "")
    if location and name.endswith(f", {location}"):
        name = name[: -len(location) - 2]
    return Event(
        Settings.defaults(System.MCMAHON, rounds),
        tuple(entrants),
        tuple(games),
        name=name.strip(),
        location=location,
        begin_date=begin,
        end_date=max(end, begin) if end and begin else end or begin,
        komi=_event_komi(even_komi),
    )


def _event_komi(even: list[Decimal]) -> Decimal:
    """The komi of the even games: the file's is a whole number, the prisoners Black would
    give White, and OpenGotha writes 7 whatever the event's; the half point that decides
    a tie for White is not written, so 7 is read 7.5, the AGA rules' komi."""
    if not even:
        return Decimal("7.5")
    komi = Counter(even).most_common(1)[0][0]
    return komi + Decimal("0.5") if komi == komi.to_integral_value() else komi


def _player(ids: dict[str, int], aga_id: str, where: str) -> int:
    if aga_id not in ids:
        raise FileFormatError(f"AGA id {aga_id} is not among the PLAYERS", where)
    return ids[aga_id]


def _day(text: str) -> date | None:
    if not text:
        return None
    m = _DATE.fullmatch(text.strip())
    try:
        if m is None:
            raise ValueError(text)
        if m.group(1):
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return date(int(m.group(6)), int(m.group(4)), int(m.group(5)))
    except ValueError:
        raise FileFormatError(f"{text!r} is not a day like 2024-03-02", "the header") from None
