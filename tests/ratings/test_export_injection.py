"""Exports are inert: no spreadsheet formula, no forged line, no invisible character;
names with line breaks or direction controls are refused on input."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from games.people import services as people
from games.tournament import services as tournament_services
from ratings.exports import ListRow, inert_cell, rating_list_csv, rating_list_egd


def _row(**kw: Any) -> ListRow:
    base: dict[str, Any] = dict(
        player_id=1,
        egd_pin="12345678",
        family_name="Abad",
        given_name="Jahin",
        country="FR",
        club_code="38GJ",
        club_name="Grenoble",
        grade="3d",
        honorary=False,
        rating=2300.0,
        deviation=60.0,
        games=10,
        tournaments=2,
        provisional=False,
        last_code="T200202B",
        last_name="Open",
        last_date=dt.date(2020, 2, 2),
    )
    base.update(kw)
    return ListRow(**base)


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://evil","x")', "@SUM(A1:A9)", "+1", "-2+3", "\tx", "\rx"]
)
def test_a_formula_name_is_written_as_text(name: str) -> None:
    text = rating_list_csv([_row(family_name=name, club_name=name)])
    cells = list(csv.reader(io.StringIO(text)))[1]
    assert cells[2].startswith("'") and cells[5].startswith("'")
    assert "\t" not in cells[2] and "\r" not in cells[2]


def test_a_plain_name_is_left_alone() -> None:
    assert inert_cell("O'Brien") == "O'Brien"
    assert inert_cell("Müller-Lüdenscheidt") == "Müller-Lüdenscheidt"


def test_a_newline_in_a_stored_name_cannot_forge_an_egd_line() -> None:
    forged = "Evil\n 99999999  Forged Line                             XX  xxxx    9d"
    text = rating_list_egd([_row(family_name=forged)], on=dt.date(2026, 1, 1), algorithm="egf")
    lines = text.splitlines()
    assert len(lines) == 2  # the heading and one player
    assert "99999999" not in lines[1][:10]
    assert lines[1][1:9] == "12345678"


def test_bidi_controls_are_replaced_in_every_export() -> None:
    name = "Abad\u202etxt.exe"
    egd = rating_list_egd([_row(family_name=name)], on=dt.date(2026, 1, 1), algorithm="egf")
    out = rating_list_csv([_row(family_name=name)])
    assert "\u202e" not in egd and "\u202e" not in out
    assert "\ufffd" in egd and "\ufffd" in out


def test_a_non_ascii_digit_pin_is_not_a_pin() -> None:
    text = rating_list_egd([_row(egd_pin="١٢٣٤٥٦٧٨")], on=dt.date(2026, 1, 1), algorithm="egf")
    assert text.splitlines()[1][1:9] == "00000000"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["Evil\nName", "Tab\tName", "Rev\u202eName", "Zero\u200dWidth"])
def test_names_with_invisible_characters_are_refused(bad: str) -> None:
    with pytest.raises(ValidationError) as caught:
        people.player_create(actor=None, family_name=bad, rank="3k")
    assert "family_name" in caught.value.message_dict


@pytest.mark.django_db
def test_a_tournament_name_with_a_newline_is_refused(director: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        tournament_services.tournament_create(
            actor=None,
            name="Open\nForged",
            start_date=dt.date(2026, 1, 1),
            end_date=dt.date(2026, 1, 2),
            rules="japanese",
        )
    assert "name" in caught.value.message_dict
