"""goref's pairing against OpenGotha 3.52 itself, on real tournaments.

Each tournament file holds every round OpenGotha paired; each dump holds the
cost OpenGotha 3.52 gave every pair of one round (tests/data/opengotha/pairing/
README.md names the source).  For every dumped round: every component of every
pair's cost is OpenGotha's, and pairing that round from the same history gives
OpenGotha's games, colours and handicaps, or, where OpenGotha's choice was one
of several optimal matchings, another one with the same total.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.tournament.engine.model import Presence
from games.tournament.engine.pairing import COST_NAMES, PairingParams, pair_round
from games.tournament.engine.pairing.state import round_state
from games.tournament.engine.pairing.weights import costs, opengotha_handicap, weight_rows
from tests.games.tournament.engine.pairing.ogfiles import Tournament, dump, dumped_rounds, load

FILES = [
    "notsimplemm",  # McMahon, 9 players, byes, absences
    "simplemm",  # McMahon, 16 players
    "Toulouse2024",  # McMahon, 38 players, BOT/TOP draw modes, SPLITANDFOLD
    "bosp2024",  # McMahon, 71 entered, a 36-player round 3
    "simpleswiss",  # Swiss, 32 players
    "notsosimpleswiss",  # Swiss, 35 players, 13 byes, clubs and countries
    "20240921-KPMC-Splitbug",  # Swiss, 60 players, OpenGotha 3.52.03
]
CASES = [(name, r) for name in FILES for r in dumped_rounds(name)]


def _event_for(t: Tournament, name: str, round_number: int) -> Tournament:
    if name != "bosp2024":
        return t
    # This hand-edited file nests its ByePlayer elements inside a stray <ByePlayer>, where
    # the reader does not look: the two byes are put back here.  It also lists a second
    # section's players as taking part in every round, though they never played; the
    # director paired round 3 without them.
    byes = {"GUNEYMETE": 1, "RUZGAREGE_TUNA": 2}
    played = {p for g in t.event.games for p in (g.black, g.white)}
    entrants = []
    for e in t.event.entrants:
        presence = list(e.presence) + [Presence.PLAY] * (5 - len(e.presence))
        if e.key in byes:
            presence[byes[e.key] - 1] = Presence.BYE
        elif e.id not in played:
            presence = [Presence.ABSENT] * 5
        entrants.append(replace(e, presence=tuple(presence)))
    return replace(t, event=replace(t.event, entrants=tuple(entrants)))


@pytest.mark.parametrize(("name", "round_number"), CASES)
def test_every_cost_component_of_every_pair_is_opengothas(name: str, round_number: int) -> None:
    t = _event_for(load(name), name, round_number)
    event = t.before(round_number)
    params = PairingParams.from_opengotha(event.pairing, event.settings.system)
    st = round_state(event, round_number, params)
    rule = opengotha_handicap(event.settings)
    ids = {v: k for k, v in t.names.items()}
    position = {pid: i for i, pid in enumerate(st.order)}
    pairs = dump(name, round_number)
    assert len(pairs) > 10
    for first, second, expected in pairs:
        a, b = st.players[ids[first]], st.players[ids[second]]
        # OpenGotha weighs a pair in pairing-list order: the standings before the round.
        assert position[a.entrant.id] < position[b.entrant.id], (first, second)
        got = costs(st, a, b, rule).as_dict()
        assert got == expected, (first, second, {k: (got[k], expected[k]) for k in COST_NAMES})


GAME_FILES = ["notsimplemm", "simplemm", "Toulouse2024", "simpleswiss", "notsosimpleswiss"]
GAME_CASES = [(name, r) for name in GAME_FILES for r in dumped_rounds(name)]


def _dump_total(t: Tournament, name: str, round_number: int, games: list[tuple[int, int]]) -> int:
    by_pair = {frozenset((a, b)): v["totalCost"] for a, b, v in dump(name, round_number)}
    return sum(by_pair[frozenset((t.names[x], t.names[y]))] for x, y in games)


@pytest.mark.parametrize(("name", "round_number"), GAME_CASES)
def test_pairing_a_round_gives_opengothas_games_or_an_equally_good_set(
    name: str, round_number: int
) -> None:
    t = load(name)
    event = t.before(round_number)
    theirs = t.games_of(round_number)
    players = [p for g in theirs for p in (g.black, g.white)]
    result = pair_round(event, round_number, players=players)
    their_total = _dump_total(t, name, round_number, [(g.black, g.white) for g in theirs])
    assert result.total_cost == their_total
    assert result.total_cost == sum(g.costs["totalCost"] for g in result.games)
    mine = {frozenset((g.black, g.white)) for g in result.games}
    if mine == {frozenset((g.black, g.white)) for g in theirs}:
        assert {(g.white, g.black, g.handicap) for g in result.games} == {
            (g.white, g.black, g.handicap) for g in theirs
        }
    else:
        # Another optimum: the matching is not unique (same total, shown above).
        assert name in ("simpleswiss", "Toulouse2024") and round_number in (3, 4, 5, 7)


def test_opengothas_split_bug_round_is_beaten_by_an_exact_matching() -> None:
    """In this round OpenGotha 3.52.03 kept a matching below the optimum (the file's
    name records the bug); an exact matching finds a better total."""
    name = "20240921-KPMC-Splitbug"
    t = load(name)
    theirs = t.games_of(1)
    result = pair_round(t.before(1), 1, players=[p for g in theirs for p in (g.black, g.white)])
    their_total = _dump_total(t, name, 1, [(g.black, g.white) for g in theirs])
    assert result.total_cost > their_total


BYE_CASES = [
    (name, r)
    for name in ("notsimplemm", "notsosimpleswiss")
    for r in range(1, load(name).event.settings.rounds + 1)
    if any(e.presence_in(r) is Presence.BYE for e in load(name).event.entrants)
]


@pytest.mark.parametrize(("name", "round_number"), BYE_CASES)
def test_the_bye_rule_picks_opengothas_bye(name: str, round_number: int) -> None:
    t = load(name)
    event = t.before(round_number)
    (bye,) = [e.id for e in event.entrants if e.presence_in(round_number) is Presence.BYE]
    # Forget the recorded bye: the rule must find it among everyone checked in.
    entrants = tuple(
        replace(
            e,
            presence=tuple(
                Presence.PLAY if (r == round_number and p is Presence.BYE) else p
                for r, p in enumerate(e.presence, start=1)
            ),
        )
        for e in event.entrants
    )
    event = replace(event, entrants=entrants)
    result = pair_round(event, round_number)
    assert result.bye == bye
    assert len(BYE_CASES) >= 10


@pytest.mark.parametrize(("name", "round_number"), CASES)
def test_the_fast_weight_matrix_sums_the_same_components(name: str, round_number: int) -> None:
    t = _event_for(load(name), name, round_number)
    event = t.before(round_number)
    params = PairingParams.from_opengotha(event.pairing, event.settings.system)
    st = round_state(event, round_number, params)
    rule = opengotha_handicap(event.settings)
    part = [p for p in st.order if event.entrants[p - 1].presence_in(round_number) is Presence.PLAY]
    rows = weight_rows(st, part, rule)
    for i, a in enumerate(part):
        for j, b in enumerate(part[i + 1 :]):
            assert rows[i][j] == costs(st, st.players[a], st.players[b], rule).total
