"""Standings from the database, files out and in: the API, the command, the service."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.management.commands.seed_demo import DEMO_TOURNAMENT
from games.models import DuplicateState, Player, PossibleDuplicate, Tournament, TournamentEntry
from games.people.engine.names import folded, name_key
from games.tournament import selectors as day_selectors
from games.tournament import services as tournament_services
from games.tournament.services.files import tournament_import
from tests.factories import ClubFactory, PlayerFactory, enter
from tests.games.api_helpers import assert_error

DATA = Path(__file__).resolve().parents[2] / "data" / "opengotha"
SIMPLE_MM = DATA / "pairgoth-simplemm.xml"  # OpenGotha 3.51.02, 16 players, 40 games
PPIK = DATA / "ppik-2010.xml"  # 18 players with an EGD PIN
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


def test_a_returning_player_with_another_rank_and_club_is_linked(db):
    known = PlayerFactory(family_name="Robin", given_name="Clé", declared_rank=3)
    out = StringIO()
    call_command("import_tournament", str(SIMPLE_MM), stdout=out)
    t = Tournament.objects.get()
    entry = t.entries.get(player=known)
    assert entry.rank == -10 and Player.objects.get(pk=known.pk).declared_rank == 3
    assert "1 linked, 15 created, 0 queued for review" in out.getvalue()


def test_name_order_and_spelling_are_ignored():
    assert name_key("Dupont", "Jean-Pierre") == name_key("DUPONT JEAN PIERRE", "")
    assert name_key("Müller", "Jörg") == name_key("Jorg", "Muller")


def test_two_players_of_one_name_import_and_are_queued_for_review(db):
    a = PlayerFactory(family_name="Robin", given_name="Clé")
    b = PlayerFactory(family_name="ROBIN", given_name="Cle")
    out = StringIO()
    call_command("import_tournament", str(SIMPLE_MM), stdout=out)
    result = json.loads(out.getvalue().splitlines()[-1])
    assert (result["linked"], result["created"], result["review"]) == (0, 16, 2)
    link = reverse("games:duplicates") + f"?tournament={result['tournament']}"
    assert f"2 queued for review ({link})." in out.getvalue()
    new = TournamentEntry.objects.get(
        tournament=result["tournament"], player__name_key=a.name_key
    ).player
    assert new.pk not in (a.pk, b.pk)
    pairs = set(PossibleDuplicate.objects.values_list("player", "other"))
    assert pairs == {(new.pk, a.pk), (new.pk, b.pk)}


def test_a_pin_of_someone_else_is_queued_for_review_not_refused(db, demo):
    Player.objects.filter(family_name="Anderson").update(egd_pin="12345678")
    data = day_selectors.export(demo, "opengotha")
    # Since the file was written, the PIN went to somebody else (files reuse PINs).
    Player.objects.filter(family_name="Anderson").update(egd_pin=None)
    other = PlayerFactory(family_name="Other", egd_pin="12345678")
    result = tournament_import(actor=None, data=data)
    dup = PossibleDuplicate.objects.get()
    assert dup.other == other and "EGD PIN 12345678 belongs to player" in dup.reason
    assert dup.player.egd_pin is None and dup.player.family_name == "Anderson"
    assert result.review == 1 and result.new_players == 1 and result.linked == 8


def test_a_pin_links_a_player_spelt_otherwise_and_a_name_fills_his_pin(db):
    from games.tournament.engine.formats import opengotha

    pinned = [e for e in opengotha.read(PPIK.read_bytes()).entrants if e.egd_pin][:2]
    first, second = pinned
    # Known under a shortened given name with the file's PIN: the PIN links him.
    by_pin = PlayerFactory(
        family_name=first.family_name.upper(),
        given_name=first.given_name[:1],
        egd_pin=first.egd_pin,
    )
    # Known by name without a PIN: the name links him and the file's PIN is filled in.
    by_name = PlayerFactory(family_name=second.given_name, given_name=second.family_name)
    result = tournament_import(actor=None, data=PPIK.read_bytes())
    assert result.linked == 2 and result.review == 0
    assert Player.objects.get(pk=by_name.pk).egd_pin == second.egd_pin
    spelt = TournamentEntry.objects.get(tournament=result.tournament, player=by_pin)
    assert (spelt.family_name, spelt.given_name) == (first.family_name, first.given_name)


def test_keep_apart_is_audited_and_asked_once(db):
    from games.people.services.duplicates import duplicate_keep_apart
    from ops.models import AuditAction, AuditEntry
    from ops.services import StateConflict

    PlayerFactory(family_name="Robin", given_name="Clé")
    PlayerFactory(family_name="Robin", given_name="Cle")
    tournament_import(actor=None, data=SIMPLE_MM.read_bytes())
    dup = PossibleDuplicate.objects.first()
    duplicate_keep_apart(actor=None, duplicate=dup)
    assert PossibleDuplicate.objects.get(pk=dup.pk).state == DuplicateState.APART
    entry = AuditEntry.objects.get(action=AuditAction.PLAYER_DUPLICATE_KEPT_APART)
    assert entry.old_value == {"state": "open"} and entry.new_value == {"state": "apart"}
    with pytest.raises(StateConflict):
        duplicate_keep_apart(actor=None, duplicate=dup)


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


def test_a_doctype_naming_a_dtd_is_read_and_entities_refused(db):
    data = SIMPLE_MM.read_bytes()
    head, body = data.split(b"\n", 1)
    plain = head + b'\n<!DOCTYPE Tournament SYSTEM "tournament.dtd">\n' + body
    assert tournament_import(actor=None, data=plain).games == 40
    bomb = head + b'\n<!DOCTYPE Tournament [<!ENTITY a "aaaa">]>\n' + body
    with pytest.raises(ValidationError, match="entity declaration"):
        tournament_import(actor=None, data=bomb)
    text = bomb.decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"')
    with pytest.raises(ValidationError, match="entity declaration"):
        tournament_import(actor=None, data=text.encode("utf-16"))


def test_the_api_imports_for_a_director(api_as, director, outsider, settings):
    settings.GOREF_RATED_BACKDATE_DAYS = 100_000  # the sample file's event is not recent
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.people.services.grants import director_grant_admin

    director_grant_admin(user=director)
    upload = SimpleUploadedFile("t.xml", SIMPLE_MM.read_bytes(), content_type="text/xml")
    response = api_as(director).post(f"{URL}import/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["games"] == 40
    assert {k: response.json()[k] for k in ("linked", "created", "review")} == {
        "linked": 0,
        "created": 16,
        "review": 0,
    }
    t = Tournament.objects.get(pk=response.json()["tournament"])
    assert response.json()["review_url"] == reverse("games:duplicates") + f"?tournament={t.pk}"
    shown = api_as(director).get(f"{URL}{t.pk}/").json()
    assert shown["short_name"] == "simplemm_3511" and shown["director_name"] == "Theo"
    assert shown["handicap_policy"]["kind"] == "mcmahon" and shown["rules"] == "chinese"
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


# --------------------------------------------------------------------------- settings kept

CDFO = DATA / "cdfo-2020.xml"  # an even Swiss: hdCeiling="0", hdCorrection="0", komi 7.5


def test_the_file_settings_survive_an_export_and_an_import(db):
    from games.tournament.services.settings import settings_of

    first = tournament_import(actor=None, data=CDFO.read_bytes()).tournament
    assert first.handicap_policy == "mcmahon" and first.handicap_cap == 0
    assert (first.handicap_correction, first.handicap_threshold) == (0, -30)
    assert first.handicap_based_on_mms is False
    assert first.rules == "chinese" and str(first.komi) == "7.5"
    assert first.short_name == "CdFO2020" and first.director_name == "Fabien Lips"
    assert first.time_system["basicTime"] == "80" and first.egf_class == "D"
    assert first.pairing_params["paiMaSeedSystem2"]  # every attribute kept
    licences = Player.objects.exclude(ffg_licence=None).count()
    assert licences == 23

    data = day_selectors.export(first, "opengotha")
    assert b'hdCeiling="0"' in data and b'ffgLicence="' in data
    assert data.count(b'ratingOrigin="FFG"') == CDFO.read_bytes().count(b'ratingOrigin="FFG"')
    again = tournament_import(actor=None, data=data)
    second = again.tournament
    assert again.linked == again.players and again.review == 0
    assert settings_of(second) == settings_of(first)
    for field in ("rules", "komi", "short_name", "director_name", "time_system", "egf_class"):
        assert getattr(second, field) == getattr(first, field), field
    assert second.pairing_params == {
        **first.pairing_params,
        **day_selectors.PairingParams.from_opengotha(
            first.pairing_params, first.system
        ).to_opengotha(),
    }
    for r in range(1, first.number_of_rounds + 1):
        a = day_selectors.standings_of(first, after_round=r)
        b = day_selectors.standings_of(second, after_round=r)
        assert [(x.place, x.player.pk, x.values) for x in a.rows] == [
            (x.place, x.player.pk, x.values) for x in b.rows
        ], r


def test_a_missing_seed_system_reads_as_opengotha_reads_it(db):
    data = SIMPLE_MM.read_bytes()
    data = data.replace(b'paiMaSeedSystem2="SPLITANDSLIP"', b"").replace(
        b'paiMaSeedSystem2="SPLITANDFOLD"', b""
    )
    assert b"paiMaSeedSystem2" not in data
    t = tournament_import(actor=None, data=data).tournament
    assert t.pairing_params["paiMaSeedSystem2"] == "SPLITANDFOLD"


def test_both_win_is_stored_scored_and_written_back(db):
    data = SIMPLE_MM.read_bytes().replace(
        b'result="RESULT_WHITEWINS"', b'result="RESULT_BOTHWIN"', 1
    )
    t = tournament_import(actor=None, data=data).tournament
    game = t.games.get(result_reason="both_win")
    assert game.result_display == "both win" and game.not_rated_reason
    rows = {
        r.player.pk: r
        for r in day_selectors.standings_of(t, after_round=game.round.number, criteria=["NBW"]).rows
    }
    assert rows[game.black_id].values["NBW"] >= 1 and rows[game.white_id].values["NBW"] >= 1
    assert b'result="RESULT_BOTHWIN"' in day_selectors.export(t, "opengotha")


def test_the_h9_header_comes_from_the_tournaments_own_settings(db):
    t = tournament_import(actor=None, data=CDFO.read_bytes()).tournament
    head = day_selectors.export(t, "egf").decode().splitlines()[:8]
    assert head[0] == "; CL[D]"  # an Internet event with 80 minutes (OpenGotha's rule)
    assert "; KM[7.5]" in head and "; CM[Canadian byo-yomi]" in head
    tournament_services.tournament_settings_update(actor=None, tournament=t, egf_class="C")
    t.refresh_from_db()
    assert day_selectors.export(t, "egf").decode().startswith("; CL[C]")


def test_an_unknown_colour_is_kept_and_written_back(db):
    data = SIMPLE_MM.read_bytes().replace(b'knownColor="true"', b'knownColor="false"', 1)
    t = tournament_import(actor=None, data=data).tournament
    assert t.games.filter(known_color=False).count() == 1
    assert day_selectors.export(t, "opengotha").count(b'knownColor="false"') == 1


def test_class_x_is_an_unrated_event(db):
    t = tournament_import(actor=None, data=SIMPLE_MM.read_bytes()).tournament
    assert t.rated and t.egf_class != "X"
    with pytest.raises(ValidationError, match="class X tournament is not rated"):
        tournament_services.tournament_settings_update(actor=None, tournament=t, egf_class="X")
    # A file whose time system OpenGotha classes X (an Internet event with short time).
    data = SIMPLE_MM.read_bytes().replace(b'bInternet="false"', b'bInternet="true"')
    data = data.replace(b'basicTime="60"', b'basicTime="10"')
    x = tournament_import(actor=None, data=data).tournament
    assert x.egf_class == "X" and x.rated is False
    assert day_selectors.export(x, "egf").startswith(b"; CL[X]")


def test_a_race_on_a_players_id_is_a_conflict_and_imports_nothing(db, monkeypatch):
    from django.db import IntegrityError

    from games.people.services import matching as identity
    from ops.services import StateConflict

    def taken(**kwargs):
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(identity, "players_create_bulk", taken)
    with pytest.raises(StateConflict, match="import the file again"):
        tournament_import(actor=None, data=SIMPLE_MM.read_bytes())
    assert not Tournament.objects.exists()


def test_an_h9_import_invents_no_rating(db):
    t = tournament_import(actor=None, data=(DATA / "juvisy-2019.h9").read_bytes()).tournament
    assert t.entries.exists() and not t.entries.exclude(rating=None).exists()


# --------------------------------------------------------------------------- in bulk


def _import_queries(path: Path) -> tuple[int, int]:
    """Queries to import ``path`` into an empty database, and its players (rolled back)."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            result = tournament_import(actor=None, data=path.read_bytes())
        transaction.set_rollback(True)
    return len(queries), result.players


def test_an_imports_queries_do_not_grow_with_its_players(db):
    small = _import_queries(SIMPLE_MM)
    big = _import_queries(DATA / "congreso-2020.xml")
    assert (small[1], big[1]) == (16, 167)
    # Ten times the players, not one query more (the small file has an id column more
    # to check for uniqueness: one query).  The budget holds the identity turns, the check
    # of whom the importer may give an id, and the tournament's file options and clubs
    # groups, each a query or two whatever the file's size.
    assert big[0] <= small[0] <= 42, (small, big)


def test_a_pair_kept_apart_is_not_asked_again_nor_linked(db):
    from games.people.services.duplicates import duplicate_keep_apart

    def file_with(name: str) -> bytes:
        text = SIMPLE_MM.read_text()
        text = text.replace('name="Robin"', f'name="{name}"')
        return text.replace('"ROBINCLÉ"', f'"{name.upper()}CLÉ"').encode()

    # "Robin" holds the EGD PIN the file gives "Robinson": the import cannot tell.
    robin = PlayerFactory(family_name="Robin", given_name="Clé", egd_pin="12345678")
    data = file_with("Robinson").replace(b'egfPin=""', b'egfPin="12345678"', 1)
    assert b'egfPin="12345678"' in data
    first = tournament_import(actor=None, data=data)
    dup = PossibleDuplicate.objects.get()
    assert dup.other == robin and first.review == 1
    robinson = dup.player
    duplicate_keep_apart(actor=None, duplicate=dup)
    # The next file says the same: Robinson is linked, Robin is not, nobody is asked.
    second = tournament_import(actor=None, data=data)
    assert second.review == 0 and PossibleDuplicate.objects.count() == 1
    players = set(second.tournament.entries.values_list("player", flat=True))
    assert robinson.pk in players and robin.pk not in players
    assert Player.objects.get(pk=robinson.pk).egd_pin is None
