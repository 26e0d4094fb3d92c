"""Importing players from a CSV file (the directors' admin page calls this).

All or nothing, with every failing row reported at once (by the line it starts on): a
half-imported file would leave the director working out which rows made it.  The rows
go through ``games.services.players_create_bulk``, checked as one player is and written
in bulk.  The file's columns: docs/formats.md, "Players as CSV".
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.models import Player
from games.people import services as people
from games.people.services.players import PLAYER_FIELDS, RowErrors, check_player_writer
from ops.services import Actor

COLUMNS = PLAYER_FIELDS
REQUIRED = ("family_name", "rank")
MAX_ROWS = 5000
MAX_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem: ``row`` 0 is the file itself, ``field`` a column name or ``"file"``."""

    row: int
    field: str
    message: str

    def __str__(self) -> str:
        where = "file" if self.row == 0 else f"row {self.row}"
        return f"{where}, {self.field}: {self.message}"


@dataclass(slots=True)
class ImportReport:
    rows: int = 0
    created: list[Player] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def error(self, row: int, field_name: str, message: str) -> None:
        self.errors.append(RowError(row, field_name, message))


def _decode(data: str | bytes, report: ImportReport) -> str | None:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if len(data) > MAX_BYTES:
        report.error(0, "file", f"the file is larger than {MAX_BYTES // 1_000_000} MB")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report.error(0, "file", f"the file is not UTF-8 text (byte {exc.start}); save it as UTF-8")
        return None


# Model field names the service may report, mapped back to the CSV columns.
_FIELD_TO_COLUMN = {"declared_rank": "rank", "__all__": "row", "user": "row"}


def players_import_upload(*, actor: Actor, upload: Any) -> ImportReport:
    """An uploaded file (``UploadedFile``): its size is checked before a byte is read."""
    check_player_writer(actor)
    if upload.size is None or upload.size > MAX_BYTES:
        report = ImportReport()
        report.error(0, "file", f"the file is larger than {MAX_BYTES // 1_000_000} MB")
        return report
    return players_import_csv(actor=actor, data=upload.read(MAX_BYTES + 1))


def players_import_csv(*, actor: Actor, data: str | bytes) -> ImportReport:
    """Create one player per CSV row, all or nothing.  Returns the report.

    ``report.ok`` is true when every row was created; otherwise nothing was
    created and ``report.errors`` names each failing row and column.
    """
    check_player_writer(actor)  # before a byte of the file is looked at
    report = ImportReport()
    text = _decode(data, report)
    if text is None:
        return report
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        report.error(line, "file", "this line contains a NUL byte: the file is not CSV text")
        return report
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if not header:
        report.error(0, "file", "the file is empty: the first row must name the columns")
        return report
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        report.error(
            1, "header", f"unknown column(s) {', '.join(unknown)}; expected {', '.join(COLUMNS)}"
        )
    for col in REQUIRED:
        if col not in header:
            report.error(1, "header", f"the column {col} is missing")
    if report.errors:
        return report
    reader.fieldnames = header

    # Read every row before any is checked: the bound on rows holds before any work.
    lines: list[int] = []
    rows: list[dict[str, str]] = []
    for line, raw in _rows(reader, report):
        if None in raw:  # more cells than header columns
            report.error(line, "row", "this row has more cells than the header")
            continue
        row = {k: (v or "").strip() for k, v in raw.items()}
        if not any(row.values()):
            continue  # a blank line is not a row
        if len(rows) == MAX_ROWS:
            report.error(line, "file", f"more than {MAX_ROWS} rows: split the file")
            return report
        lines.append(line)
        rows.append(row)
    report.rows = len(rows) + sum(1 for e in report.errors if e.field == "row")
    if report.errors:
        return report
    try:
        report.created = people.players_create_bulk(actor=actor, rows=rows)
    except RowErrors as exc:
        for position, fields in sorted(exc.rows.items()):
            for name, messages in fields.items():
                for message in messages:
                    report.error(lines[position], _FIELD_TO_COLUMN.get(name, name), message)
    return report


def _rows(
    reader: csv.DictReader[str], report: ImportReport
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The data rows with the line each starts on; a row the csv module cannot read (a
    cell over its 131,072-character limit) ends the file with an error naming its line."""
    while True:
        line = reader.line_num + 1
        try:
            raw = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            report.error(line, "file", f"this line cannot be read as CSV ({exc})")
            return
        yield line, raw
