"""``manage.py import_rating_list FILE [--published YYYY-MM-DD]``: the EGD's all-world list,
the FFG's échelle or the AGA's TDList (recognised from the content) replaces the stored
list of that source; the last line printed is
``{"source": S, "published": D, "entries": N, "added": A, "removed": R, "rating_changed": C}``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ops.commands import error_text, read_file
from ratings.lists import rating_list_import

MAX_BYTES = 50_000_000  # the EGD's all-world list is about 10 MB


class Command(BaseCommand):
    help = "Import a federation's rating list (EGD allworld, FFG échelle, AGA TDList)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--published",
            type=dt.date.fromisoformat,
            default=None,
            help="The list's publication date (the AGA's TDList does not print one; "
            "default: the date the list prints, else today).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        data = read_file(path, MAX_BYTES)
        try:
            result = rating_list_import(actor=None, data=data, published=options["published"])
        except ValidationError as e:
            raise CommandError(f"{path}: {error_text(e)}") from None
        rl = result.rating_list
        if result.unreadable:
            self.stdout.write(f"{result.unreadable} lines could not be read and were skipped.")
        self.stdout.write(
            json.dumps(
                {
                    "source": rl.source,
                    "published": rl.published.isoformat(),
                    "entries": rl.entries_count,
                    **rl.changes,
                }
            )
        )
