"""goref's standings equal OpenGotha's own, computed by OpenGotha 3.51.02 on real files.

``opengotha-standings.tsv.gz`` holds what OpenGotha's ``Tournament.orderedScoredPlayersList``
gave for every round of each file, on the file's criteria and on every other criterion
(``StandDump.java`` beside it made it).  Each value and each place must match.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from games.tournament.engine.formats import opengotha
from games.tournament.engine.standings import SCALE, Scoreboard, criterion

DATA = Path(__file__).resolve().parents[3] / "data" / "opengotha"


@dataclass
class Block:
    round: int
    criteria: list[str]
    rows: list[tuple[str, list[int]]] = field(default_factory=list)  # key, stored values


def _dump() -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = {}
    current: list[Block] = []
    with gzip.open(DATA / "opengotha-standings.tsv.gz", "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[0] == "FILE":
                current = out[parts[1]] = []
            elif parts[0] == "SET":
                names = [criterion(c) for c in parts[3].split(",") if c]
                current.append(Block(int(parts[2]), names))
            else:
                current[-1].rows.append((parts[0], [int(v) for v in parts[3:]]))
    return out


DUMP = _dump()


def _blocks() -> Iterator[str]:
    yield from sorted(DUMP)


def test_the_dump_covers_every_criterion() -> None:
    seen = {c for blocks in DUMP.values() for b in blocks for c in b.criteria}
    assert seen == set(SCALE)
    assert len(DUMP) >= 10


@pytest.mark.parametrize("name", list(_blocks()))
def test_every_value_and_place_is_opengothas(name: str) -> None:
    event = opengotha.read((DATA / name).read_bytes())
    board = Scoreboard(event)
    ids = {e.key: e.id for e in event.entrants}
    compared = 0
    for block in DUMP[name]:
        rows = board.standings(block.round, block.criteria)
        mine = {row.entrant_id: row for row in rows}
        for key, stored in block.rows:
            got = mine[ids[key]].values
            want = {
                c: float(1 - v) if c == "CAT" else v / SCALE[c]
                for c, v in zip(block.criteria, stored, strict=True)
            }
            assert got == want, (name, block.round, key)
            compared += len(stored)
        # OpenGotha's order, among the players listed so far, with its shared places.
        listed = board.implied(block.round)
        theirs: list[tuple[int, int]] = []
        previous: list[int] | None = None
        for key, stored in block.rows:
            if not listed[board.index(ids[key])]:
                continue
            if stored != previous:
                place, previous = len(theirs) + 1, stored
            theirs.append((ids[key], place))
        assert [(r.entrant_id, r.place) for r in rows if r.place is not None] == theirs, (
            name,
            block.round,
            block.criteria,
        )
    assert compared > 0
