"""What pairing needs to know of the rounds before: scores, opponents, colours.

All scores are kept doubled, as OpenGotha keeps them (a jigo is 1, a win 2), so
the arithmetic stays in integers.  These are OpenGotha's definitions of NBW, MMS
(OpenGotha 3.52, ``ScoredPlayer``), round by round, with each player's opponent,
colour and handicap in each round: what the draw-ups, colour balance and repeat
games are counted from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.tournament.engine.model import Event, GameRec, Presence

MIN_RANK = -30  # 30 kyu: OpenGotha's McMahon zero


def smms(rank: int, bar: int, floor: int, correction: int) -> int:
    """McMahon start score: 30k = 0, 1d = 30, clamped to [floor, bar], plus correction."""
    return min(max(rank, floor), bar) - MIN_RANK + correction


@dataclass(slots=True)
class Record:
    """One player's rounds 1..last, indexed by round number (index 0 unused)."""

    smms: int
    nbw2: list[int] = field(default_factory=lambda: [0])
    mms2: list[int] = field(default_factory=lambda: [0])
    # per round: (opponent id, +handicap if this player was White else -handicap) or None
    games: list[tuple[int, int, GameRec] | None] = field(default_factory=lambda: [None])
    byes: int = 0


@dataclass(slots=True)
class History:
    """Every entrant's record over rounds 1..last (the rounds before the one to pair)."""

    last: int
    records: dict[int, Record]

    def main2(self, player: int, after: int, mcmahon: bool) -> int:
        record = self.records[player]
        return record.mms2[after] if mcmahon else record.nbw2[after]


def build_history(event: Event, last: int) -> History:
    """Scores after each of rounds 1..last, from the event's games and presences."""
    s = event.settings
    by_round: dict[int, list[GameRec]] = {}
    for game in event.games:
        if 1 <= game.round <= last:
            by_round.setdefault(game.round, []).append(game)
    records = {
        e.id: Record(smms=smms(e.rank, s.mm_bar, s.mm_floor, e.smms_correction))
        for e in event.entrants
    }
    for record in records.values():
        record.mms2[0] = 2 * record.smms
    entrants = {e.id: e for e in event.entrants}
    acc_nbw2 = dict.fromkeys(records, 0)
    acc_mms2 = dict.fromkeys(records, 0)
    points2 = dict.fromkeys(records, 0)
    for r in range(1, last + 1):
        in_game: dict[int, tuple[int, int, GameRec]] = {}
        for game in by_round.get(r, ()):
            if game.black not in records or game.white not in records:
                continue
            hd = game.handicap
            in_game[game.white] = (game.black, hd, game)
            in_game[game.black] = (game.white, -hd, game)
        for pid, record in records.items():
            played = in_game.get(pid)
            record.games.append(played)
            if played is not None:
                points2[pid] += played[2].points2(pid)
            else:
                presence = entrants[pid].presence_in(r)
                if presence is Presence.ABSENT:
                    acc_nbw2[pid] += s.nbw2_absent
                    acc_mms2[pid] += s.mms2_absent
                elif presence is Presence.BYE:
                    acc_nbw2[pid] += s.nbw2_bye
                    acc_mms2[pid] += s.mms2_bye
                    record.byes += 1
            extra_nbw, extra_mms = acc_nbw2[pid], acc_mms2[pid]
            if s.round_down:
                extra_nbw -= extra_nbw % 2
                extra_mms -= extra_mms % 2
            record.nbw2.append(points2[pid] + extra_nbw)
            record.mms2.append(2 * record.smms + points2[pid] + extra_mms)
    return History(last=last, records=records)
