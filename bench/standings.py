"""Standings benchmark (not a test): every round's standings of a large McMahon event.

Run: ``.venv/bin/python -m bench.standings`` (``--players``, ``--rounds``, ``--seed``).
Builds a seeded event (760 players, 10 rounds by default: byes, absences, jigo, by-default
and unknown results, handicap games), then times goref's ``Scoreboard`` against a peer
written here: a straightforward per-round recomputation from the games, the way pairgoth's
``HistoryHelper`` works, on the same criteria.  The peer's values must equal goref's.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections import defaultdict

from games.tournament.engine.model import (
    Entrant,
    Event,
    GameRec,
    Outcome,
    Presence,
    Settings,
    System,
)
from games.tournament.engine.standings import Scoreboard

CRITERIA = ["MMS", "SOSM", "SOSOSM"]
EVERY = [
    "NBW",
    "MMS",
    "SOSW",
    "SOSW-1",
    "SOSM",
    "SOSM-2",
    "SODOSM",
    "SOSOSM",
    "CUSSM",
    "EXT",
    "EXR",
    "DC",
]


def build(players: int, rounds: int, seed: int) -> Event:
    rng = random.Random(seed)
    settings = Settings.defaults(System.MCMAHON, rounds)
    entrants = []
    for n in range(1, players + 1):
        presence = tuple(
            Presence.ABSENT if rng.random() < 0.03 else Presence.PLAY for _ in range(rounds)
        )
        entrants.append(
            Entrant(
                n,
                f"Name{n:04d}",
                "Given",
                rank=rng.randint(-25, 6),
                rating=rng.randint(100, 2700),
                presence=presence,
            )
        )
    games: list[GameRec] = []
    presence_of = {e.id: list(e.presence) for e in entrants}
    for r in range(1, rounds + 1):
        here = [e.id for e in entrants if presence_of[e.id][r - 1] is Presence.PLAY]
        rng.shuffle(here)
        if len(here) % 2:
            presence_of[here.pop()][r - 1] = Presence.BYE
        for t in range(0, len(here), 2):
            roll = rng.random()
            outcome = (
                Outcome.JIGO
                if roll < 0.02
                else Outcome.UNKNOWN
                if roll < 0.03
                else Outcome.BLACK
                if roll < 0.5
                else Outcome.WHITE
            )
            games.append(
                GameRec(
                    r,
                    here[t],
                    here[t + 1],
                    handicap=rng.choice((0, 0, 0, 1, 2, 3)),
                    outcome=outcome,
                    by_default=rng.random() < 0.01,
                    table=t // 2 + 1,
                )
            )
    entrants = [dataclasses.replace(e, presence=tuple(presence_of[e.id])) for e in entrants]
    return Event(settings, tuple(entrants), tuple(games))


def peer(event: Event, after: int) -> list[tuple[int, float, float, float]]:
    """Per-round recomputation from scratch: (id, MMS, SOSM, SOSOSM), in standings order."""
    s = event.settings
    smms = {e.id: s.smms(e) for e in event.entrants}
    by_player: dict[int, dict[int, GameRec]] = defaultdict(dict)
    for game in event.games:
        if game.round <= after:
            by_player[game.black][game.round] = game
            by_player[game.white][game.round] = game
    mms: dict[int, float] = {}
    unpaired: dict[int, list[int]] = {}
    for e in event.entrants:
        points, extra, rounds_out = 0, 0, []
        for r in range(1, after + 1):
            g = by_player[e.id].get(r)
            p = e.presence_in(r)
            if p is Presence.BYE:
                extra += s.mms2_bye
                rounds_out.append(r)
            elif g is None:
                extra += s.mms2_absent if p is Presence.ABSENT else 0
                rounds_out.append(r)
            if g is not None:
                points += g.points2(e.id)
        mms[e.id] = smms[e.id] + points / 2 + (extra // 2 if s.round_down else extra / 2)
        unpaired[e.id] = rounds_out
    sosm: dict[int, float] = {}
    for e in event.entrants:
        total = 0.0
        for r in range(1, after + 1):
            g = by_player[e.id].get(r)
            if r in unpaired[e.id] or g is None:
                total += smms[e.id]
            else:
                sign = 1 if g.white == e.id else -1
                total += mms[g.opponent(e.id)] + sign * g.handicap
        sosm[e.id] = total
    sososm: dict[int, float] = {}
    for e in event.entrants:
        total = 0.0
        for r in range(1, after + 1):
            g = by_player[e.id].get(r)
            if r in unpaired[e.id] or g is None:
                total += smms[e.id] * after
            else:
                total += sosm[g.opponent(e.id)]
        sososm[e.id] = total
    names = {e.id: (e.family_name, e.given_name, e.id) for e in event.entrants}
    order = sorted(mms, key=lambda i: (-mms[i], -sosm[i], -sososm[i], names[i]))
    return [(i, mms[i], sosm[i], sososm[i]) for i in order]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=760)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    event = build(args.players, args.rounds, args.seed)
    print(f"event: {args.players} players, {args.rounds} rounds, {len(event.games)} games")

    t0 = time.perf_counter()
    board = Scoreboard(event)
    ours = [board.standings(r, CRITERIA) for r in range(1, args.rounds + 1)]
    t_ours = time.perf_counter() - t0

    t0 = time.perf_counter()
    theirs = [peer(event, r) for r in range(1, args.rounds + 1)]
    t_peer = time.perf_counter() - t0

    for rows, ref in zip(ours, theirs, strict=True):
        got = [(r.entrant_id, r.values["MMS"], r.values["SOSM"], r.values["SOSOSM"]) for r in rows]
        assert sorted(got) == sorted(ref), "the peer and goref disagree"
    print(
        f"all rounds, {'/'.join(CRITERIA)}: goref {t_ours * 1000:.0f} ms, "
        f"per-round recomputation {t_peer * 1000:.0f} ms (peer/goref {t_peer / t_ours:.1f}x); "
        "values agree"
    )

    t0 = time.perf_counter()
    board = Scoreboard(event)
    for r in range(1, args.rounds + 1):
        board.standings(r, EVERY)
    t_every = time.perf_counter() - t0
    print(f"all rounds, {len(EVERY)} criteria ({', '.join(EVERY)}): goref {t_every * 1000:.0f} ms")


if __name__ == "__main__":
    main()
