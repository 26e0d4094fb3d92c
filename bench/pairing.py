"""Pairing benchmark (not a test): a McMahon round of a congress-sized field.

Run: ``.venv/bin/python -m bench.pairing`` (``--players N`` for the big round).
Builds a seeded synthetic McMahon event (ranks 20k-7d, clubs, countries, nine
rounds played with results drawn from the rank gap), then pairs round 10 and
prints the time of the pairing state, the weight matrix and the matching, the
memory, and the same matching done by networkx's pure-Python matcher (the peer)
on a field it can finish, with the ratio.  Targets: 760 players under 10 s and
1 GB, 200 players under 1 s.
"""

from __future__ import annotations

import argparse
import random
import resource
import time

import networkx as nx

from games.tournament.engine.model import (
    Entrant,
    Event,
    GameRec,
    Outcome,
    Presence,
    Settings,
    System,
)
from games.tournament.engine.pairing import PairingParams, pair_round
from games.tournament.engine.pairing.matching import max_weight_perfect_matching
from games.tournament.engine.pairing.pair import opengotha_slices
from games.tournament.engine.pairing.state import round_state
from games.tournament.engine.pairing.weights import opengotha_handicap, weight_rows


def synthetic_event(players: int, played: int, seed: int = 1) -> Event:
    """``players`` entrants and ``played`` rounds of games: each round pairs
    neighbours in McMahon order (no repeats), the stronger wins more often."""
    rnd = random.Random(seed)
    rounds = played + 1
    entrants = []
    for i in range(1, players + 1):
        rank = max(-20, min(6, round(rnd.gauss(-6, 7))))
        entrants.append(
            Entrant(
                id=i,
                family_name=f"Player{i:04d}",
                given_name=rnd.choice(["Ann", "Bo", "Chen", "Dmitri", "Eva", "Jun", "Lars"]),
                rank=rank,
                rating=2100 + 100 * rank + rnd.randint(-50, 49),
                club=f"C{rnd.randint(1, players // 5):03d}",
                country=rnd.choice(["DE", "FR", "CZ", "NL", "PL", "UA", "GB", "KR", "JP", "AT"]),
                presence=tuple(Presence.PLAY for _ in range(rounds)),
            )
        )
    settings = Settings.defaults(System.MCMAHON, rounds)
    score = {e.id: min(max(e.rank, -20), 3) + 30 for e in entrants}
    ranks = {e.id: e.rank for e in entrants}
    met: set[frozenset[int]] = set()
    games: list[GameRec] = []
    for r in range(1, played + 1):
        order = sorted(score, key=lambda p: (-score[p], -ranks[p], p))
        while order:
            a = order.pop(0)
            j = next((k for k, b in enumerate(order) if frozenset((a, b)) not in met), 0)
            b = order.pop(j)
            met.add(frozenset((a, b)))
            white, black = (a, b) if ranks[a] >= ranks[b] else (b, a)
            gap = score[white] - score[black]
            p_white = min(0.9, 0.5 + 0.1 * gap)
            outcome = Outcome.WHITE if rnd.random() < p_white else Outcome.BLACK
            winner = white if outcome is Outcome.WHITE else black
            score[winner] += 1
            games.append(GameRec(round=r, black=black, white=white, outcome=outcome))
    return Event(settings=settings, entrants=tuple(entrants), games=tuple(games), name="bench")


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def measure(players: int) -> dict[str, float]:
    """Wall and CPU seconds of each step (the machine is shared: CPU is the work)."""
    event = synthetic_event(players, 9)
    params = PairingParams.for_system(System.MCMAHON)
    rule = opengotha_handicap(event.settings)
    out: dict[str, float] = {}
    w0, c0 = _clock()
    st = round_state(event, 10, params)
    w1, c1 = _clock()
    part = list(st.order)
    rows = weight_rows(st, part, rule)
    w2, c2 = _clock()
    edges = [(i, j, w) for i, row in enumerate(rows) for j, w in enumerate(row, start=i + 1)]
    max_weight_perfect_matching(len(part), edges)
    w3, c3 = _clock()
    result = pair_round(event, 10)
    w4, c4 = _clock()
    out["slices"] = len(opengotha_slices(st, part))
    for name, (wa, ca, wb, cb) in {
        "state": (w0, c0, w1, c1),
        "matrix": (w1, c1, w2, c2),
        "matching": (w2, c2, w3, c3),
        "pair_round": (w3, c3, w4, c4),
    }.items():
        out[name], out[name + "_cpu"] = wb - wa, cb - ca
    out["games"] = len(result.games)
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def peer(players: int) -> tuple[float, float]:
    """The same weight matrix matched by rustworkx and by networkx."""
    event = synthetic_event(players, 9)
    st = round_state(event, 10, PairingParams())
    part = list(st.order)
    rows = weight_rows(st, part, opengotha_handicap(event.settings))
    edges = [(i, j, w) for i, row in enumerate(rows) for j, w in enumerate(row, start=i + 1)]
    t0 = time.perf_counter()
    mine = max_weight_perfect_matching(len(part), edges)
    t1 = time.perf_counter()
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    theirs = nx.max_weight_matching(graph, maxcardinality=True)
    t2 = time.perf_counter()
    weight = {(i, j): w for i, j, w in edges}
    assert sum(weight[p] for p in mine) == sum(weight[tuple(sorted(p))] for p in theirs)
    return t1 - t0, t2 - t1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=760)
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--peer", type=int, default=120, help="field size for networkx")
    args = parser.parse_args()
    for n, target in ((args.players, 10.0), (args.small, 1.0)):
        m = measure(n)
        print(f"{n} players, round 10 ({m['games']:.0f} games), seconds CPU (wall):")
        for step, label in (
            ("state", "pairing state"),
            ("matrix", "weight matrix"),
            ("matching", "matching, all players at once"),
            ("pair_round", f"pair_round: {m['slices']:.0f} slice(s) as OpenGotha, colours, tables"),
        ):
            print(f"  {label:<58} {m[step + '_cpu']:6.2f} ({m[step]:.2f})")
        print(f"  target for pair_round: < {target:.0f} s; peak RSS so far {m['rss_mb']:.0f} MB")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the run: {rss:.0f} MB (target < 1024 MB)")
    mine, theirs = peer(args.peer)
    print(
        f"matching {args.peer} players: rustworkx {mine:.3f} s, networkx {theirs:.2f} s, "
        f"networkx / rustworkx = {theirs / mine:.0f}x (same optimum)"
    )


if __name__ == "__main__":
    main()
