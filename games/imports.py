"""Importing players from a CSV file (the directors' admin page calls this).

All or nothing, with every failing row reported at once: a half-imported file would
leave the director working out which rows made it.  Each row goes through
``games.services.player_create``.  The file's columns: docs/formats.md, "Players as CSV".
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from games import services
from games.models import Player
from games.services.players import PLAYER_FIELDS
from ops.services import Actor
from ratings.ranks import Rank, RankError

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


class _Rollback(Exception):
    """Raised inside the transaction to undo a file with errors."""


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


def _messages(exc: ValidationError) -> dict[str, list[str]]:
    if hasattr(exc, "error_dict"):
        return {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
    return {"__all__": [str(m) for m in exc.messages]}


# Model field names the service may report, mapped back to the CSV columns.
_FIELD_TO_COLUMN = {"declared_rank": "rank", "__all__": "row", "user": "row"}


def players_import_upload(*, actor: Actor, upload: Any) -> ImportReport:
    """An uploaded file (``UploadedFile``): its size is checked before a byte is read."""
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

    try:
        with transaction.atomic():
            for index, raw in _rows(reader, report):
                report.rows += 1
                if report.rows > MAX_ROWS:
                    report.error(index, "file", f"more than {MAX_ROWS} rows: split the file")
                    break
                if None in raw:  # more cells than header columns
                    report.error(index, "row", "this row has more cells than the header")
                    continue
                row = {k: (v or "").strip() for k, v in raw.items()}
                if not any(row.values()):
                    report.rows -= 1  # a blank line is not a row
                    continue
                _import_row(index, row, actor, report, services)
            if report.errors:
                raise _Rollback
    except _Rollback:
        report.created = []
    return report


def _rows(
    reader: csv.DictReader[str], report: ImportReport
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The data rows with their row numbers; a row the csv module cannot read (a cell over
    its 131,072-character limit) ends the file with an error naming that row."""
    index = 1
    while True:
        index += 1
        try:
            raw = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            report.error(index, "file", f"this row cannot be read as CSV ({exc})")
            return
        yield index, raw


def _import_row(
    index: int, row: dict[str, str], actor: Actor, report: ImportReport, services: Any
) -> None:
    before = len(report.errors)
    family_name = row.get("family_name", "")
    if not family_name:
        report.error(index, "family_name", "the family name is required")
    rank: Rank | None = None
    try:
        rank = Rank.parse(row.get("rank", ""))
    except RankError as exc:
        report.error(index, "rank", str(exc))
    country = row.get("country", "").upper()
    if len(report.errors) > before or rank is None:
        return

    try:
        # A savepoint per row: a failing row must not poison the rows after it,
        # so the report can name all of them.
        with transaction.atomic():
            player = services.player_create(
                actor=actor,
                family_name=family_name,
                given_name=row.get("given_name", ""),
                rank=rank,
                club=row.get("club") or None,
                country=country,
                egd_pin=row.get("egd_pin") or None,
                aga_id=row.get("aga_id") or None,
                nzgs_id=row.get("nzgs_id") or None,
            )
    except ValidationError as exc:
        for name, messages in _messages(exc).items():
            column = _FIELD_TO_COLUMN.get(name, name)
            for message in messages:
                report.error(index, column, message)
        return
    report.created.append(player)
