"""A players CSV import is bounded: 5,000 players in a few bulk inserts, a
bigger file refused before any work, and a cell the csv module cannot read is an error
naming its line (on the players import and on a tournament's entry list), never a 500."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Club, Player
from games.people.engine.names import name_key
from games.people.services.grants import director_grant_admin
from games.people.services.imports import MAX_ROWS, players_import_csv
from ops.models import AuditEntry

pytestmark = pytest.mark.django_db

HEADER = "family_name,given_name,rank,club,country,egd_pin\n"


def _file(rows: int) -> bytes:
    lines = [
        f"Family{i},Given{i},{i % 30 + 1}k,Club {i % 40},NZ,{10_000_000 + i}\n" for i in range(rows)
    ]
    return (HEADER + "".join(lines)).encode()


def _as(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_5000_players_come_in_bulk_through_the_admin(director: Any, tournament: Any) -> None:
    director_grant_admin(user=director)
    upload = SimpleUploadedFile("players.csv", _file(MAX_ROWS), content_type="text/csv")
    started = time.monotonic()
    with CaptureQueriesContext(connection) as queries:
        response = _as(director).post(reverse("admin:games_player_import"), {"file": upload})
    elapsed = time.monotonic() - started
    assert response.status_code == 302
    assert Player.objects.count() == MAX_ROWS and Club.objects.count() == 40
    assert AuditEntry.objects.filter(action="player.created").count() == MAX_ROWS
    assert AuditEntry.objects.filter(action="club.created").count() == 40
    assert len(queries) < 60, len(queries)  # not one player_create per row
    assert elapsed < 10, elapsed


def test_a_file_over_the_row_limit_is_refused_before_any_work(director: Any) -> None:
    started = time.monotonic()
    with CaptureQueriesContext(connection) as queries:
        report = players_import_csv(actor=None, data=_file(MAX_ROWS + 1000))
    assert not report.ok and f"more than {MAX_ROWS} rows" in report.errors[0].message
    assert report.errors[0].row == MAX_ROWS + 2  # the first line past the limit
    assert len(queries) == 0 and time.monotonic() - started < 5
    assert not Player.objects.exists()


def test_a_cell_over_the_csv_limit_is_an_error_naming_its_line(director: Any) -> None:
    data = HEADER + "Good,Row,3k,,NZ,\n" + "Huge," + "x" * 200_000 + ",3k,,NZ,\n"
    report = players_import_csv(actor=None, data=data)
    assert [(e.row, e.field) for e in report.errors] == [(3, "file")]
    assert "line" in report.errors[0].message and "field limit" in report.errors[0].message
    assert "row 3" in str(report.errors[0])
    assert not Player.objects.exists()


def test_the_admin_page_shows_that_line_error(director: Any, tournament: Any) -> None:
    director_grant_admin(user=director)
    data = (HEADER + "Huge," + "x" * 200_000 + ",3k,,NZ,\n").encode()
    upload = SimpleUploadedFile("players.csv", data, content_type="text/csv")
    response = _as(director).post(reverse("admin:games_player_import"), {"file": upload})
    assert response.status_code == 200 and b"cannot be read as CSV" in response.content


def test_the_entry_lists_csv_with_a_huge_cell_is_a_line_error(
    director: Any, tournament: Any
) -> None:
    url = reverse("games:entries", args=[tournament.pk])
    data = b"family_name,given_name,rank\nRoe,Jo,5k\nBig," + b"x" * 200_000 + b",3k\n"
    response = _as(director).post(
        url, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)}, follow=True
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Line 3" in page and "Nothing was entered" in page
    assert not Player.objects.filter(family_name="Roe").exists()


def test_a_duplicate_pin_already_on_file_is_named_on_its_line(director: Any) -> None:
    Player.objects.create(family_name="Old", declared_rank=0, egd_pin="10000001")
    report = players_import_csv(actor=None, data=_file(3))
    assert [(e.row, e.field) for e in report.errors] == [(3, "egd_pin")]
    assert Player.objects.count() == 1


def test_a_full_entry_list_csv_is_entered_in_bulk_in_seconds(
    director: Any, tournament: Any
) -> None:
    """The same bound on the entry list: 2,000 lines (half of them players already in goref) in a
    bounded time, matched by the import's rules."""
    from games.tournament.services.files import ENTRIES_MAX_ROWS as ENTRIES_FILE_MAX_ROWS

    Player.objects.bulk_create(
        [
            Player(
                family_name=f"F{i}",
                given_name=f"G{i}",
                declared_rank=-(i % 30 + 1),
                name_key=name_key(f"F{i}", f"G{i}"),  # bulk_create skips save(), which keeps it
            )
            for i in range(0, ENTRIES_FILE_MAX_ROWS, 2)
        ]
    )
    lines = "".join(
        f"F{i},G{i},{i % 30 + 1}k,Club {i % 7},NZ\n" for i in range(ENTRIES_FILE_MAX_ROWS)
    )
    data = ("family_name,given_name,rank,club,country\n" + lines).encode()
    url = reverse("games:entries", args=[tournament.pk])
    started = time.monotonic()
    response = _as(director).post(url, {"action": "csv", "file": SimpleUploadedFile("e.csv", data)})
    elapsed = time.monotonic() - started
    assert response.status_code == 302
    assert tournament.entries.count() == ENTRIES_FILE_MAX_ROWS
    assert Player.objects.count() == ENTRIES_FILE_MAX_ROWS  # the known half matched
    assert AuditEntry.objects.filter(action="entry.added").count() == ENTRIES_FILE_MAX_ROWS
    assert elapsed < 10, elapsed


def test_an_entry_list_csv_over_the_limit_enters_nobody(director: Any, tournament: Any) -> None:
    from games.tournament.services.files import ENTRIES_MAX_ROWS as ENTRIES_FILE_MAX_ROWS

    url = reverse("games:entries", args=[tournament.pk])
    too_many = "family_name,rank\n" + "".join(
        f"F{i},3k\n" for i in range(ENTRIES_FILE_MAX_ROWS + 5)
    )
    page = (
        _as(director)
        .post(
            url,
            {"action": "csv", "file": SimpleUploadedFile("e.csv", too_many.encode())},
            follow=True,
        )
        .content.decode()
    )
    assert f"At most {ENTRIES_FILE_MAX_ROWS} players in one file" in page
    assert not tournament.entries.exists() and not Player.objects.exists()
