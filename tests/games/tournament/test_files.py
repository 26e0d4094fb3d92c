"""Standings from the database, files out and in: the API, the command, the service."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from games.management.commands.seed_demo import DEMO_TOURNAMENT
from games.models import Game, Player, Tournament, TournamentEntry
from games.tournament import selectors as day_selectors
from games.tournament import services as tournament_services
from games.tournament.services.files import folded, tournament_import
from tests.factories import ClubFactory, PlayerFactory, enter
from tests.games.api_helpers import assert_error

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
SIMPLE_MM = DATA / "pairgoth-simplemm.xml"  # OpenGotha 3.51.02, 16 players, 40 games
URL = "/api/v1/tournaments/"


@pytest.fixture
def demo(db, settings):  # type: ignore[no-untyped-def]
    settings.DEBUG = True  # seed_demo runs only under DEBUG
    call_command("seed_demo", stdout=StringIO())
    return Tournament.objects.get(name=DEMO_TOURNAMENT)


# --------------------------------------------------------------------------- standings


def test_the_standings_come_from_two_queries(demo, django_assert_num_queries):
    with django_assert_num_queries(2):
        table = day_selectors.standings_of(demo)
    assert table.round == 3 and table.criteria == ["MMS", "SOSM", "SOSOSM"]
    places = [row.place for row in table.rows]
    assert places[0] == 1 and places == sorted(p for p in places if p is not None)
    ito = next(row for row in table.rows if row.player.family_name == "Ito")
    # 10k under a 10k floor: start score 20; the bye gives 1 point, the two absences ½
    # each, rounded down cumulatively: 20 + 1 + 1 = 22.
    assert ito.values["MMS"] == 22


def test_a_submitted_result_does_not_count_until_it_is_locked(demo):
    table = day_selectors.standings_of(demo)
    alice = next(r for r in table.rows if r.player.family_name == "Anderson")
    cells = table.rounds[table.rows.index(alice)]
    assert cells[2].startswith(tuple("0123456789")) and "?" in cells[2]


def test_the_standings_api_answers_in_order(api, demo):
    body = api.get(f"{URL}{demo.pk}/standings/", {"round": 2, "criteria": "NBW,SOSW,DC"}).json()
    assert body["round"] == 2 and body["criteria"] == ["NBW", "SOSW", "DC"]
    first = body["rows"][0]
    assert first["place"] == 1 and set(first["values"]) == {"NBW", "SOSW", "DC"}
    assert {"id", "family_name", "given_name", "rank"} <= set(first["player"])
    nbw = [row["values"]["NBW"] for row in body["rows"]]
    assert nbw == sorted(nbw, reverse=True)


def test_bad_standings_input_is_a_400(api, demo):
    assert_error(api.get(f"{URL}{demo.pk}/standings/", {"criteria": "MMS,XYZ"}), 400, "criteria")
    assert_error(api.get(f"{URL}{demo.pk}/standings/", {"round": "last"}), 400, "round")
    assert_error(api.get(f"{URL}424242/standings/"), 404)


# --------------------------------------------------------------------------- export


def test_export_in_each_format(api, demo):
    xml = api.get(f"{URL}{demo.pk}/export/", {"format": "opengotha"})
    assert xml.status_code == 200 and xml.content.startswith(b"<?xml")
    assert "goref-demo-open.xml" in xml["Content-Disposition"]
    h9 = api.get(f"{URL}{demo.pk}/export/", {"format": "egf"}).content.decode()
    assert "; CL[A]" in h9 and "Anderson" in h9
    csv = api.get(f"{URL}{demo.pk}/export/", {"format": "csv"}).content.decode("utf-8-sig")
    assert csv.splitlines()[0].startswith("Place,Family name")
    assert_error(api.get(f"{URL}{demo.pk}/export/", {"format": "pdf"}), 400, "format")


def test_an_exported_file_imports_with_the_same_standings(demo):
    before = day_selectors.standings_of(demo, after_round=2)
    data = day_selectors.export(demo, "opengotha")
    result = tournament_import(actor=None, data=data, name="again")
    after = day_selectors.standings_of(result.tournament, after_round=2)
    assert result.players == 9 and result.new_players == 0  # every player matched
    assert [(r.place, r.player.pk, r.values) for r in after.rows] == [
        (r.place, r.player.pk, r.values) for r in before.rows
    ]


# --------------------------------------------------------------------------- import


def test_the_command_imports_a_real_opengotha_file(db):
    out = StringIO()
    call_command("import_tournament", str(SIMPLE_MM), stdout=out)
    last = json.loads(out.getvalue().strip().splitlines()[-1])
    assert last["players"] == 16 and last["games"] == 40
    t = Tournament.objects.get(pk=last["tournament"])
    assert t.system == "mcmahon" and t.entries.count() == 16 and t.games.count() == 40
    robin = Player.objects.get(family_name="Robin")
    assert robin.given_name == "Clé" and t.entries.get(player=robin).rank == -10
    # Each import is a new tournament; the second finds the players the first created.
    call_command("import_tournament", str(SIMPLE_MM), stdout=StringIO())
    assert Tournament.objects.count() == 2 and Player.objects.count() == 16


def test_a_player_is_matched_by_name_without_accents_rank_and_club(db):
    club = ClubFactory(name="13Ma", country="FR")
    known = PlayerFactory(family_name="ROBIN", given_name="Cle", declared_rank=-10, club=club)
    result = tournament_import(actor=None, data=SIMPLE_MM.read_bytes())
    assert TournamentEntry.objects.filter(tournament=result.tournament, player=known).exists()
    assert result.new_players == 15


def test_a_name_clash_is_reported_and_nothing_imported(db):
    PlayerFactory(family_name="Robin", given_name="Clé", declared_rank=3)
    with pytest.raises(CommandError, match=r"Robin Clé .*not the same rank and club"):
        call_command("import_tournament", str(SIMPLE_MM), stdout=StringIO())
    assert not Tournament.objects.exists() and not Game.objects.exists()


def test_a_pin_of_someone_else_is_a_clash(db, demo):
    Player.objects.filter(family_name="Anderson").update(egd_pin="12345678")
    data = day_selectors.export(demo, "opengotha")
    # Since the file was written, the PIN went to somebody else (files reuse PINs).
    Player.objects.filter(family_name="Anderson").update(egd_pin=None)
    PlayerFactory(family_name="Other", egd_pin="12345678")
    with pytest.raises(ValidationError, match="EGD PIN 12345678 belongs to player"):
        tournament_import(actor=None, data=data)


def test_a_malformed_file_names_the_element_and_imports_nothing(tmp_path, db):
    broken = SIMPLE_MM.read_bytes().replace(b'result="RESULT_WHITEWINS"', b'result="WHO"', 1)
    path = tmp_path / "broken.xml"
    path.write_bytes(broken)
    with pytest.raises(CommandError, match=r"Game \d+: result='WHO'"):
        call_command("import_tournament", str(path), stdout=StringIO())
    path.write_bytes(b"hello")
    with pytest.raises(CommandError, match="Not a tournament file"):
        call_command("import_tournament", str(path), stdout=StringIO())
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_the_api_imports_for_a_director(api_as, director, outsider, settings):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the sample file's event is not recent
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.groups import director_grant_admin

    director_grant_admin(user=director)
    upload = SimpleUploadedFile("t.xml", SIMPLE_MM.read_bytes(), content_type="text/xml")
    response = api_as(director).post(f"{URL}import/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["games"] == 40
    t = Tournament.objects.get(pk=response.json()["tournament"])
    assert t.directors.filter(pk=director.pk).exists()
    bad = SimpleUploadedFile("t.xml", b"<Tournament><Games><Game/></Games></Tournament>")
    assert_error(api_as(director).post(f"{URL}import/", {"file": bad}, format="multipart"), 400)
    upload.seek(0)
    assert_error(api_as(outsider).post(f"{URL}import/", {"file": upload}, format="multipart"), 403)


def test_folded_names_ignore_case_and_accents():
    assert folded(" Müller ") == folded("MULLER") == "muller"


def test_entries_only_are_listed(demo):
    outsider = PlayerFactory(family_name="Zz")
    enter(demo, outsider)
    names = [r.player.family_name for r in day_selectors.standings_of(demo).rows]
    assert names[-1] == "Zz" and len(names) == 10
    assert day_selectors.standings_of(demo).rows[-1].place is None
    tournament_services.entry_remove(actor=None, entry=TournamentEntry.objects.get(player=outsider))
