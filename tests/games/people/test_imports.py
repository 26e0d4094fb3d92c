"""CSV import of players: all rows or none, with a report naming row and column."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Club, Player
from games.people.services.imports import players_import_csv

pytestmark = pytest.mark.django_db

GOOD = (
    "family_name,given_name,rank,club,country,egd_pin,aga_id,nzgs_id\n"
    "Takemiya,Masaki,9d,Tokyo Go Club,JP,12345678,,\n"
    "Smith,Jane,15k,Wellington Go Club,nz,,A123,\n"
    "Ngata,Hemi,2k,Wellington Go Club,NZ,,,NZ42\n"
)


def test_a_good_file_creates_every_player(director: Any) -> None:
    report = players_import_csv(actor=None, data=GOOD.encode("utf-8"))
    assert report.ok, report.errors
    assert report.rows == 3 and len(report.created) == 3
    jane = Player.objects.get(family_name="Smith")
    assert str(jane.rank) == "15k" and jane.country == "NZ" and jane.aga_id == "A123"
    assert Club.objects.filter(name="Wellington Go Club").count() == 1


def test_a_byte_order_mark_and_a_blank_line_are_fine() -> None:
    data = ("\ufeff" + GOOD + "\n").encode("utf-8")
    report = players_import_csv(actor=None, data=data)
    assert report.ok and report.rows == 3


def test_bad_rows_are_reported_by_row_and_column_and_nothing_is_created() -> None:
    data = (
        "family_name,given_name,rank,egd_pin,country\n"
        "Good,Row,3k,,NZ\n"
        ",Nameless,3k,,NZ\n"  # row 3: no family name
        "Weak,Rank,42k,,NZ\n"  # row 4: rank off the ladder
        "Short,Pin,1d,123,NZ\n"  # row 5: EGD PIN not 8 digits
        "Bad,Country,1d,,New Zealand\n"  # row 6: country
    )
    report = players_import_csv(actor=None, data=data)
    assert not report.ok
    where = {(e.row, e.field) for e in report.errors}
    assert (3, "family_name") in where
    assert (4, "rank") in where
    assert (5, "egd_pin") in where
    assert (6, "country") in where
    assert not any(e.row == 2 for e in report.errors)
    assert "row 4, rank" in str(next(e for e in report.errors if e.row == 4))
    assert report.created == []
    assert Player.objects.count() == 0


def test_a_duplicate_egd_pin_in_the_file_is_reported_on_the_second_row() -> None:
    data = "family_name,rank,egd_pin\nA,1d,12345678\nB,2d,12345678\n"
    report = players_import_csv(actor=None, data=data)
    assert [(e.row, e.field) for e in report.errors] == [(3, "egd_pin")]
    assert Player.objects.count() == 0


def test_an_unknown_column_is_a_header_error() -> None:
    report = players_import_csv(actor=None, data="family_name,rank,shoe_size\nA,1d,44\n")
    assert [(e.row, e.field) for e in report.errors] == [(1, "header")]
    assert "shoe_size" in report.errors[0].message


def test_a_missing_required_column_is_a_header_error() -> None:
    report = players_import_csv(actor=None, data="family_name,given_name\nA,B\n")
    assert any("rank" in e.message for e in report.errors)


def test_a_file_that_is_not_utf8_is_refused() -> None:
    report = players_import_csv(actor=None, data=b"family_name,rank\n\xff\xfe,1d\n")
    assert report.errors[0].field == "file"


def test_an_empty_file_is_refused() -> None:
    assert not players_import_csv(actor=None, data="").ok


def test_a_player_cannot_import(alice: Any) -> None:
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        players_import_csv(actor=alice.user, data=GOOD)
    assert Player.objects.filter(family_name="Smith").count() == 0
