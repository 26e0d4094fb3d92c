"""A season of real OpenGotha files imported into ONE goref, in date order, through the
real command; then rounds of imported events paired through the API (dry run) from each
round's history, against the games OpenGotha 3.52 made (tests/data/opengotha/README.md
names every file's source)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.models import DuplicateState, Player, PossibleDuplicate, Tournament, TournamentEntry
from games.people.engine.names import name_key
from games.tournament.services.files import read_event
from tests.games.tournament.engine.pairing.ogfiles import dumped_rounds, load

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
FILES = sorted([*DATA.glob("*.xml"), *DATA.glob("*.h9"), *(DATA / "pairing").glob("*.xml")])


def _imported(path: Path) -> dict[str, Any]:
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue().strip().splitlines()[-1])
    return result


def _by_date() -> list[Path]:
    dated = []
    for path in FILES:
        _fmt, event = read_event(path.read_bytes())
        dated.append((event.begin_date or event.end_date, path.name, path))
    return [p for _d, _n, p in sorted(dated, key=lambda x: (str(x[0]), x[1]))]


def test_a_season_of_real_files_imports_into_one_goref(db: Any) -> None:
    assert len(FILES) >= 30
    results = {}
    for path in _by_date():
        results[path.name] = _imported(path)  # a refusal is a CommandError: the test fails
    assert Tournament.objects.count() == len(FILES)
    totals = {k: sum(r[k] for r in results.values()) for k in ("linked", "created", "review")}
    print(f"\n{len(FILES)} files, {Player.objects.count()} players: {totals}")
    for dup in PossibleDuplicate.objects.all():
        print("review:", dup.reason)

    def players_of(name: str) -> set[int]:
        t = results[name]["tournament"]
        return set(TournamentEntry.objects.filter(tournament=t).values_list("player", flat=True))

    # The same event as OpenGotha's XML and as the .h9 it exported (which lists only those
    # who played): the same people.  (chinois-2020.h9 lost its Chinese names to "?".)
    for stem in ("juvisy-2019", "ppik-2010"):
        assert players_of(f"{stem}.h9") <= players_of(f"{stem}.xml"), stem
    # Pairgoth's copies of two files of the pairing folder: the same people again.
    assert players_of("pairgoth-simplemm.xml") == players_of("simplemm.xml")
    assert players_of("pairgoth-notsosimpleswiss.xml") == players_of("notsosimpleswiss.xml")
    # A Polish cup a month apart: its regulars (EGD PIN) are one player in both.
    assert len(players_of("ppik-2009.xml") & players_of("ppik-2010.xml")) >= 5
    # The Romanian semi-final and final: the finalists are the semi-finalists.
    assert (
        len(players_of("semifinal-acn-2020.xml") & players_of("final-cn-individual-2020.xml")) >= 4
    )
    assert totals["linked"] > 300

    _standings_are_opengothas(results)

    # Nobody merged silently on a guess, nobody split silently either: every name held by
    # two player records is on the review list.
    by_key: dict[str, list[int]] = defaultdict(list)
    for pk, key in Player.objects.values_list("pk", "name_key"):
        by_key[key].append(pk)
    flagged = {
        frozenset(p)
        for p in PossibleDuplicate.objects.filter(state=DuplicateState.OPEN).values_list(
            "player", "other"
        )
    }
    for key, pks in by_key.items():
        if not key:
            continue  # a name with no letter ("? ?") matches nobody
        newest = max(pks)
        for other in pks:
            if other != newest:
                assert frozenset((newest, other)) in flagged, key


def _standings_are_opengothas(results: dict[str, dict[str, Any]]) -> None:
    """Each imported event's standings, read from the database after every round, equal
    OpenGotha 3.51.02's (``opengotha-standings.tsv.gz``), value by value and place by
    place, on the file's criteria and on every other criterion."""
    from games.tournament.engine.formats import opengotha
    from games.tournament.engine.standings import SCALE
    from games.tournament.selectors import standings_of
    from tests.games.tournament.engine.test_against_opengotha import DUMP

    compared = 0
    for name, blocks in DUMP.items():
        t = Tournament.objects.get(pk=results[name]["tournament"])
        event = opengotha.read((DATA / name).read_bytes())
        entries = TournamentEntry.objects.filter(tournament=t).select_related("player")
        by_name = {name_key(e.family_name, e.given_name): e.player_id for e in entries}
        pk_of = {e.key: by_name[name_key(e.family_name, e.given_name)] for e in event.entrants}
        for block in blocks:
            rows = standings_of(t, after_round=block.round, criteria=block.criteria).rows
            mine = {r.player.pk: r for r in rows}
            theirs: list[tuple[int, int]] = []
            previous: list[int] | None = None
            for key, stored in block.rows:
                row = mine[pk_of[key]]
                want = {
                    c: float(1 - v) if c == "CAT" else v / SCALE[c]
                    for c, v in zip(block.criteria, stored, strict=True)
                }
                assert row.values == want, (name, block.round, key)
                compared += len(stored)
                if row.place is None:
                    continue
                if stored != previous:
                    place, previous = len(theirs) + 1, stored
                theirs.append((row.player.pk, place))
            # The same place for everyone (within a tie, the database lists by name).
            ours = [(r.player.pk, r.place) for r in rows if r.place is not None]
            assert sorted(ours) == sorted(theirs), (name, block.round, block.criteria)
    print(f"standings: {compared} values equal to OpenGotha's")
    assert compared > 10_000


# ----------------------------------------------------------------------- pairing via the API

# Every round OpenGotha 3.52's costs were dumped for, less those where its optimum is
# not unique (tests/games/tournament/engine/pairing/test_opengotha.py shows them).
ROUNDS = [
    (name, r)
    for name in ("notsimplemm", "simplemm", "Toulouse2024", "simpleswiss", "notsosimpleswiss")
    for r in dumped_rounds(name)
    if not (name in ("simpleswiss", "Toulouse2024") and r in (3, 4, 5, 7))
]


def _history_file(name: str, round_number: int, tmp_path: Path) -> Path:
    """The file as it stood when the round was paired: no game of that round or later."""
    tree = ET.parse(DATA / "pairing" / f"{name}.xml")
    games = tree.getroot().find("Games")
    assert games is not None
    for g in list(games):
        if int(g.get("roundNumber", "1")) >= round_number:
            games.remove(g)
    path = tmp_path / f"{name}-before-{round_number}.xml"
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path


@pytest.mark.parametrize(("name", "round_number"), ROUNDS)
def test_pairing_an_imported_round_through_the_api_gives_opengothas_games(
    db: Any, admin_user: Any, tmp_path: Path, name: str, round_number: int
) -> None:
    # A goref that already knows these players (the full file imported first): the
    # history import links them all and puts nobody on the review list.
    _imported(DATA / "pairing" / f"{name}.xml")
    result = _imported(_history_file(name, round_number, tmp_path))
    assert result["created"] == 0 and result["review"] == 0
    t = Tournament.objects.get(pk=result["tournament"])
    assert t.handicap_policy == "mcmahon"
    entries = TournamentEntry.objects.filter(tournament=t).select_related("player")
    key = {e.player_id: name_key(e.family_name, e.given_name) for e in entries}
    pk_of = {k: pk for pk, k in key.items()}
    og = load(name)
    og_key = {i: name_key(n, "") for i, n in og.names.items()}
    their_games = og.games_of(round_number)
    players = [pk_of[og_key[p]] for g in their_games for p in (g.black, g.white)]
    client = APIClient()
    client.force_authenticate(admin_user)
    answer = client.post(
        f"/api/v1/tournaments/{t.pk}/rounds/{round_number}/pairing/",
        {"dry_run": True, "players": players},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    mine = {(key[g["white"]], key[g["black"]], g["handicap"]) for g in answer.json()["games"]}
    theirs = {(og_key[g.white], og_key[g.black], g.handicap) for g in their_games}
    assert mine == theirs
    assert not t.games.filter(round__number=round_number).exists()  # a dry run writes nothing
