"""OpenGotha's tournament files and per-pair cost dumps for the pairing tests: the
tests compare goref's costs and games with the ones OpenGotha 3.52 computed for the
same history."""

from __future__ import annotations

import gzip
from dataclasses import dataclass, replace
from pathlib import Path

from games.tournament.engine.formats import opengotha
from games.tournament.engine.model import Event, GameRec
from games.tournament.engine.pairing.weights import COST_NAMES

DATA = Path(__file__).resolve().parents[4] / "data" / "opengotha" / "pairing"


@dataclass(frozen=True)
class Tournament:
    event: Event  # every round, as the file holds it
    names: dict[int, str]  # id -> "Name FirstName", the dumps' spelling

    def before(self, round_number: int) -> Event:
        """The event as it stood when round ``round_number`` was paired."""
        games = tuple(g for g in self.event.games if g.round < round_number)
        return replace(self.event, games=games)

    def games_of(self, round_number: int) -> list[GameRec]:
        return [g for g in self.event.games if g.round == round_number]


def load(name: str) -> Tournament:
    """The tournament file, read by goref's OpenGotha reader."""
    event = opengotha.read((DATA / f"{name}.xml").read_bytes())
    names = {e.id: f"{e.family_name} {e.given_name}" for e in event.entrants}
    return Tournament(event=event, names=names)


COST_KEYS = COST_NAMES  # the dumps name the components as OpenGotha does


def dump(name: str, round_number: int) -> list[tuple[str, str, dict[str, int]]]:
    """OpenGotha's dump: (player 1, player 2, costs) for every pair it weighed."""
    path = DATA / f"{name}_weights_R{round_number}.txt.gz"
    lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()
    assert lines[0].strip() == f"Round {round_number}", lines[0]
    out = []
    i = 2
    while i + 11 < len(lines) + 1 and lines[i].startswith("Player1Name="):
        first = lines[i].split("=", 1)[1]
        second = lines[i + 1].split("=", 1)[1]
        values = {}
        for line in lines[i + 2 : i + 12]:
            key, value = line.split("=", 1)
            values[key] = int(value)
        assert tuple(values) == COST_KEYS
        out.append((first, second, values))
        i += 12
    return out


def dumped_rounds(name: str) -> list[int]:
    return sorted(
        int(p.name.split("_R")[-1].split(".")[0]) for p in DATA.glob(f"{name}_weights_R*.txt.gz")
    )
